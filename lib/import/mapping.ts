/**
 * What every harness importer shares: how a decision gets its severity, and
 * where its probability came from.
 *
 * A harness log never holds a severity, and lossbook never invents one: the
 * caller says it with exactly one of `--severity LEVEL`, `--severity-map
 * FILE` (optionally keyed on a metadata value with `--severity-map-key
 * field:PATH`) or `--severity-field PATH`. Every importer resolves severity
 * through {@linkcode severityResolver}, so all of them refuse the same way.
 *
 * Every probability carries its provenance ({@linkcode PCorrectSource}):
 * `stated`, `logprob-option`, `logprob-token`, `agreement@k` (k samples),
 * `score-metadata:KEY`, or `null` when there is no probability. Where a log
 * offers several, {@linkcode pickPCorrect} takes the first of the format's
 * documented default order, or the one `--pcorrect-from` names.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { pickPCorrect, severityResolver } from "./mapping.ts";
 *
 * const severityOf = severityResolver({ kind: "level", level: "HIGH" });
 * assert.equal(severityOf({ taskId: "7", record: {} }, "sample 7"), "HIGH");
 * const picked = pickPCorrect([{ source: "stated", value: 0.8 }]);
 * assert.deepEqual(picked, { value: 0.8, source: "stated" });
 * ```
 *
 * @module
 */

import { isSeverity, SEVERITIES, type Severity } from "../costs/severity.ts";
import { parseJsonStrict } from "../_json.ts";
import {
  InputRangeError,
  InputSyntaxError,
  InputTypeError,
} from "../input_error.ts";
import { readUtf8File } from "../read/_utf8.ts";
import { importLater } from "../_late_import.ts";
import {
  isPCorrectSource,
  PCORRECT_SOURCES,
  type PCorrectSource,
} from "../decision/pcorrect_source.ts";

/** Flags that say how decisions get their severity, as the CLI passes them. */
export interface SeverityFlags {
  /** `--severity LEVEL`: one severity for every decision. */
  severity?: string;
  /** `--severity-map FILE`: CSV (`key,severity` header) or JSON (`{"key": "HIGH"}`). */
  severityMap?: string;
  /** `--severity-map-key field:PATH`: key the map on a metadata value instead of the task id. */
  severityMapKey?: string;
  /** `--severity-field PATH`: read the severity at a path of the item, such as `metadata.severity`. */
  severityField?: string;
}

/** How severity is resolved, once the flags are read. */
export type SeveritySpec =
  | { readonly kind: "level"; readonly level: Severity }
  | {
    readonly kind: "map";
    /** The map file, for messages. */
    readonly file: string;
    /** Key to severity. */
    readonly map: ReadonlyMap<string, Severity>;
    /** Path of the item's key; `null` keys on the task id. */
    readonly keyPath: readonly string[] | null;
  }
  | { readonly kind: "field"; readonly path: readonly string[] };

/** One item to give a severity: its task id, and the record its paths are read from. */
export interface SeverityItem {
  /** The decision's task id. */
  readonly taskId: string;
  /** The harness record (for example an inspect sample) that `--severity-field` and map-key paths are read from. */
  readonly record: unknown;
}

/**
 * Resolves one item's severity; `where` names the file and item in errors.
 * `recordPaths`, where given, are the only paths of the item's record it
 * reads (its task id aside): a reader may then hand it a record holding
 * those paths alone (the resolvers of {@linkcode severityResolver} say so;
 * a function without it is given the whole record).
 */
export type SeverityResolver =
  & ((item: SeverityItem, where: string) => Severity)
  & { readonly recordPaths?: readonly (readonly string[])[] };

/** The usage sentence every importer shows when no severity source was given. */
export const SEVERITY_REQUIRED =
  "a harness log holds no severity and lossbook does not invent one: give exactly one of --severity LEVEL, --severity-map FILE or --severity-field PATH";

