// Private: a worker of readSamplesInParallel (_lm_eval_parallel.ts). It
// claims segment after segment of a samples file from the shared counter,
// reads each (readSegment, _lm_eval_segment.ts) and sends its lines back as
// columns, moved rather than copied.

import { LEAD, readSegment } from "./_lm_eval_segment.ts";
import type { SegmentWork } from "./_lm_eval_parallel.ts";

/** The name readSamplesInParallel gives its workers. */
export const LM_EVAL_WORKER_NAME = "lossbook-lm-eval-samples";

// The worker's global scope, typed here: a published module may not change
// the global types of those who import it (a `deno.worker` lib directive).
const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent) => void) | null;
  postMessage(message: unknown, options?: StructuredSerializeOptions): void;
};

// Only as the worker readSamplesInParallel starts, by its name, does it
// listen: imported anywhere else (the package's module graph imports it,
// late_modules.ts, and so may a worker of the caller's own), it installs
// nothing.
if (
  "WorkerGlobalScope" in globalThis &&
  (globalThis as { name?: string }).name === LM_EVAL_WORKER_NAME
) scope.onmessage = onWork;

async function onWork(e: MessageEvent): Promise<void> {
  const work = e.data as SegmentWork;
  const { bounds, claim } = work;
  while (Atomics.load(claim, 1) === 0) {
    const index = Atomics.add(claim, 0, 1);
    if (index >= bounds.length - 1) break;
    // wait while the reading thread is LEAD segments behind
    for (;;) {
      const taken = Atomics.load(claim, 2);
      if (index < taken + LEAD || Atomics.load(claim, 1) !== 0) break;
      Atomics.wait(claim, 2, taken, 1000);
    }
    // a segment claimed is read and sent even after a stop: the reading
    // thread may be waiting for it (a stop ends the claiming only)
    const r = await readSegment(work, index);
    if (r.trouble) Atomics.store(claim, 1, 1);
    scope.postMessage(r, {
      transfer: [
        r.no,
        r.docId,
        r.filter,
        r.metric,
        r.kind,
        r.correct,
        r.pValue,
        r.hasP,
        r.roundedOff,
      ].map((a) => a.buffer as ArrayBuffer),
    });
  }
}
