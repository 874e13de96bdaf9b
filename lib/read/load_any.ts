/**
 * Reading and writing Decision run exports in any supported format, chosen
 * by the file's extension: JSONL, CSV, Arrow IPC or Parquet.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { FlatDecisionRow } from "./arrow.ts";
import type { DuckDBOptions } from "./duckdb_session.ts";
import { InputTypeError } from "../input_error.ts";
import { importLater } from "../_late_import.ts";

// Each format's reader and writer loads when a file of that format is read
// or written (importLater), so that knowing a file's format loads none.
const later = <T>(path: string): Promise<T> =>
  importLater<T>(new URL(path, import.meta.url));

/** The file formats of a Decision run export. */
export const DECISION_FORMATS = ["jsonl", "csv", "arrow", "parquet"] as const;

/** A Decision file format. */
export type DecisionFormat = typeof DECISION_FORMATS[number];

const EXTENSIONS: ReadonlyArray<readonly [string, DecisionFormat]> = [
  [".jsonl", "jsonl"],
  [".csv", "csv"],
  [".arrow", "arrow"],
  [".feather", "arrow"],
  [".ipc", "arrow"],
  [".parquet", "parquet"],
];

/** Options for {@linkcode loadDecisions} and {@linkcode writeDecisions}. */
export interface DecisionFileOptions extends DuckDBOptions {
  /** The format. Default: from the extension (see {@linkcode decisionFormatOf}). */
  format?: DecisionFormat;
}

/**
 * The format of a run export, from its extension: `.jsonl`; `.csv`;
 * `.arrow`, `.feather` or `.ipc` (Arrow IPC); `.parquet`. Case does not
 * matter. Any other extension is refused rather than guessed.
 *
 * @param path A file path.
 * @returns The format.
 * @throws {TypeError} For an unknown extension.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionFormatOf } from "./load_any.ts";
 *
 * assert.equal(decisionFormatOf("runs/a.FEATHER"), "arrow");
 * assert.throws(() => decisionFormatOf("runs/a.json"), /unknown extension/);
 * ```
 */
export function decisionFormatOf(path: string): DecisionFormat {
  const lower = path.toLowerCase();
  for (const [ext, format] of EXTENSIONS) {
    if (lower.endsWith(ext)) return format;
  }
  throw new InputTypeError(
    `Cannot read run export ${path}: unknown extension; expected one of ${
      EXTENSIONS.map(([e]) => e).join(", ")
    }, or pass a format (${DECISION_FORMATS.join(", ")})`,
  );
}

function checkFormat(format: string): DecisionFormat {
  if (!(DECISION_FORMATS as readonly string[]).includes(format)) {
    throw new InputTypeError(
      `Unknown run export format ${JSON.stringify(format)}; expected one of ${
        DECISION_FORMATS.join(", ")
      }`,
    );
  }
  return format as DecisionFormat;
}

/**
 * Read a Decision run export into an Arquero decision table, whatever its
 * format.
 *
 * Every format gives the same table (columns of {@linkcode DECISION_COLUMNS})
 * for the same decisions, and refuses the same bad values with an error
 * naming the file, the line (JSONL, CSV) or row (Arrow, Parquet), and the
 * field.
 *
 * @param path The file.
 * @param options `format` to override the extension; DuckDB resources for Parquet.
 * @returns The decision table.
 * @throws {TypeError} For an unknown extension or format, and as the format's loader.
 * @throws {SyntaxError | RangeError} As the format's loader.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadDecisions, writeDecisions } from "./load_any.ts";
 *
 * const jsonl = new URL("../../data/examples/model_ab.jsonl", import.meta.url).pathname;
 * const t = await loadDecisions(jsonl);
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/ab.feather`;
 * await writeDecisions(path, t);
 * assert.deepEqual((await loadDecisions(path)).objects(), t.objects());
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function loadDecisions(
  path: string,
  options: DecisionFileOptions = {},
): Promise<ColumnTable> {
  const format = options.format === undefined
    ? decisionFormatOf(path)
    : checkFormat(options.format);
  switch (format) {
    case "jsonl":
      return await (await later<typeof import("./load_decisions.ts")>(
        "./load_decisions.ts",
      )).loadDecisionsJsonl(
        path,
      );
    case "csv":
      return await (await later<typeof import("./csv.ts")>("./csv.ts"))
        .loadDecisionsCsv(path);
    case "arrow":
      return await (await later<typeof import("./arrow.ts")>("./arrow.ts"))
        .loadDecisionsArrow(path);
    case "parquet":
      return await (await later<typeof import("./parquet.ts")>("./parquet.ts"))
        .loadDecisionsParquet(
          path,
          options,
        );
  }
}

/**
 * Write a decision table as a run export, in the format its extension (or
 * `options.format`) names. JSONL is written one Decision object per line,
 * with cost evidence nested and absent optional fields left out, as
 * `loadDecisionsJsonl` reads it.
 *
 * @param path Destination path.
 * @param table A decision table with the columns of {@linkcode DECISION_COLUMNS}.
 * @param options `format` to override the extension; DuckDB resources for Parquet.
 * @throws {TypeError} For an unknown extension or format, or a table with the wrong columns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadDecisions, writeDecisions } from "./load_any.ts";
 * import { decisionTable } from "./load_decisions.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const path = `${dir}/empty.jsonl`;
 * await writeDecisions(path, decisionTable([]));
 * assert.equal((await loadDecisions(path)).numRows(), 0);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeDecisions(
  path: string,
  table: ColumnTable,
  options: DecisionFileOptions = {},
): Promise<void> {
  const format = options.format === undefined
    ? decisionFormatOf(path)
    : checkFormat(options.format);
  switch (format) {
    case "jsonl":
      return await Deno.writeTextFile(
        path,
        decisionsToJsonl(
          table,
          await later<typeof import("./arrow.ts")>("./arrow.ts"),
        ),
      );
    case "csv":
      return await (await later<typeof import("./csv.ts")>("./csv.ts"))
        .writeDecisionsCsv(path, table);
    case "arrow":
      return await (await later<typeof import("./arrow.ts")>("./arrow.ts"))
        .writeDecisionsArrow(
          path,
          table,
        );
    case "parquet":
      return await (await later<typeof import("./parquet.ts")>("./parquet.ts"))
        .writeDecisionsParquet(
          path,
          table,
          options,
        );
  }
}

function decisionsToJsonl(
  table: ColumnTable,
  { checkDecisionColumns, flatDecision }: typeof import("./arrow.ts"),
): string {
  const where = "Cannot write JSONL run export";
  checkDecisionColumns(table.columnNames(), where);
  const rows = table.objects() as FlatDecisionRow[];
  return rows.map((r, i) =>
    JSON.stringify(flatDecision(r, `${where}: row ${i + 1}`)) + "\n"
  ).join("");
}
