// Private: a JSONL run export read in parts by workers. The file is cut
// into segments of fixed size at line starts (so the cut, and with it every
// sum, depends on the file alone, never on how many workers there are);
// each worker reads whole segments with the byte scanner into cells and a
// log of decision-key hashes; the main thread merges them in file order and
// checks the keys across the whole file. Anything unusual (a line that
// fails a check, a repeated key, a run whose tasks repeat, which needs the
// second pass) sends the file to the one-thread reader, which gives the
// exact error or result; so the workers only ever speed a clean file up.

import type { Decision } from "../decision/decision.ts";
import { type DecisionUnit, resolveUnit } from "../decision/cluster.ts";
import { DecisionScan } from "./_decision_scan.ts";
import { importLater } from "../_late_import.ts";
import {
  type ByteRange,
  type ChunkBuffers,
  contentEnd,
  decodeLine,
  isBlank,
  jsonlByteLines,
  jsonlChunks,
  type JsonlLinesOptions,
  lineBreak,
} from "./_jsonl_lines.ts";
import {
  KEY_PARTITION_BITS,
  KeyPartitions,
  type PartitionedKeys,
  partitionKeys,
} from "./_key_partitions.ts";
import {
  type Cell,
  emptyCell,
  type JsonlStats,
  KeyLog,
  StatsBuilder,
  statsOfCells,
} from "./_stats_builder.ts";
import type { Action } from "../metrics/sufficient_stats.ts";
import type { Severity } from "../costs/severity.ts";
import {
  WASM_LOG_ENTRIES,
  WASM_STATUS,
  type WasmScan,
  withWasmScan,
} from "./_scan_wasm.ts";
import {
  SEGMENT_BYTES,
  type SegmentWorkers,
  startWorkers,
  stopWorkers,
  takeReadAhead,
} from "./_jsonl_read_ahead.ts";

export { SEGMENT_BYTES } from "./_jsonl_read_ahead.ts";

/**
 * Read the lines of `range` of a file into `builder` through the byte
 * scanner; a line the scanner leaves (not blank) goes decoded to `onText`,
 * which reads it with decisionFromLine (imported by the caller, so that a
 * worker loads the schema only when a line needs it). `progress` is called
 * every 100,000 decisions the scanner read. A failing line's error goes
 * through `onError` with the line's offset. Returns the number of lines.
 */
export async function readLines(
  builder: StatsBuilder,
  path: string,
  options: JsonlLinesOptions,
  range: ByteRange,
  onText: (text: string, line: number, offset: number) => void,
  progress?: (line: number, offset: number) => void,
  onError?: (error: unknown, offset: number) => Promise<unknown>,
): Promise<number> {
  const sink = LineSink.take();
  sink.builder = builder;
  sink.where = `Cannot load run export ${path}`;
  sink.onText = onText;
  sink.progress = progress ?? null;
  sink.line = 0;
  try {
    await jsonlByteLines(
      path,
      options,
      sink.onLine,
      sink.match,
      range,
      sink.onBuffer,
    );
    return sink.line;
  } catch (error) {
    throw onError === undefined ? error : await onError(error, sink.offset);
  } finally {
    sink.give();
  }
}

// The per-line work of readLines, with its callbacks made once: the engine
// optimizes the line loop for these very functions, so a new pair per file
// or segment would throw that code away each time. A pool, in case two
// files are read at once.
class LineSink {
  static #free: LineSink[] = [];
  static take(): LineSink {
    return LineSink.#free.pop() ?? new LineSink();
  }
  give(): void {
    this.builder = null;
    this.onText = null;
    this.progress = null;
    LineSink.#free.push(this);
  }

  readonly scan = new DecisionScan();
  builder: StatsBuilder | null = null;
  where = "";
  onText: ((text: string, line: number, offset: number) => void) | null = null;
  progress: ((line: number, offset: number) => void) | null = null;
  line = 0;
  offset = 0; // the line being read

