// Private: one segment of a samples file read, checked and scored, line by
// line as lm_eval.ts reads them (sampleLine, scoreLine), into columns, each
// sample reduced to its values at the paths the resolvers read: the work of
// every thread of readSamplesInParallel (_lm_eval_parallel.ts), the
// workers' (_lm_eval_worker.ts) and the reading thread's. A line that fails
// anything makes the segment's `trouble`: the reading thread then reads the
// file from that segment on itself, which gives the exact error.

import { decodeLine, jsonlByteLines } from "../read/_jsonl_lines.ts";
import { valueAtPath } from "./mapping.ts";
import { lineWhere, sampleLine, scoreLine } from "./_lm_eval_line.ts";
import type { SegmentLines, SegmentWork } from "./_lm_eval_parallel.ts";

/**
 * How many segments a worker may read ahead of the segment the reading
 * thread takes next, so that the lines waiting to be taken stay few. (Here,
 * not in _lm_eval_parallel.ts, so that a worker loads none of the reading
 * thread's modules.)
 */
export const LEAD = 6;

/**
 * Read, check and score the lines of segment `index` (a worker's work, and
 * the reading thread's while it waits).
 */
export async function readSegment(
  { path, where, context, paths, bounds }: SegmentWork,
  index: number,
): Promise<SegmentLines> {
  const no: number[] = [];
  const docId: number[] = [];
  const filter: number[] = [];
  const metric: number[] = [];
  const kind: number[] = [];
  const correct: number[] = [];
  const pValue: number[] = [];
  const hasP: number[] = [];
  const roundedOff: number[] = [];
  const target: (string | undefined)[] = [];
  const answer: (string | undefined)[] = [];
  const values: unknown[][] = paths.map(() => []);
  const texts: string[] = [];
  const textIndex = new Map<string, number>();
  const text = (t: string): number => {
    let i = textIndex.get(t);
    if (i === undefined) {
      i = texts.length;
      texts.push(t);
      textIndex.set(t, i);
    }
    return i;
  };
  const readLine = (raw: string, n: number): boolean => {
    try {
      const line = sampleLine(raw, n, where);
      if (line === null) return true;
      const s = scoreLine(line, context, lineWhere(where, line));
      no.push(n);
      docId.push(line.docId);
      filter.push(text(line.filter));
      metric.push(text(s.metric));
      kind.push(text(s.kind));
      correct.push(s.correct ? 1 : 0);
      pValue.push(s.pValue ?? 0);
      hasP.push(s.pValue === null ? 0 : 1);
      roundedOff.push(s.roundedOff);
      target.push(s.target);
      answer.push(s.answer);
      paths.forEach((p, j) => values[j].push(valueAtPath(line.sample, p)));
      return true;
    } catch {
      return false;
    }
  };
  let count = 0;
  let trouble = false;
  try {
    await jsonlByteLines(
      path,
      { chunkSize: 1 << 20 },
      (bytes, start, end, line, offset) => {
        count = line;
        if (trouble) return;
        const raw = decodeLine(bytes.subarray(start, end), where, line, offset);
        trouble = !readLine(raw, line);
      },
      undefined,
      { start: bounds[index], end: bounds[index + 1] },
    );
  } catch {
    trouble = true; // invalid UTF-8, or the file changed under us
  }
  return {
    index,
    count,
    trouble,
    no: Int32Array.from(no),
    docId: Float64Array.from(docId),
    filter: Uint32Array.from(filter),
    metric: Uint32Array.from(metric),
    kind: Uint32Array.from(kind),
    correct: Uint8Array.from(correct),
    pValue: Float64Array.from(pValue),
    hasP: Uint8Array.from(hasP),
    roundedOff: Int32Array.from(roundedOff),
    texts,
    target,
    answer,
    values,
  };
}
