// Private: a worker of parallelJsonlStats (lib/read/_jsonl_segments.ts):
// it cuts the file into segments (as every reader of the file does, from
// its bytes alone), then claims segment after segment from the shared
// counter and sends each one's result, until none is left or the stop flag
// is set. Its first message is the segment bounds it found.

import { listenAs, postToParent } from "../_worker_script.ts";
import {
  readSegment,
  segmentBounds,
  type SegmentResult,
} from "./_jsonl_segments.ts";
import { JSONL_WORKER_NAME } from "./_jsonl_read_ahead.ts";

listenAs(JSONL_WORKER_NAME, onSegmentWork);

async function onSegmentWork(e: MessageEvent): Promise<void> {
  const { path, size, claim, segmentBytes, options } = e.data as {
    path: string;
    size: number;
    claim: Int32Array<SharedArrayBuffer>;
    segmentBytes: number;
    options: { chunkSize?: number };
  };
  const bounds = await segmentBounds(path, size, segmentBytes);
  postToParent({ bounds });
  const segments = bounds.length - 1;
  while (Atomics.load(claim, 1) === 0) {
    const index = Atomics.add(claim, 0, 1);
    if (index >= segments) break;
    const r: SegmentResult = await readSegment(
      path,
      index,
      { start: bounds[index], end: bounds[index + 1] },
      options,
    );
    // a segment the one-thread reader must read again: the whole file will
    // be, so no one claims more (a harness log read ahead, say)
    if (r.trouble !== null || r.repeatedTasks) Atomics.store(claim, 1, 1);
    postToParent(r, {
      transfer: [r.keys.keys.buffer, r.keys.starts.buffer] as ArrayBuffer[],
    });
  }
}