/**
 * Split a dotted metadata path (`metadata.severity`) into its keys.
 *
 * @param path The path; keys are separated by `.`, none may be empty.
 * @param flag Flag name for the error message.
 * @returns The keys.
 * @throws {TypeError} For an empty path or an empty key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseFieldPath } from "./mapping.ts";
 *
 * assert.deepEqual(parseFieldPath("metadata.severity"), ["metadata", "severity"]);
 * assert.throws(() => parseFieldPath("metadata..x"), /empty key/);
 * ```
 */
export function parseFieldPath(path: string, flag = "path"): string[] {
  const keys = path.split(".");
  if (path === "" || keys.some((k) => k === "")) {
    throw new InputTypeError(
      `${flag} must be a dotted path such as metadata.severity with no empty key, got ${
        JSON.stringify(path)
      }`,
    );
  }
  return keys;
}

/**
 * The value at a path of a record, or `undefined` when a key is missing.
 *
 * @param record Any JSON value.
 * @param path Keys, outermost first.
 * @returns The value, or `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { valueAtPath } from "./mapping.ts";
 *
 * assert.equal(valueAtPath({ metadata: { severity: "LOW" } }, ["metadata", "severity"]), "LOW");
 * assert.equal(valueAtPath({ metadata: null }, ["metadata", "severity"]), undefined);
 * ```
 */
