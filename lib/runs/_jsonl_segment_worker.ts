// Private: the worker that reads segments of a JSONL run export, one at a
// time, for parallelJsonlStats (lib/runs/_jsonl_segments.ts).
/// <reference lib="deno.worker" />

import { readSegment, type SegmentResult } from "./_jsonl_segments.ts";

// segments are read one after another in the order they were given; the
// main thread keeps two in hand here, so that the next is waiting when one
// is done
let queue: Promise<void> = Promise.resolve();
self.onmessage = (e: MessageEvent) => {
  const { path, index, range, options } = e.data;
  queue = queue.then(async () => {
    const r: SegmentResult = await readSegment(path, index, range, options);
    self.postMessage(r, {
      transfer: [
        r.keys.keys.buffer,
        r.keys.offsets.buffer,
        r.keys.starts.buffer,
      ] as ArrayBuffer[],
    });
  });
};
