// Private: the worker that reads one segment of a JSONL run export at a
// time for parallelJsonlStats (lib/runs/_jsonl_segments.ts).
/// <reference lib="deno.worker" />

import { readSegment, type SegmentResult } from "./_jsonl_segments.ts";

self.onmessage = async (e: MessageEvent) => {
  const { path, index, range, options } = e.data;
  const r: SegmentResult = await readSegment(path, index, range, options);
  self.postMessage(r, {
    transfer: [
      r.keys.keys.buffer,
      r.keys.offsets.buffer,
      r.keys.starts.buffer,
    ] as ArrayBuffer[],
  });
};