export function valueAtPath(record: unknown, path: readonly string[]): unknown {
  let value: unknown = record;
  for (const key of path) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return undefined;
    }
    if (!Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * Read a severity as the flag, a map and `--severity-field` all read it:
 * any letter case (`high` is `HIGH`), and surrounding spaces refused rather
 * than trimmed, so that a value is used as written or not at all.
 *
 * @param value The value given (from the flag, a map or the log).
 * @param where Error prefix naming the flag, file and line, or item and field.
 * @returns The severity.
 * @throws {RangeError} For a value with surrounding spaces or no severity.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { severityLevel } from "./mapping.ts";
 *
 * assert.equal(severityLevel("high", "--severity"), "HIGH");
 * assert.throws(() => severityLevel(" HIGH", "m.csv: line 2"), /line 2: severity " HIGH" has surrounding spaces/);
 * assert.throws(() => severityLevel("HUGE", "--severity"), /must be one of LOW/);
 * ```
 */
export function severityLevel(value: unknown, where: string): Severity {
  if (typeof value === "string" && value.trim() !== value) {
    throw new InputRangeError(
      `${where}: severity ${
        JSON.stringify(value)
      } has surrounding spaces; write it without them`,
    );
  }
  const level = typeof value === "string" ? value.toUpperCase() : value;
  if (!isSeverity(level)) {
    throw new InputRangeError(
      `${where}: severity must be one of ${SEVERITIES.join(", ")}, got ${
        JSON.stringify(value)
      }`,
    );
  }
  return level;
}

/**
 * Refuse a key a CSV severity map cannot hold as written: an empty one, or
 * one with surrounding spaces, which lossbook does not trim (a JSON map can
 * hold it).
 *
 * @param key The key.
 * @param where Error prefix naming the file and line, or the item.
 * @throws {RangeError} For an empty key or one with surrounding spaces.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkCsvMapKey } from "./mapping.ts";
 *
 * checkCsvMapKey("recon_mc/0", "m.csv: line 2");
 * assert.throws(() => checkCsvMapKey("a ", "m.csv: line 2"), /line 2: key "a " has surrounding spaces/);
 * ```
 */
export function checkCsvMapKey(key: string, where: string): void {
  if (key.trim() === "") {
    throw new InputRangeError(`${where}: key must not be empty`);
  }
  if (key.trim() !== key) {
    throw new InputRangeError(
      `${where}: key ${
        JSON.stringify(key)
      } has surrounding spaces; lossbook does not trim them (a JSON map can hold such a key)`,
    );
  }
}

/**
 * Parse a severity map: CSV whose header starts with `key,severity`, or a
 * JSON object `{"key": "HIGH"}`. A JSON document is recognised by its first
 * non-blank character (`{` or `[`) or a `.json` name; a repeated JSON key is
 * refused. Keys must be unique and severities valid. The CSV is read by
 * lossbook's CSV reader (RFC 4180: a key with a comma or a quote is quoted,
 * `"a,b"`; blank lines are skipped), loaded only for a CSV map. Columns
 * after `key,severity` (a severity template's metadata) are ignored,
 * whatever they hold, but every row has as many fields as the header. The
 * key and the severity are used as written: either with surrounding spaces
 * is refused, naming its line, an empty severity (a template row not yet
 * filled in) is refused, naming its line, and a severity is read in any
 * letter case ({@linkcode severityLevel}).
 *
 * @param text The file's text.
 * @param file The file's path, for messages.
 * @returns Key to severity.
 * @throws {SyntaxError} For a bad header, malformed CSV or unparseable JSON.
 * @throws {RangeError} For a repeated key, an empty or unknown severity (naming line or key).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSeverityMap } from "./mapping.ts";
 *
 * const csv = await parseSeverityMap("key,severity\nt1,HIGH\nt2,LOW\n", "map.csv");
 * assert.equal(csv.get("t2"), "LOW");
 * const filled = await parseSeverityMap('key,severity,metadata.class\nt1,LOW,"A, B"\n', "map.csv");
 * assert.deepEqual([...filled], [["t1", "LOW"]]);
 * await assert.rejects(() => parseSeverityMap("key,severity,metadata.class\nt1,,A\n", "m.csv"), /line 2: the severity of key "t1" is empty/);
 * const json = await parseSeverityMap('{"t1": "CRITICAL"}', "map.json");
 * assert.equal(json.get("t1"), "CRITICAL");
 * await assert.rejects(() => parseSeverityMap("key,severity\nt1,HUGE\n", "m.csv"), /line 2/);
 * ```
 */
export async function parseSeverityMap(
  text: string,
  file: string,
): Promise<Map<string, Severity>> {
  const where = `Cannot read severity map ${file}`;
  const body = text.replace(/^\uFEFF/, "");
  const map = new Map<string, Severity>();
  if (/^\s*[[{]/.test(body) || /\.json$/i.test(file)) {
    const raw = parseJsonStrict(body, {
      file: `severity map ${file}`,
      nonFinite: true,
    });
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      throw new InputTypeError(
        `${where}: expected a JSON object {"key": "HIGH"}`,
      );
    }
    for (const [key, value] of Object.entries(raw)) {
      map.set(
        key,
        severityLevel(value, `${where}: key ${JSON.stringify(key)}`),
      );
    }
    return map;
  }
  const { readCsvText } = await importLater<
    typeof import("../read/_csv_records.ts")
  >(new URL("../read/_csv_records.ts", import.meta.url));
  const badHeader = (line: number, got: string) =>
    new InputSyntaxError(
      `${where}: line ${line}: header must start with "key,severity" (any columns after them are ignored), got ${
        JSON.stringify(got)
      }`,
    );
  // the header's fields; null until it is read
  let columns: number | null = null;
  const lineOf = new Map<string, number>();
  readCsvText(body, where, ({ fields, line }) => {
    if (columns === null) {
      const names = fields.map((s) => s.trim());
      if (names.length < 2 || names[0] !== "key" || names[1] !== "severity") {
        throw badHeader(line, fields.join(","));
      }
      columns = fields.length;
      return;
    }
    // a line of spaces is blank too
    if (fields.length === 1 && fields[0].trim() === "") return;
    const at = `${where}: line ${line}`;
    if (fields.length !== columns) {
      throw new InputSyntaxError(
        `${at}: expected ${columns} fields (${
          columns === 2 ? "key,severity" : "as many as the header"
        }), got ${fields.length}`,
      );
    }
    const key = fields[0];
    checkCsvMapKey(key, at);
    const first = lineOf.get(key);
    if (first !== undefined) {
      throw new InputRangeError(
        `${at}: key ${JSON.stringify(key)} repeats line ${first}`,
      );
    }
    lineOf.set(key, line);
    if (fields[1] === "") {
      throw new InputRangeError(
        `${at}: the severity of key ${
          JSON.stringify(key)
        } is empty; fill it in with one of ${SEVERITIES.join(", ")}`,
      );
    }
    map.set(key, severityLevel(fields[1], at));
  });
  if (columns === null) throw badHeader(1, "");
  return map;
}

/**
 * Read `--severity-map-key field:PATH` into the path of the key.
 *
 * @param value The flag's value.
 * @returns The keys of PATH, outermost first.
 * @throws {TypeError} For a value that is not `field:` and a dotted path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSeverityMapKey } from "./mapping.ts";
 *
 * assert.deepEqual(parseSeverityMapKey("field:metadata.class"), ["metadata", "class"]);
 * assert.throws(() => parseSeverityMapKey("metadata.class"), /must be field:PATH/);
 * ```
 */
export function parseSeverityMapKey(value: string): string[] {
  const m = /^field:(.+)$/.exec(value);
  if (m === null) {
    throw new InputTypeError(
      `--severity-map-key must be field:PATH (for example field:metadata.class), got ${
        JSON.stringify(value)
      }`,
    );
  }
  return parseFieldPath(m[1], "--severity-map-key");
}

/**
 * The key an item has in a severity map: its task id, or, keyed on a
 * field (`--severity-map-key`), the value at that path of its record, a
 * string or a number written as text. Every reader and writer of a map
 * keys items by this one rule.
 *
 * @param item The item.
 * @param keyPath The key's path, or `null` for the task id.
 * @param where The file and item, for the error.
 * @returns The key.
 * @throws {TypeError} When the value at the path is missing or neither a string nor a number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { severityMapKey } from "./mapping.ts";
 *
 * const item = { taskId: "7", record: { metadata: { class: "DUPLICATE", n: 3 } } };
 * assert.equal(severityMapKey(item, null, "a.eval: sample 7"), "7");
 * assert.equal(severityMapKey(item, ["metadata", "class"], "a.eval: sample 7"), "DUPLICATE");
 * assert.equal(severityMapKey(item, ["metadata", "n"], "a.eval: sample 7"), "3");
 * assert.throws(() => severityMapKey(item, ["metadata", "x"], "a.eval: sample 7"), /sample 7: metadata\.x must be a string or number to key the severity map, got nothing/);
 * ```
 */
export function severityMapKey(
  item: SeverityItem,
  keyPath: readonly string[] | null,
  where: string,
): string {
  if (keyPath === null) return item.taskId;
  const value = valueAtPath(item.record, keyPath);
  if (typeof value !== "string" && typeof value !== "number") {
    throw new InputTypeError(
      `${where}: ${
        keyPath.join(".")
      } must be a string or number to key the severity map, got ${
        value === undefined ? "nothing" : JSON.stringify(value)
      }`,
    );
  }
  return String(value);
}

/**
 * Read the severity flags into a {@linkcode SeveritySpec}, loading the map
 * file when one is named. Exactly one of `severity`, `severityMap`,
 * `severityField` must be given; `severityMapKey` (`field:PATH`) only with
 * `severityMap`.
 *
 * @param flags The flags.
 * @param readText Reads the map file (default: as strict UTF-8, refusing a
 * folder, naming the file).
 * @returns The spec.
 * @throws {TypeError} When none or several are given, with {@linkcode SEVERITY_REQUIRED}; for a bad key form.
 * @throws {RangeError | SyntaxError} As {@linkcode parseSeverityMap}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { severitySpec } from "./mapping.ts";
 *
 * assert.deepEqual(await severitySpec({ severity: "HIGH" }), { kind: "level", level: "HIGH" });
 * await assert.rejects(() => severitySpec({}), /exactly one of --severity/);
 * const spec = await severitySpec(
 *   { severityMap: "m.csv", severityMapKey: "field:metadata.class" },
 *   () => Promise.resolve("key,severity\nDUPLICATE,LOW\n"),
 * );
 * assert.equal(spec.kind, "map");
 * ```
 */
export async function severitySpec(
  flags: SeverityFlags,
  readText: (path: string) => Promise<string> = (p) =>
    readUtf8File(p, `Cannot load severity map ${p}`),
): Promise<SeveritySpec> {
  const given = [
    flags.severity !== undefined ? "--severity" : null,
    flags.severityMap !== undefined ? "--severity-map" : null,
    flags.severityField !== undefined ? "--severity-field" : null,
  ].filter((g) => g !== null);
  if (given.length !== 1) {
    throw new InputTypeError(
      given.length === 0
        ? SEVERITY_REQUIRED
        : `${SEVERITY_REQUIRED}; got ${given.join(" and ")}`,
    );
  }
  if (flags.severityMapKey !== undefined && flags.severityMap === undefined) {
    throw new InputTypeError(
      "--severity-map-key applies to --severity-map only",
    );
  }
  if (flags.severity !== undefined) {
    return {
      kind: "level",
      level: severityLevel(flags.severity, "--severity"),
    };
  }
  if (flags.severityField !== undefined) {
    return {
      kind: "field",
      path: parseFieldPath(flags.severityField, "--severity-field"),
    };
  }
  const file = flags.severityMap!;
  const keyPath = flags.severityMapKey === undefined
    ? null
    : parseSeverityMapKey(flags.severityMapKey);
  return {
    kind: "map",
    file,
    map: await parseSeverityMap(await readText(file), file),
    keyPath,
  };
}

/**
 * A function that gives each item its severity under a spec, and refuses an
 * item it cannot place: a map that does not cover its key, a field that is
 * missing or not a severity. The error names the item (`where`) and the
 * field or key.
 *
 * @param spec From {@linkcode severitySpec}.
 * @returns The resolver.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { severityResolver } from "./mapping.ts";
 *
 * const byField = severityResolver({ kind: "field", path: ["metadata", "severity"] });
 * assert.equal(byField({ taskId: "1", record: { metadata: { severity: "LOW" } } }, "x.eval: sample 1 epoch 1"), "LOW");
 * const byMap = severityResolver({ kind: "map", file: "m.csv", map: new Map([["1", "HIGH"]]), keyPath: null });
 * assert.throws(() => byMap({ taskId: "2", record: {} }, "x.eval: sample 2 epoch 1"), /does not cover task id "2"/);
 * ```
 */
export function severityResolver(spec: SeveritySpec): SeverityResolver {
  return Object.assign(resolveBy(spec), {
    recordPaths: spec.kind === "field"
      ? [spec.path]
      : spec.kind === "map" && spec.keyPath !== null
      ? [spec.keyPath]
      : [],
  });
}

function resolveBy(
  spec: SeveritySpec,
): (item: SeverityItem, where: string) => Severity {
  switch (spec.kind) {
    case "level":
      return () => spec.level;
    case "field": {
      const name = spec.path.join(".");
      return (item, where) => {
        const value = valueAtPath(item.record, spec.path);
        if (value === undefined) {
          throw new InputTypeError(
            `${where}: ${name} is missing (--severity-field ${name})`,
          );
        }
        return severityLevel(value, `${where}: ${name}`);
      };
    }
    case "map": {
      const name = spec.keyPath === null ? "task id" : spec.keyPath.join(".");
      return (item, where) => {
        const key = severityMapKey(item, spec.keyPath, where);
        const what = `${name} ${JSON.stringify(key)}`;
        const level = spec.map.get(key);
        if (level === undefined) {
          throw new InputRangeError(
            `${where}: severity map ${spec.file} does not cover ${what}`,
          );
        }
        return level;
      };
    }
  }
}

/** One probability a log offers for a decision, with its source. */
export interface PCorrectCandidate {
  /** Its provenance. */
  readonly source: PCorrectSource;
  /** P(answer is correct), or `null` when this item lacks it. */
  readonly value: number | null;
}

/** The probability chosen for one decision, and where it came from. */
export interface PickedPCorrect {
  /** P(answer is correct), or `null`. */
  readonly value: number | null;
  /** Its source, or `null` when there is no probability. */
  readonly source: PCorrectSource | null;
}

/**
 * Read `--pcorrect-from`: a source, `agreement` (any k), or `none` (no
 * probability at all).
 *
 * @param value The flag's value.
 * @returns The value, checked.
 * @throws {TypeError} For anything else.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePCorrectFrom } from "./mapping.ts";
 *
 * assert.equal(parsePCorrectFrom("agreement"), "agreement");
 * assert.throws(() => parsePCorrectFrom("vibes"), /--pcorrect-from/);
 * ```
 */
export function parsePCorrectFrom(value: string): string {
  if (value === "agreement" || value === "none" || isPCorrectSource(value)) {
    return value;
  }
  throw new InputTypeError(
    `--pcorrect-from must be one of ${
      PCORRECT_SOURCES.join(", ")
    }, agreement, agreement@K, score-metadata:KEY or none, got ${
      JSON.stringify(value)
    }`,
  );
}

function matches(from: string, source: PCorrectSource): boolean {
  if (from === "agreement") return source.startsWith("agreement@");
  return from === source;
}

/**
 * Choose a decision's probability among those its log offers. Without
 * `from`, the candidates are taken in the order given (the format's
 * documented default order) and the first with a value wins. With `from`
 * (`--pcorrect-from`), only that source is used; an item without it gets no
 * probability (`null`, never a fallback), and `none` gives none to all.
 *
 * @param candidates The log's probabilities for this item, in default order.
 * @param from The `--pcorrect-from` value, or `undefined`.
 * @returns The value and its source (`null` and `null` when none applies).
 * @throws {RangeError} When the chosen value is outside [0, 1] or not finite.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pickPCorrect } from "./mapping.ts";
 *
 * const offered = [
 *   { source: "agreement@5" as const, value: null },
 *   { source: "stated" as const, value: 0.7 },
 * ];
 * assert.deepEqual(pickPCorrect(offered), { value: 0.7, source: "stated" });
 * assert.deepEqual(pickPCorrect(offered, "agreement"), { value: null, source: null });
 * assert.deepEqual(pickPCorrect(offered, "none"), { value: null, source: null });
 * ```
 */
export function pickPCorrect(
  candidates: readonly PCorrectCandidate[],
  from?: string,
): PickedPCorrect {
  if (from === "none") return { value: null, source: null };
  for (const c of candidates) {
    if (from !== undefined && !matches(from, c.source)) continue;
    if (c.value === null) continue;
    if (!(Number.isFinite(c.value) && c.value >= 0 && c.value <= 1)) {
      throw new InputRangeError(
        `pCorrect from ${c.source} must be in [0, 1], got ${c.value}`,
      );
    }
    return { value: c.value, source: c.source };
  }
  return { value: null, source: null };
}

/**
 * Count decisions by probability source, `"null"` for none: what the CLI
 * prints so a reader sees where every probability came from.
 *
 * @param decisions Records with an optional `pCorrectSource`.
 * @returns Source to count, in first-seen order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { countPCorrectSources } from "./mapping.ts";
 *
 * const counts = countPCorrectSources([
 *   { pCorrectSource: "stated" }, { pCorrectSource: null }, {}, { pCorrectSource: "stated" },
 * ]);
 * assert.deepEqual(counts, { stated: 2, null: 2 });
 * ```
 */
export function countPCorrectSources(
  decisions: Iterable<{ readonly pCorrectSource?: string | null }>,
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const d of decisions) tallyPCorrectSource(counts, d);
  return counts;
}

/**
 * Count one decision's pCorrect source into `counts`, as
 * {@linkcode countPCorrectSources} counts a list: for decisions counted as
 * they are made.
 *
 * @param counts Counts by source (`null` for none), updated.
 * @param decision The decision.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tallyPCorrectSource } from "./mapping.ts";
 *
 * const counts = {};
 * tallyPCorrectSource(counts, { pCorrectSource: "stated" });
 * tallyPCorrectSource(counts, { pCorrectSource: null });
 * assert.deepEqual(counts, { stated: 1, null: 1 });
 * ```
 */
export function tallyPCorrectSource(
  counts: Record<string, number>,
  decision: { readonly pCorrectSource?: string | null },
): void {
  const key = decision.pCorrectSource ?? "null";
  counts[key] = (counts[key] ?? 0) + 1;
}

/**
 * One line saying where a run's probabilities came from, for stderr.
 *
 * @param counts From {@linkcode countPCorrectSources}.
 * @returns For example `pCorrect source: stated (12), null (3)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { describePCorrectSources } from "./mapping.ts";
 *
 * assert.equal(describePCorrectSources({ stated: 2, null: 1 }), "pCorrect source: stated (2), none (1)");
 * ```
 */
export function describePCorrectSources(
  counts: Readonly<Record<string, number>>,
): string {
  const parts = Object.entries(counts).map(([k, n]) =>
    `${k === "null" ? "none" : k} (${n})`
  );
  return `pCorrect source: ${
    parts.length === 0 ? "no decisions" : parts.join(", ")
  }`;
}

/**
 * Gives one item its cluster; `where` names the file and item in errors.
 * `recordPaths` as for {@linkcode SeverityResolver}.
 */
export type ClusterResolver =
  & ((item: SeverityItem, where: string) => string)
  & { readonly recordPaths?: readonly (readonly string[])[] };

/**
 * A function that gives each item its cluster: the value at a path of the
 * item's record (`--cluster metadata.source_document`, the path syntax of
 * `--severity-field`), a non-empty string or a number (taken as its
 * decimal text). An item without it is refused, naming the item (`where`)
 * and the path: a cluster is never guessed, and never left out of some
 * decisions only.
 *
 * @param path The dotted path, as given to `--cluster`.
 * @returns The resolver.
 * @throws {TypeError} For a path with an empty key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { clusterResolver } from "./mapping.ts";
 *
 * const clusterOf = clusterResolver("metadata.source");
 * assert.equal(clusterOf({ taskId: "1", record: { metadata: { source: "doc-7" } } }, "a.eval: sample 1 epoch 1"), "doc-7");
 * assert.throws(
 *   () => clusterOf({ taskId: "2", record: { metadata: {} } }, "a.eval: sample 2 epoch 1"),
 *   /a\.eval: sample 2 epoch 1: metadata\.source is missing \(--cluster metadata\.source\)/,
 * );
 * ```
 */
export function clusterResolver(path: string): ClusterResolver {
  const keys = parseFieldPath(path, "--cluster");
  const name = keys.join(".");
  return Object.assign((item: SeverityItem, where: string) => {
    const value = valueAtPath(item.record, keys);
    if (value === undefined) {
      throw new InputTypeError(
        `${where}: ${name} is missing (--cluster ${name})`,
      );
    }
    if (typeof value === "number" && Number.isFinite(value)) {
      return String(value);
    }
    if (typeof value !== "string" || value === "") {
      throw new InputTypeError(
        `${where}: ${name} must be a non-empty string or a number to name a cluster (--cluster ${name}), got ${
          JSON.stringify(value)
        }`,
      );
    }
    return value;
  }, { recordPaths: [keys] });
}