  readonly match = (b: Uint8Array, s: number, limit: number): number =>
    this.scan.matchAt(b, s, limit);

  readonly onBuffer = (b: Uint8Array): void => {
    this.scan.use(b);
    this.builder!.hasher.use(b);
  };

  readonly onLine = (
    b: Uint8Array,
    s: number,
    e: number,
    line: number,
    offset: number,
    matched: boolean,
  ): void => {
    this.line = line;
    this.offset = offset;
    const builder = this.builder!;
    if (matched || this.scan.scan(b, s, e)) {
      builder.addScanned(b, this.scan, line, offset);
      if (this.progress !== null && builder.decisions % 100_000 === 0) {
        this.progress(line, offset);
      }
    } else if (!isBlank(b, s, e)) {
      const text = decodeLine(b.subarray(s, e), this.where, line, offset);
      if (text.trim() !== "") this.onText!(text, line, offset);
    }
  };
}

/**
 * The read size of the WebAssembly reader: 1 MiB. The bytes are read into
 * the module's memory, whose pages the system first has to provide; a
 * 1 MiB buffer asks for a quarter of the pages of the 4 MiB one the other
 * readers use, so a thread's first segment starts sooner (it waits on
 * fewer fresh pages before its first line), and the lines scanned are still
 * in the cache the read filled.
 */
const WASM_CHUNK_BYTES = 1 << 20;

/**
 * {@linkcode readLines} for a segment, through the WebAssembly reader: the
 * lines that match the scanner's template are read and counted there (into
 * its own cells, added to `builder` at the end, and its key log, emptied
 * into the builder's when it fills: the keys still in it at the end are the
 * caller's, with `wasm.partitionLog` or `wasm.drainLog`); every other line,
 * and the first line of each new cell, is read here by the byte scanner as
 * readLines reads it. Returns the number of lines.
 */
export async function readLinesWasm(
  wasm: WasmScan,
  builder: StatsBuilder,
  path: string,
  options: JsonlLinesOptions,
  range: Required<ByteRange>,
  onText: (text: string, line: number, offset: number) => void,
): Promise<number> {
  const sink = LineSink.take();
  sink.builder = builder;
  sink.where = `Cannot load run export ${path}`;
  sink.onText = onText;
  sink.progress = null;
  sink.line = 0;
  const scan = sink.scan;
  wasm.reset();
  const keyLog = builder.keyLog!;
  // the builder's cell of each WebAssembly cell
  const cells: Cell[] = [];
  let wasmLines = 0;
  let useWasm = true;
  // the module's memory holds the bytes (and keeps them as it grows)
  const buffers: ChunkBuffers = { next: (_old, size) => wasm.buffer(size) };
  let line = 0;
  try {
    await jsonlChunks(
      path,
      { ...options, chunkSize: options.chunkSize ?? WASM_CHUNK_BYTES },
      range,
      buffers,
      (view, start, eof, base) => {
        const filled = view.length;
        sink.onBuffer(view);
        let pos = start;
        for (;;) {
          if (useWasm && wasm.hasFirstRun && wasm.follow(scan)) {
            const status = wasm.run(pos, filled, eof);
            pos = wasm.pos;
            line += wasm.lines;
            wasmLines += wasm.lines;
            if (status === WASM_STATUS.done) break;
            if (status === WASM_STATUS.logFull) {
              wasm.drainLog(keyLog);
              continue;
            }
            if (status === WASM_STATUS.newCell) {
              const [ms, me] = wasm.span(1);
              const [ts, te] = wasm.span(3);
              const [ps, pe] = wasm.span(4);
              const [severity, action] = wasm.code;
              const c = builder.cell(
                builder.models.ofBytes(view, ms, me),
                severity,
                action,
                builder.classes.ofBytes(view, ts, te),
                builder.classes.ofBytes(view, ps, pe),
              );
              if (wasm.addCell()) cells.push(c);
              else useWasm = false; // the cell table is full: read on here
              continue;
            }
          }
          // one line here, as readLines reads it
          const nl = lineBreak(view, pos, eof);
          if (nl < 0) break;
          line++;
          sink.onLine(
            view,
            pos,
            contentEnd(view, pos, nl),
            line,
            base + pos,
            false,
          );
          if (!wasm.hasFirstRun && builder.firstRun !== null) {
            builder.firstRunBytes ??= new TextEncoder().encode(
              builder.firstRun,
            );
            if (!wasm.setFirstRun(builder.firstRunBytes)) useWasm = false;
          }
          pos = nl + 1;
        }
        return pos;
      },
    );
    for (const [i, c] of cells.entries()) {
      const k = wasm.counts(i);
      c.n += k.n;
      c.pError.addUnits(k.pErrorUnits);
      c.pMissing += k.pMissing;
      c.parseFailures += k.parseFailures;
    }
    builder.decisions += wasmLines;
    if (wasm.repeated) builder.repeatedTasks = true;
    return line;
  } finally {
    sink.give();
  }
}

