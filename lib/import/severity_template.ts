/**
 * A severity template: the rows of a severity map not yet filled in, one per
 * key a harness log's decisions have, each with the metadata its items
 * carry, so that whoever fills in the severities sees what each item is.
 *
 * Each item is taken as the importer hands it to `severityOf` (its task id
 * and its record), keyed by {@linkcode severityMapKey}, the rule the map's
 * reader keys it by, so the template's keys are the ones the map must
 * cover. The columns are the keys of the object at each of the format's
 * metadata paths (`metadata.class` for inspect's `metadata`), in the order
 * they are first seen; the rows are in the order their key is first seen.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { severityTemplateRows, templateItem } from "./severity_template.ts";
 *
 * const at = { keyPath: null, metadataPaths: ["metadata"] };
 * const rows = severityTemplateRows([
 *   templateItem({ taskId: "1", record: { metadata: { class: "MATCH" } } }, at, "a.eval: sample 1"),
 *   templateItem({ taskId: "2", record: { metadata: { class: "DUPLICATE" } } }, at, "a.eval: sample 2"),
 * ]);
 * assert.deepEqual(rows.columns, ["key", "severity", "metadata.class"]);
 * assert.deepEqual(rows.rows.map((r) => r.key), ["1", "2"]);
 * ```
 *
 * @module
 */

import {
  checkCsvMapKey,
  parseFieldPath,
  severityMapKey,
  valueAtPath,
} from "./mapping.ts";
import type { SeverityItem } from "./mapping.ts";
import { csvLine } from "../read/_csv_line.ts";

/** How a template reads an item: the key's path and the format's metadata paths. */
export interface TemplateItemOptions {
  /** The `--severity-map-key` path, or `null` to key on the task id. */
  readonly keyPath: readonly string[] | null;
  /** Dotted paths of the record where the item keeps its metadata (`metadata`, `doc`). */
  readonly metadataPaths: readonly string[];
}

/** One item as a severity template keeps it: its key, its task id, its metadata columns. */
export interface TemplateItem {
  /** Its key in the severity map. */
  readonly key: string;
  /** Its task id. */
  readonly taskId: string;
  /** Column name and value, in the order the item holds them. */
  readonly metadata: ReadonlyArray<readonly [string, unknown]>;
}

