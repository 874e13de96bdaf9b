// Private: the workers of the parallel JSONL reader (_jsonl_segments.ts),
// and reading ahead with them. Workers claim segments from a shared counter
// (Atomics), the reading thread too, so nobody waits to be handed work. The
// CLI may start them on a large JSONL input before the command's modules
// have loaded (startReadAhead): they read the first segments on a core that
// would sit idle meanwhile, and parallelJsonlStats takes them, with what
// they read, when it is asked for that file. This module imports nothing,
// so that starting costs the CLI no module loading.

/** The name the workers of the parallel JSONL reader are started with. */
export const JSONL_WORKER_NAME = "lossbook-jsonl-segments";

/** Segment size: 16 MiB. */
export const SEGMENT_BYTES = 1 << 24;

/** Workers reading one file, claiming segments from a shared counter. */
export interface SegmentWorkers {
  readonly path: string;
  readonly size: number;
  readonly segmentBytes: number;
  readonly workers: readonly Worker[];
  /** [next segment to claim, stop flag]: on a SharedArrayBuffer. */
  readonly claim: Int32Array<SharedArrayBuffer>;
  /** What the workers sent before anyone listened, in arrival order. */
  readonly early: MessageEvent[];
  /** A worker's error before anyone listened. */
  failed: ErrorEvent | null;
}

/**
 * Start `count` workers reading `path` (of `size` bytes) segment after
 * segment, until the segments run out or `stopWorkers`.
 */
export function startWorkers(
  path: string,
  size: number,
  count: number,
  options: { segmentBytes?: number; chunkSize?: number } = {},
): SegmentWorkers {
  const claim = new Int32Array(new SharedArrayBuffer(8));
  const url = new URL("./_jsonl_segment_worker.ts", import.meta.url).href;
  const started: SegmentWorkers = {
    path,
    size,
    segmentBytes: options.segmentBytes ?? SEGMENT_BYTES,
    workers: Array.from({ length: count }, () => {
      const w = new Worker(url, { type: "module", name: JSONL_WORKER_NAME });
      w.onmessage = (e) => started.early.push(e);
      w.onerror = (e) => {
        e.preventDefault();
        started.failed ??= e;
      };
      return w;
    }),
    claim,
    early: [],
    failed: null,
  };
  for (const w of started.workers) {
    w.postMessage({
      path,
      size,
      claim,
      segmentBytes: started.segmentBytes,
      options: { chunkSize: options.chunkSize },
    });
  }
  return started;
}

/** Tell the workers to claim no more segments, and end them. */
export function stopWorkers(w: SegmentWorkers): void {
  Atomics.store(w.claim, 1, 1);
  for (const worker of w.workers) worker.terminate();
}

let ahead: SegmentWorkers | null = null;

/**
 * Start reading `path` ahead, with `navigator.hardwareConcurrency - 1`
 * workers, when it is a file of two segments or more (the size at which
 * `jsonlStatsFile` reads with workers). Quietly does nothing otherwise, or
 * when the file cannot be read: the command itself reports that.
 *
 * @returns Whether workers were started.
 */
export function startReadAhead(path: string): boolean {
  stopReadAhead();
  const count = (navigator.hardwareConcurrency ?? 1) - 1;
  if (count < 1) return false;
  let size: number;
  try {
    const stat = Deno.statSync(path);
    if (!stat.isFile) return false;
    size = stat.size;
  } catch {
    return false;
  }
  if (size < 2 * SEGMENT_BYTES) return false;
  ahead = startWorkers(path, size, count);
  return true;
}

/**
 * The workers reading ahead `path` of `size` bytes in segments of
 * `segmentBytes`, taken (so they are not stopped), or null.
 */
export function takeReadAhead(
  path: string,
  size: number,
  segmentBytes: number,
): SegmentWorkers | null {
  const w = ahead;
  if (
    w === null || w.path !== path || w.size !== size ||
    w.segmentBytes !== segmentBytes
  ) return null;
  ahead = null;
  return w;
}

/** Stop a read-ahead that nobody took. */
export function stopReadAhead(): void {
  if (ahead !== null) stopWorkers(ahead);
  ahead = null;
}

/**
 * The JSONL file a `score` or `sweep` command line reads, when the CLI can
 * tell before parsing it with the command's options: exactly one argument
 * ending in `.jsonl` that is not an option, and no engine other than
 * memory. Null otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readAheadPath } from "./_jsonl_read_ahead.ts";
 *
 * assert.equal(readAheadPath(["run.jsonl", "--json"]), "run.jsonl");
 * assert.equal(readAheadPath(["a.jsonl", "b.jsonl"]), null);
 * assert.equal(readAheadPath(["run.jsonl", "--engine", "duckdb"]), null);
 * assert.equal(readAheadPath(["--profile=run.jsonl"]), null);
 * ```
 */
export function readAheadPath(args: readonly string[]): string | null {
  const files = args.filter((a) => !a.startsWith("-") && /\.jsonl$/i.test(a));
  if (files.length !== 1) return null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const engine = a === "--engine"
      ? args[i + 1]
      : a.startsWith("--engine=")
      ? a.slice("--engine=".length)
      : undefined;
    if (engine !== undefined && engine !== "memory") return null;
    if (a === "--format" || a.startsWith("--format=")) return null;
  }
  return files[0];
}