/**
 * The second pass of a run whose units repeat: the cluster rules, and each
 * model's decisions per unit (every line passed the first pass's checks).
 */
export async function shareLines(
  builder: StatsBuilder,
  path: string,
  options: JsonlLinesOptions,
): Promise<void> {
  const where = `Cannot load run export ${path}`;
  const scan = new DecisionScan();
  await jsonlByteLines(path, options, (b, s, e, line, offset, matched) => {
    if (matched || scan.scan(b, s, e)) builder.shareScanned(b, scan, line);
    else if (!isBlank(b, s, e)) {
      const text = decodeLine(b.subarray(s, e), where, line, offset);
      if (text.trim() !== "") {
        builder.share(JSON.parse(text) as Decision, line);
      }
    }
  }, (b, s, limit) => scan.matchAt(b, s, limit));
}

/**
 * Where the segments of a file start: 0, then the first line start at or
 * after each multiple of `segmentBytes`, then the file size.
 */
export async function segmentBounds(
  path: string,
  size: number,
  segmentBytes: number = SEGMENT_BYTES,
): Promise<number[]> {
  const bounds = [0];
  using file = await Deno.open(path, { read: true });
  const window = new Uint8Array(1 << 16);
  for (let target = segmentBytes; target < size; target += segmentBytes) {
    if (target <= bounds.at(-1)!) continue; // inside a long line
    // the line start after the first LF at or after target - 1
    let at = target - 1;
    let found = -1;
    while (found < 0 && at < size) {
      await file.seek(at, Deno.SeekMode.Start);
      const n = await file.read(window);
      if (n === null) break;
      const i = window.subarray(0, n).indexOf(10);
      if (i >= 0) found = at + i + 1;
      else at += n;
    }
    if (found < 0 || found >= size) break;
    bounds.push(found);
  }
  bounds.push(size);
  return bounds;
}

/** What a worker sends back for one segment. */
export interface SegmentResult {
  readonly index: number;
  /** Why the segment needs the one-thread reader, or null. */
  readonly trouble: string | null;
  readonly lines: number;
  readonly decisions: number;
  /**
   * [modelId, severity, trueClass, predClass, action, n, the exact sum of
   * 1 - pCorrect in units of 2^-53, pMissing, parseFailures]
   */
  readonly cells: Array<
    [string, string, string, string, string, number, bigint, number, number]
  >;
  readonly firstRun: string | null;
  readonly repeatedTasks: boolean;
  /** The segment's decision keys, sorted into partitions. */
  readonly keys: PartitionedKeys;
}

