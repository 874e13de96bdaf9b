// Private to the CLI: read a run in any supported format, with progress on
// stderr for large inputs.
import type { ColumnTable } from "arquero";
import type { StatsRow } from "../lib/metrics/sufficient_stats.ts";
import { decisionStats } from "../lib/runs/decision_stats.ts";
import { loadLossbenchLedger } from "../lib/runs/import_lossbench.ts";
import { loadReconforge } from "../lib/runs/import_reconforge.ts";
import { jsonlStats } from "../lib/runs/jsonl_stats.ts";
import {
  decisionTable,
  parseDecisionsJsonl,
} from "../lib/runs/load_decisions.ts";
import { decisionFormatOf, loadDecisions } from "../lib/runs/load_any.ts";
import { duckdbDecisionStats } from "../lib/runs/duckdb_stats.ts";
import { verifyLossbenchLedgerFile } from "../lib/ledger/lossbench_chain.ts";
import { CheckFailed, UsageError } from "./_command.ts";
import { noteUserStrings } from "./_terminal.ts";
import { readUtf8File } from "../lib/runs/_utf8.ts";
import { InputRangeError } from "../lib/input_error.ts";

/** Input formats the CLI reads. */
export const FORMATS = ["decisions", "reconforge", "lossbench"] as const;

/** An input format. */
export type Format = typeof FORMATS[number];

/** What the input flags say. */
export interface InputFlags {
  format?: string;
  probability?: string;
  /** `memory` (default) or `duckdb`, for Parquet and CSV larger than memory. */
  engine?: string;
  /** Skip (and list on stderr) keys a closed-schema importer does not know. */
  lenient?: boolean;
}

/** How the CLI's importers treat unknown keys: refuse, or list them on stderr and skip them. */
function unknownKeys(flags: InputFlags) {
  return {
    lenient: flags.lenient ?? false,
    onUnknownKeys: (line: string) => console.error(`warning: ${line}`),
  };
}

/** A run read for scoring. */
export interface RunInput {
  readonly format: Format;
  readonly stats: StatsRow[];
  readonly decisions: number;
  readonly notes: Readonly<Record<string, number>>;
  /** The decision table, when it was built (needed for pairing). */
  readonly table: ColumnTable | null;
}

const LARGE = 50 * 1024 * 1024;

/** The format to read `path` as: the flag, or by extension. */
export function resolveFormat(path: string, flag: string | undefined): Format {
  if (flag !== undefined) {
    if (!(FORMATS as readonly string[]).includes(flag)) {
      throw new UsageError(
        `--format must be one of ${FORMATS.join(", ")}, got ${
          JSON.stringify(flag)
        }`,
      );
    }
    return flag as Format;
  }
  if (/\.json$/i.test(path)) return "reconforge";
  return "decisions";
}

function progress(
  path: string,
  size: number,
): ((lines: number, chars: number) => void) | undefined {
  if (size < LARGE) return undefined;
  const encoder = new TextEncoder();
  return (lines, chars) => {
    const pct = Math.min(100, (100 * chars) / size).toFixed(0);
    Deno.stderr.writeSync(
      encoder.encode(
        `\rreading ${path}: ${lines.toLocaleString("en-US")} lines (${pct}%)`,
      ),
    );
  };
}

function done(path: string, size: number): void {
  if (size >= LARGE) console.error(`\rreading ${path}: done${" ".repeat(30)}`);
}

/**
 * Read a run for scoring. With `needTable`, decisions are also laid out as a
 * table (for pairing); otherwise JSONL goes through the one-pass statistics.
 */
export async function readRun(
  path: string,
  flags: InputFlags,
  needTable = false,
): Promise<RunInput> {
  const run = await readRunUnnoted(path, flags, needTable);
  // an empty input is refused by every command, never scored as 0 decisions
  if (run.decisions === 0) throw new InputRangeError(`no decisions in ${path}`);
  noteUserStrings(run.stats.map((r) => r.modelId));
  return run;
}

async function readRunUnnoted(
  path: string,
  flags: InputFlags,
  needTable: boolean,
): Promise<RunInput> {
  const format = resolveFormat(path, flags.format);
  if (format !== "lossbench" && flags.probability !== undefined) {
    throw new UsageError(`--probability applies to --format lossbench only`);
  }
  if (format === "lossbench") {
    if (flags.probability !== "correct" && flags.probability !== "error") {
      throw new UsageError(
        `LossBench ledgers store P(correct) in calibrated_probability while LossBench's policy code reads it as P(error); say which with --probability correct|error (got ${
          flags.probability === undefined
            ? "nothing"
            : JSON.stringify(flags.probability)
        })`,
      );
    }
    // a LossBench export whose hash chain does not verify is not scored
    const chain = await verifyLossbenchLedgerFile(path);
    if (!chain.valid) {
      throw new CheckFailed(
        `${chain.reason}; a LossBench export whose chain does not verify is not scored`,
      );
    }
    const { decisions, notes } = await loadLossbenchLedger(path, {
      ...unknownKeys(flags),
      probability: flags.probability,
    });
    const table = decisionTable(decisions);
    return {
      format,
      stats: decisionStats(table),
      decisions: decisions.length,
      notes,
      table,
    };
  }
  if (format === "reconforge") {
    const { decisions, notes } = await loadReconforge(
      path,
      unknownKeys(flags),
    );
    const table = decisionTable(decisions);
    return {
      format,
      stats: decisionStats(table),
      decisions: decisions.length,
      notes,
      table,
    };
  }
  const fileFormat = decisionFormatOf(path);
  const engine = flags.engine ?? "memory";
  if (engine !== "memory" && engine !== "duckdb") {
    throw new UsageError(
      `--engine must be memory or duckdb, got ${JSON.stringify(engine)}`,
    );
  }
  if (engine === "duckdb") {
    if (needTable) {
      throw new UsageError(
        "--engine duckdb computes statistics only; pairing needs --engine memory",
      );
    }
    if (fileFormat !== "parquet" && fileFormat !== "csv") {
      throw new UsageError(
        `--engine duckdb reads .parquet and .csv files, got ${path}`,
      );
    }
    const stats = await duckdbDecisionStats(path);
    return {
      format,
      stats,
      decisions: stats.reduce((a, r) => a + r.n, 0),
      notes: {},
      table: null,
    };
  }
  if (fileFormat !== "jsonl") {
    const table = await loadDecisions(path);
    return {
      format,
      stats: decisionStats(table),
      decisions: table.numRows(),
      notes: {},
      table,
    };
  }
  const text = await readUtf8File(path, `Cannot load run export ${path}`);
  const onProgress = progress(path, text.length);
  if (needTable) {
    const decisions = parseDecisionsJsonl(text, {
      path,
      ...(onProgress ? { onProgress } : {}),
    });
    done(path, text.length);
    const table = decisionTable(decisions);
    return {
      format,
      stats: decisionStats(table),
      decisions: decisions.length,
      notes: {},
      table,
    };
  }
  const { stats, decisions } = jsonlStats(text, {
    path,
    ...(onProgress ? { onProgress } : {}),
  });
  done(path, text.length);
  return { format, stats, decisions, notes: {}, table: null };
}
