// Private: a worker of parallelJsonlStats (lib/read/_jsonl_segments.ts):
// it cuts the file into segments (as every reader of the file does, from
// its bytes alone), then claims segment after segment from the shared
// counter and sends each one's result, until none is left or the stop flag
// is set. Its first message is the segment bounds it found.

import {
  readSegment,
  segmentBounds,
  type SegmentResult,
} from "./_jsonl_segments.ts";
import { JSONL_WORKER_NAME } from "./_jsonl_read_ahead.ts";

// The worker's global scope, typed here: a published module may not change
// the global types of those who import it (a `deno.worker` lib directive).
const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent) => void) | null;
  postMessage(message: unknown, options?: StructuredSerializeOptions): void;
};

// Only as the worker startWorkers starts, by its name, does it listen:
// imported anywhere else (the package's module graph imports it,
// late_modules.ts, and so may a worker of the caller's own), it installs
// nothing.
if (
  "WorkerGlobalScope" in globalThis &&
  (globalThis as { name?: string }).name === JSONL_WORKER_NAME
) scope.onmessage = onSegmentWork;

async function onSegmentWork(e: MessageEvent): Promise<void> {
  const { path, size, claim, segmentBytes, options } = e.data as {
    path: string;
    size: number;
    claim: Int32Array<SharedArrayBuffer>;
    segmentBytes: number;
    options: { chunkSize?: number };
  };
  const bounds = await segmentBounds(path, size, segmentBytes);
  scope.postMessage({ bounds });
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
    scope.postMessage(r, {
      transfer: [r.keys.keys.buffer, r.keys.starts.buffer] as ArrayBuffer[],
    });
  }
}