/** Options of {@linkcode readSegment}. */
export interface SegmentOptions extends JsonlLinesOptions {
  /** Read template lines with the WebAssembly reader. Default: true. */
  wasm?: boolean;
  /**
   * Keys the WebAssembly reader's log holds before it is emptied into
   * JavaScript. Default: {@linkcode WASM_LOG_ENTRIES} (tests use small
   * ones).
   */
  wasmLogEntries?: number;
}

/** Read one segment (in a worker, or here). */
export async function readSegment(
  path: string,
  index: number,
  range: Required<ByteRange>,
  options: SegmentOptions = {},
): Promise<SegmentResult> {
  const log = new KeyLog();
  const builder = new StatsBuilder(path, () => "", () => 0, log);
  let lines = 0;
  let trouble: string | null = null;
  // the keys sorted into partitions by the WebAssembly reader
  let keys: PartitionedKeys | null = null;
  // lines the scanner leaves are read at the end of the segment (their
  // order within it does not matter: the sums are per segment, and the key
  // check does not read the log in order)
  const left: Array<[string, number, number]> = [];
  const readLeft = async () => {
    if (left.length === 0) return;
    const { decisionFromLine } = await importLater<
      typeof import("./_jsonl_decision.ts")
    >(new URL("./_jsonl_decision.ts", import.meta.url));
    for (const [text, line, offset] of left) {
      builder.add(decisionFromLine(text, builder.where(line)), line, offset);
    }
  };
  try {
    const onText = (text: string, line: number, offset: number) => {
      left.push([text, line, offset]);
    };
    if (options.wasm === false) {
      lines = await readLines(builder, path, options, range, onText);
      await readLeft();
    } else {
      await withWasmScan(async (wasm) => {
        wasm.logCapacity = options.wasmLogEntries ?? WASM_LOG_ENTRIES;
        lines = await readLinesWasm(
          wasm,
          builder,
          path,
          options,
          range,
          onText,
        );
        await readLeft();
        // the module's keys and this thread's, in the module's memory
        keys = wasm.partitionLog(log, KEY_PARTITION_BITS);
        if (keys === null) wasm.drainLog(log);
      });
    }
  } catch (error) {
    trouble = error instanceof Error ? error.message : String(error);
  }
  return {
    index,
    trouble,
    lines,
    decisions: builder.decisions,
    cells: builder.list.map((c) => [
      c.modelId,
      c.severity,
      c.trueClass,
      c.predClass,
      c.action,
      c.n,
      c.pError.units,
      c.pMissing,
      c.parseFailures,
    ]),
    firstRun: builder.firstRun,
    repeatedTasks: builder.repeatedTasks,
    keys: keys ?? partitionKeys(log.h1, log.h2, log.size),
  };
}

/** Options of {@linkcode parallelJsonlStats}. */
export interface ParallelOptions extends JsonlLinesOptions {
  /** Workers. */
  workers: number;
  /** Segment size. Default: {@linkcode SEGMENT_BYTES}. */
  segmentBytes?: number;
  /** Keys checked in memory before the check spills to disk. */
  memoryKeys?: number;
  /** Called after each segment merged, with the lines and bytes so far. */
  onSegment?: (lines: number, bytes: number, decisions: number) => void;
  /** The unit asked for (default: the decisions' own). */
  unit?: DecisionUnit;
}

/**
 * The statistics of a clean file read by workers, or null when the file
 * needs the one-thread reader (an error to name, a repeated key, tasks that
 * repeat, a line that names a cluster).
 */
