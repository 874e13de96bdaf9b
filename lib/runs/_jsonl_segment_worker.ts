// Private: a worker of parallelJsonlStats (lib/runs/_jsonl_segments.ts):
// it cuts the file into segments (as every reader of the file does, from
// its bytes alone), then claims segment after segment from the shared
// counter and sends each one's result, until none is left or the stop flag
// is set. Its first message is the segment bounds it found. At the end it
// may be asked to sort some partitions of the key check (repeatedIn).
/// <reference lib="deno.worker" />

import {
  readSegment,
  segmentBounds,
  type SegmentResult,
} from "./_jsonl_segments.ts";
import { repeatedPairs } from "./_key_partitions.ts";

self.onmessage = async (e: MessageEvent) => {
  // at the end: the repeated keys of some partitions of the key check
  if ("repeatedIn" in e.data) {
    const found = (e.data.repeatedIn as Uint32Array[]).map(repeatedPairs);
    self.postMessage({ repeated: found }, {
      transfer: found.map((a) => a.buffer) as ArrayBuffer[],
    });
    return;
  }
  const { path, size, claim, segmentBytes, options } = e.data as {
    path: string;
    size: number;
    claim: Int32Array<SharedArrayBuffer>;
    segmentBytes: number;
    options: { chunkSize?: number };
  };
  const bounds = await segmentBounds(path, size, segmentBytes);
  self.postMessage({ bounds });
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
    self.postMessage(r, {
      transfer: [
        r.keys.keys.buffer,
        r.keys.offsets.buffer,
        r.keys.starts.buffer,
      ] as ArrayBuffer[],
    });
  }
};
