// Private: one segment of a samples file read, checked and scored, line by
// line as lm_eval.ts reads them (sampleLine, scoreLine), into columns, each
// sample reduced to its values at the paths the resolvers read: the work of
// every thread of readSamplesInParallel (_lm_eval_parallel.ts), the
// workers' (_lm_eval_worker.ts) and the reading thread's. A line that fails
// anything makes the segment's `trouble`: the reading thread then reads the
// file from that segment on itself, which gives the exact error.

import { valueAtPath } from "./mapping.ts";
import {
  type Line,
  type LineContext,
  lineWhere,
  readSampleLines,
  recordOf,
  type ScoredLine,
  scoreLine,
} from "./_lm_eval_line.ts";

/** What a worker is asked to read. */
export interface SegmentWork {
  readonly path: string;
  readonly where: string;
  readonly context: LineContext;
  /** The record paths the resolvers read, less those inside another's (outerPaths). */
  readonly paths: readonly (readonly string[])[];
  /** Segment starts, and the file's size last. */
  readonly bounds: readonly number[];
  /**
   * [next segment to claim, stop flag, segments taken by the reading
   * thread]: on a SharedArrayBuffer. A worker claims no segment more than
   * LEAD (_lm_eval_segment.ts) ahead of those taken, so that lines waiting to be
   * taken stay few.
   */
  readonly claim: Int32Array<SharedArrayBuffer>;
}

/**
 * What a worker sends back for one segment: its non-blank lines as
 * columns (typed arrays, moved rather than copied, and lists of texts),
 * which cost far less to pass between threads than one object per line.
 */
export interface SegmentLines {
  readonly index: number;
  /** The segment's lines, blank ones included (its last line's number). */
  readonly count: number;
  /** Whether a line failed: the segment is read again by the one-thread reader. */
  readonly trouble: boolean;
  /** Each line's number, from 1 at the segment's start. */
  readonly no: Int32Array;
  readonly docId: Float64Array;
  /** Filter, metric and kind of each line, as indices into `texts`. */
  readonly filter: Uint32Array;
  readonly metric: Uint32Array;
  readonly kind: Uint32Array;
  readonly texts: readonly string[];
  /** 1 where the metric says correct. */
  readonly correct: Uint8Array;
  /** P(correct), where `hasP` is 1. */
  readonly pValue: Float64Array;
  readonly hasP: Uint8Array;
  readonly roundedOff: Int32Array;
  readonly target: readonly (string | undefined)[];
  readonly answer: readonly (string | undefined)[];
  /** Per outer record path, each line's value there (undefined where absent). */
  readonly values: readonly (readonly unknown[])[];
}

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
  let count = 0;
  let trouble = false;
  try {
    count = await readSampleLines(
      path,
      where,
      { start: bounds[index], end: bounds[index + 1] },
      0,
      (line) => {
        const s = scoreLine(line, context, lineWhere(where, line));
        no.push(line.no);
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
      },
    );
  } catch {
    trouble = true; // a line fails, or the file changed under us
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

/**
 * Give `add` the lines of a segment {@linkcode readSegment} read, in order,
 * numbered after `linesBefore`, each sample rebuilt from its values at
 * `paths` ({@linkcode recordOf}) and its score from the columns.
 */
export function takeSegment(
  got: SegmentLines,
  paths: readonly (readonly string[])[],
  linesBefore: number,
  add: (line: Line, scored: ScoredLine) => void,
): void {
  const { texts, values } = got;
  const at: unknown[] = new Array(values.length);
  for (let i = 0; i < got.no.length; i++) {
    for (let j = 0; j < values.length; j++) at[j] = values[j][i];
    add({
      no: linesBefore + got.no[i],
      sample: recordOf(paths, at),
      docId: got.docId[i],
      filter: texts[got.filter[i]],
    }, {
      metric: texts[got.metric[i]],
      correct: got.correct[i] === 1,
      target: got.target[i],
      answer: got.answer[i],
      pValue: got.hasP[i] === 1 ? got.pValue[i] : null,
      kind: texts[got.kind[i]],
      roundedOff: got.roundedOff[i],
    });
  }
}