export async function parallelJsonlStats(
  path: string,
  size: number,
  options: ParallelOptions,
): Promise<JsonlStats | null> {
  const segmentBytes = options.segmentBytes ?? SEGMENT_BYTES;
  // workers reading ahead this file since the command started, or new ones
  // (this thread reads segments too, between merges: one worker fewer)
  const team: SegmentWorkers = takeReadAhead(path, size, segmentBytes) ??
    startWorkers(path, size, Math.max(options.workers - 1, 1), {
      segmentBytes,
      chunkSize: options.chunkSize,
    });
  const bounds = await segmentBounds(path, size, segmentBytes);
  const segments = bounds.length - 1;
  using seen = new KeyPartitions({ memoryKeys: options.memoryKeys });
  const cells = new Map<string, Cell>();
  const list: Cell[] = [];
  let decisions = 0;
  let lines = 0;
  let firstRun: string | null = null;
  // merge one segment; false when the file needs the one-thread reader
  const merge = (r: SegmentResult): boolean => {
    if (r.trouble !== null || r.repeatedTasks) return false;
    if (r.firstRun !== null) {
      firstRun ??= r.firstRun;
      if (r.firstRun !== firstRun) return false;
    }
    seen.add(r.keys);
    for (const row of r.cells) {
      const key = JSON.stringify(row.slice(0, 5));
      let c = cells.get(key);
      if (c === undefined) {
        c = emptyCell(
          row[0],
          row[1] as Severity,
          row[2],
          row[3],
          row[4] as Action,
        );
        cells.set(key, c);
        list.push(c);
      }
      c.n += row[5];
      c.pError.addUnits(row[6]);
      c.pMissing += row[7];
      c.parseFailures += row[8];
    }
    decisions += r.decisions;
    lines += r.lines;
    options.onSegment?.(lines, bounds[r.index + 1], decisions);
    return true;
  };
  try {
    const clean = await new Promise<boolean>((resolve, reject) => {
      let merged = 0; // segments merged, in order
      const waiting = new Map<number, SegmentResult>();
      let done = false;
      const finish = (ok: boolean) => {
        done = true;
        Atomics.store(team.claim, 1, 1); // claim no more
        resolve(ok);
      };
      // a segment read, here or by a worker: merge what is next in order
      const arrived = (r: SegmentResult) => {
        if (done) return;
        waiting.set(r.index, r);
        while (waiting.has(merged)) {
          const m = waiting.get(merged)!;
          waiting.delete(merged);
          if (!merge(m)) return finish(false);
          merged++;
        }
        if (merged === segments) finish(true);
      };
      const fail = (error: Error) => {
        if (!done) {
          done = true;
          Atomics.store(team.claim, 1, 1);
          reject(error);
        }
      };
      const message = (e: MessageEvent) => {
        if (done) return;
        if ("bounds" in e.data) {
          // a worker cut the file elsewhere: it changed while being read
          const b = e.data.bounds as number[];
          if (b.length !== bounds.length || b.some((x, i) => x !== bounds[i])) {
            finish(false);
          }
          return;
        }
        arrived(e.data as SegmentResult);
      };
      const error = (e: ErrorEvent) => {
        e.preventDefault();
        fail(new Error(`a JSONL worker failed: ${e.message}`));
      };
      if (team.failed !== null) return error(team.failed);
      for (const w of team.workers) {
        w.onmessage = message;
        w.onerror = error;
      }
      for (const e of team.early.splice(0)) message(e);
      (async () => {
        while (!done && Atomics.load(team.claim, 1) === 0) {
          const index = Atomics.add(team.claim, 0, 1);
          if (index >= segments) break;
          arrived(
            await readSegment(
              path,
              index,
              { start: bounds[index], end: bounds[index + 1] },
              { chunkSize: options.chunkSize },
            ),
          );
        }
      })().catch(fail);
    });
    if (!clean) return null;
    // a pair of hashes seen twice: the one-thread reader compares the
    // lines and names the first repeat (or, on two keys with the same
    // hashes, reads the file as a clean one)
    if ((await seen.repeats()).length > 0) return null;
  } finally {
    stopWorkers(team);
  }
  // a clean file read in segments has one trial per task and names no
  // cluster (a segment that does goes to the one-thread reader): taskShare = n
  return {
    stats: statsOfCells(list),
    decisions,
    unit: resolveUnit(options.unit, false, `Cannot load run export ${path}`),
  };
}
