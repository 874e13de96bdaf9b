// Private: a worker of readSamplesInParallel (_lm_eval_parallel.ts). It
// claims segment after segment of a samples file from the shared counter,
// reads each (readSegment, _lm_eval_segment.ts) and sends its lines back as
// columns, moved rather than copied.

import { listenAs, postToParent } from "../_worker_script.ts";
import { LEAD, readSegment, type SegmentWork } from "./_lm_eval_segment.ts";

/** The name readSamplesInParallel gives its workers. */
export const LM_EVAL_WORKER_NAME = "lossbook-lm-eval-samples";

listenAs(LM_EVAL_WORKER_NAME, onWork);

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
    postToParent(r, {
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
