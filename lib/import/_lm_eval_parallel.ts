// Private: a large lm-eval samples file read by workers. The file is cut
// into segments at line starts (segmentBounds, from its bytes alone); each
// worker (_lm_eval_worker.ts) reads, checks and scores the lines of the
// segments it claims, and so does the reading thread while it waits for
// the next segment. The reading thread takes the lines in file order into
// the reader, which alone keeps what spans lines (repeated doc_ids, the
// filter) and calls the resolvers. A segment with any failing line, or a
// worker that fails, sends the rest of the file, from that segment on,
// through the one-thread reader: the workers only ever speed a clean file
// up, and every error is the one-thread reader's own.

import { segmentBounds } from "../read/_jsonl_segments.ts";
import {
  LEAD,
  readSegment,
  type SegmentLines,
  type SegmentWork,
  takeSegment,
} from "./_lm_eval_segment.ts";
import { LM_EVAL_WORKER_NAME } from "./_lm_eval_worker.ts";
import { SEGMENT_BYTES } from "../read/_jsonl_read_ahead.ts";
import type { Line, ScoredLine } from "./_lm_eval_line.ts";

/**
 * At most this many threads read by default, the reading thread among
 * them: each worker holds a heap of its own (about 67 MB busy), and the
 * reading thread, which takes every line, would hold more back. On the
 * benchmark's file (`docs/performance.md`) a thread read about 90,000 lines
 * a second and the reading thread took about 500,000.
 */
export const MAX_WORKERS = 4;

/** How the workers read. */
export interface ParallelOptions {
  /** Segment size. Default: 16 MiB (tests use a few hundred bytes). */
  readonly segmentBytes?: number;
  /**
   * Threads that read, the reading thread among them. Default: the
   * machine's cores, at most {@linkcode MAX_WORKERS}; fewer than 2 reads in
   * one thread.
   */
  readonly workers?: number;
}

/**
 * Read `path` (of `size` bytes) with workers into `add`, in file order.
 * Returns where the one-thread reader must go on: `null` when every line
 * was read, else the byte offset of a segment start and the number of
 * lines before it. Files of one segment, or with fewer than two workers,
 * are left to the one-thread reader whole (`{ start: 0, linesBefore: 0 }`).
 */
export async function readSamplesInParallel(
  work: Omit<SegmentWork, "bounds" | "claim">,
  size: number,
  add: (line: Line, scored: ScoredLine) => void,
  options: ParallelOptions = {},
): Promise<{ start: number; linesBefore: number } | null> {
  const count = options.workers ??
    Math.min(MAX_WORKERS, navigator.hardwareConcurrency ?? 1);
  const segmentBytes = options.segmentBytes ?? SEGMENT_BYTES;
  const whole = { start: 0, linesBefore: 0 };
  if (count < 2 || size < 2 * segmentBytes) return whole;
  const bounds = await segmentBounds(work.path, size, segmentBytes);
  const segments = bounds.length - 1;
  if (segments < 2) return whole;
  const claim = new Int32Array(new SharedArrayBuffer(12));
  const arrived = new Map<number, SegmentLines>();
  let failed = false;
  let wake: (() => void) | null = null;
  const url = new URL("./_lm_eval_worker.ts", import.meta.url).href;
  // the reading thread reads too, while it waits: one worker fewer
  const workers = Array.from(
    { length: Math.min(count, segments) - 1 },
    () => {
      const w = new Worker(url, { type: "module", name: LM_EVAL_WORKER_NAME });
      w.onmessage = (e: MessageEvent<SegmentLines>) => {
        arrived.set(e.data.index, e.data);
        wake?.();
      };
      w.onerror = (e) => {
        e.preventDefault();
        failed = true;
        wake?.();
      };
      return w;
    },
  );
  try {
    const all = { ...work, bounds, claim };
    for (const w of workers) w.postMessage(all);
    let linesBefore = 0;
    for (let k = 0; k < segments; k++) {
      while (!arrived.has(k) && !failed) {
        // while segment k is on its way, the next one nobody has claimed,
        // within the lead the workers keep too, is read here
        const next = Atomics.load(claim, 0);
        if (next < segments && next < k + LEAD) {
          const j = Atomics.add(claim, 0, 1);
          if (j < segments) {
            const r = await readSegment(all, j);
            if (r.trouble) Atomics.store(claim, 1, 1);
            arrived.set(j, r);
          }
          continue;
        }
        await new Promise<void>((resolve) => wake = resolve);
        wake = null;
      }
      const got = arrived.get(k);
      if (got === undefined || got.trouble) {
        return { start: bounds[k], linesBefore };
      }
      arrived.delete(k);
      Atomics.store(claim, 2, k + 1);
      Atomics.notify(claim, 2);
      takeSegment(got, work.paths, linesBefore, add);
      linesBefore += got.count;
    }
    return null;
  } finally {
    Atomics.store(claim, 1, 1);
    Atomics.notify(claim, 2);
    for (const w of workers) w.terminate();
  }
}