/** One row of a severity template: a key, and the metadata its items share. */
export interface SeverityTemplateRow {
  /** The task id, or the value at the `--severity-map-key` path. */
  readonly key: string;
  /** How many distinct task ids the row stands for (1 when keyed on the task id). */
  readonly tasks: number;
  /**
   * Each metadata column's value, where every item of the row has the same
   * one (compared as JSON text); a column some item lacks, or on which they
   * differ, is left out.
   */
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** A severity template's header and rows. */
export interface SeverityTemplateRows {
  /** The header: `key`, `severity`, then the metadata columns. */
  readonly columns: string[];
  /** One row per key, in the order the keys are first seen. */
  readonly rows: SeverityTemplateRow[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * What a severity template keeps of one item: its key (as the map's reader
 * keys it, {@linkcode severityMapKey}), its task id, and its metadata. Each
 * key of the object at a metadata path is a column named `PATH.KEY`; a
 * value there that is not an object is one column named `PATH`; a path the
 * item lacks (or holds null) gives none.
 *
 * @param item The item, as the importer gives it to `severityOf`.
 * @param options The key's path and the format's metadata paths.
 * @param where The file and item, for errors.
 * @returns The item's key, task id and metadata.
 * @throws {TypeError} When the key's value is missing or neither a string nor a number.
 * @throws {RangeError} For a key a CSV map cannot hold: empty, or with surrounding spaces.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { templateItem } from "./severity_template.ts";
 *
 * const item = { taskId: "3", record: { doc: { label: 2, choices: ["A", "B"] } } };
 * assert.deepEqual(templateItem(item, { keyPath: ["doc", "label"], metadataPaths: ["doc"] }, "s.jsonl: line 1"), {
 *   key: "2",
 *   taskId: "3",
 *   metadata: [["doc.label", 2], ["doc.choices", ["A", "B"]]],
 * });
 * ```
 */
export function templateItem(
  item: SeverityItem,
  options: TemplateItemOptions,
  where: string,
): TemplateItem {
  const metadata: [string, unknown][] = [];
  for (const path of options.metadataPaths) {
    const value = valueAtPath(item.record, parseFieldPath(path));
    if (value === undefined || value === null) continue;
    if (!isPlainObject(value)) {
      metadata.push([path, value]);
      continue;
    }
    for (const [k, v] of Object.entries(value)) {
      metadata.push([`${path}.${k}`, v]);
    }
  }
  const key = severityMapKey(item, options.keyPath, where);
  // a key the CSV map could not hold is refused here, not once it is filled in
  checkCsvMapKey(key, where);
  return { key, taskId: item.taskId, metadata };
}

// A column's value over the items of a row so far: the value and its JSON
// text while they agree, `null` once they differ.
interface Shared {
  readonly text: string;
  readonly value: unknown;
  count: number;
}

/**
 * Gather items into a severity template's rows: one per distinct key, in the
 * order the keys are first seen, each with how many task ids it stands for
 * and the metadata its items share. The columns are `key`, `severity`, then
 * every metadata column, in the order first seen. Time and memory are
 * linear in the items and their metadata.
 *
 * @param items The items, in log order.
 * @returns The header and the rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { severityTemplateRows } from "./severity_template.ts";
 *
 * const { rows } = severityTemplateRows([
 *   { key: "MATCH", taskId: "1", metadata: [["metadata.class", "MATCH"], ["metadata.note", "a"]] },
 *   { key: "MATCH", taskId: "2", metadata: [["metadata.class", "MATCH"], ["metadata.note", "b"]] },
 * ]);
 * assert.deepEqual(rows, [{ key: "MATCH", tasks: 2, metadata: { "metadata.class": "MATCH" } }]);
 * ```
 */
export function severityTemplateRows(
  items: Iterable<TemplateItem>,
): SeverityTemplateRows {
  const columns = new Set<string>();
  const groups = new Map<
    string,
    { items: number; tasks: Set<string>; shared: Map<string, Shared | null> }
  >();
  for (const item of items) {
    let group = groups.get(item.key);
    if (group === undefined) {
      group = { items: 0, tasks: new Set(), shared: new Map() };
      groups.set(item.key, group);
    }
    group.items++;
    group.tasks.add(item.taskId);
    for (const [column, value] of item.metadata) {
      columns.add(column);
      const text = JSON.stringify(value);
      const seen = group.shared.get(column);
      if (seen === undefined) {
        group.shared.set(column, { text, value, count: 1 });
      } else if (seen !== null && seen.text === text) {
        seen.count++;
      } else {
        group.shared.set(column, null);
      }
    }
  }
  const rows: SeverityTemplateRow[] = [];
  for (const [key, group] of groups) {
    const metadata: [string, unknown][] = [];
    for (const column of columns) {
      const shared = group.shared.get(column);
      // shared by every item of the row, not by some of them
      if (shared != null && shared.count === group.items) {
        metadata.push([column, shared.value]);
      }
    }
    rows.push({
      key,
      tasks: group.tasks.size,
      metadata: Object.fromEntries(metadata),
    });
  }
  return { columns: ["key", "severity", ...columns], rows };
}

/**
 * A severity template as CSV text, ready to fill in and pass to
 * `--severity-map`: the header, then one line per row with its key, an
 * empty severity, and its metadata. A text value is written as it is, any
 * other (a number, a list, an object) as its JSON text, and a column the
 * row's items do not share is empty. Fields are quoted by lossbook's CSV
 * writer (RFC 4180), so a comma, a quote or a line break reads back as
 * written; the map's reader ignores every column after `key,severity`.
 *
 * @param template The header and rows, as {@linkcode severityTemplateRows}
 *   (or `severityTemplate`) returns them.
 * @returns The CSV text, each line ending with a newline.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { severityTemplateCsv } from "./severity_template.ts";
 *
 * const csv = severityTemplateCsv({
 *   columns: ["key", "severity", "metadata.class", "metadata.tags"],
 *   rows: [{ key: "1", tasks: 1, metadata: { "metadata.class": "A, B", "metadata.tags": ["x"] } }],
 * });
 * assert.equal(csv, 'key,severity,metadata.class,metadata.tags\n1,,"A, B","[""x""]"\n');
 * ```
 */
export function severityTemplateCsv(template: {
  readonly columns: readonly string[];
  readonly rows: readonly SeverityTemplateRow[];
}): string {
  const metadata = template.columns.slice(2);
  const lines = [csvLine(template.columns)];
  for (const row of template.rows) {
    const cells = metadata.map((column) => {
      if (!Object.hasOwn(row.metadata, column)) return null;
      const value = row.metadata[column];
      return typeof value === "string" ? value : JSON.stringify(value);
    });
    lines.push(csvLine([row.key, null, ...cells]));
  }
  return lines.join("\n") + "\n";
}
