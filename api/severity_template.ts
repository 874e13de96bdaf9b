// `severityTemplate`: the severity map of harness logs, not yet filled in:
// a row per key their decisions have, with the metadata the items carry;
// the library function and its flags.
import type { Severity } from "../lib/costs/severity.ts";
import { harnessImporter } from "../lib/import/harness.ts";
import { parseSeverityMapKey } from "../lib/import/mapping.ts";
import {
  type SeverityTemplateRow,
  severityTemplateRows,
  type TemplateItem,
  templateItem,
} from "../lib/import/severity_template.ts";
import { UsageError } from "../commands/_command.ts";
import {
  fileKeys,
  type ImportKeys,
  resolveFormats,
} from "../commands/_input.ts";
import {
  importHarness,
  isHarness,
  MAPPING_FLAGS,
} from "../commands/_harness_input.ts";
import { withStreams } from "../commands/_stream_input.ts";
import {
  FORCE_OPTION,
  formatOption,
  JSON_OPTION,
} from "../commands/_options.ts";
import { flagValues, type FlagValuesOf } from "./_options.ts";
import type { SeverityTemplateOptions } from "./options.ts";

/** The options of `severity-template`, as `--help` lists them and `parseFlags` reads them. */
export const SEVERITY_TEMPLATE_OPTIONS = {
  format: formatOption("inspect|lm-eval|helm|promptfoo"),
  "severity-map-key": {
    ...MAPPING_FLAGS["severity-map-key"],
    doc:
      "key the rows on the value at PATH of each item (e.g. field:metadata.class), one row per distinct value, instead of on the task id; pass the same --severity-map-key with the filled-in map",
  },
  scorer: MAPPING_FLAGS.scorer,
  partial: MAPPING_FLAGS.partial,
  "model-id": MAPPING_FLAGS["model-id"],
  filter: MAPPING_FLAGS.filter,
  metric: MAPPING_FLAGS.metric,
  correct: MAPPING_FLAGS.correct,
  "allow-incomplete": MAPPING_FLAGS["allow-incomplete"],
  "max-entry-bytes": MAPPING_FLAGS["max-entry-bytes"],
  "max-entry-ratio": MAPPING_FLAGS["max-entry-ratio"],
  out: {
    type: "string",
    value: "FILE",
    doc:
      "write the template (CSV) to FILE instead of stdout; refused if it exists, unless --force, and never one of the inputs",
  },
  force: FORCE_OPTION,
  json: JSON_OPTION,
} as const;

/** The `severity-template --json` document. Keys are a contract: extend, never rename. */
export type SeverityTemplateDocument =
  & ({ file: string } | { files: string[] })
  & ImportKeys
  & {
    /** The format the logs were read as. */
    format: string;
    /** The `--severity-map-key` the rows are keyed on (`field:PATH`), or null for the task id. */
    key: string | null;
    /** Decisions the logs hold: what `import` with the same flags writes. */
    decisions: number;
    /** The CSV header: `key`, `severity`, then the metadata columns in the order first seen. */
    columns: string[];
    /** One row per key, in the order the keys are first seen (inputs in the order given, each in log order). */
    rows: SeverityTemplateRow[];
  };

// The importers pass every item to severityOf and make its decision; the
// template counts the decisions and keeps none, so any severity does.
const UNREAD: Severity = "LOW";

/**
 * Make the template with the flag values of `lossbook severity-template`:
 * the one computation behind {@linkcode severityTemplate} and the command.
 * The logs are read by their importer with the given flags, as `import`
 * reads them, and each item's key and metadata are kept as it passes;
 * items set aside (no verdict) need no severity and get no row of their
 * own. What the import says (scorer, items set aside) goes to stderr.
 */
export async function severityTemplateRun(
  inputs: readonly string[],
  values: FlagValuesOf<typeof SEVERITY_TEMPLATE_OPTIONS>,
): Promise<SeverityTemplateDocument> {
  if (inputs.length === 0) {
    throw new UsageError("expected one or more harness logs, got none");
  }
  const key = values["severity-map-key"];
  let keyPath: string[] | null = null;
  if (key !== undefined) {
    try {
      keyPath = parseSeverityMapKey(key);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  return await withStreams(inputs, async (paths, rename) => {
    const format = await resolveFormats(paths, values.format);
    if (!isHarness(format)) {
      throw new UsageError(
        `severity-template reads harness logs (inspect, lm-eval, helm, promptfoo), whose items hold no severity; ${
          inputs.join(", ")
        } ${
          inputs.length > 1 ? "are" : "is"
        } --format ${format}, whose records carry their own`,
      );
    }
    const { metadataPaths } = harnessImporter(format);
    const items: TemplateItem[] = [];
    const decided = new Set<string>();
    // the reading flags as import takes them; the severity flags are
    // not among them, the items going to severityOf instead
    const h = await importHarness(paths, format, values, {
      quiet: true,
      severityOf: (item, where) => {
        items.push(templateItem(item, { keyPath, metadataPaths }, where));
        return UNREAD;
      },
      onDecision: (d) => decided.add(d.taskId),
    });
    for (const m of h.messages) console.error(rename(m));
    const { columns, rows } = severityTemplateRows(
      items.filter((i) => decided.has(i.taskId)),
    );
    return {
      ...fileKeys(inputs),
      format,
      key: key ?? null,
      decisions: h.count,
      columns,
      rows,
      pCorrectSources: h.pCorrectSources,
      setAside: h.setAside.map((a) => ({ ...a, file: rename(a.file) })),
      ...(h.inputs.length > 0
        ? { inputs: h.inputs.map((x) => ({ ...x, file: rename(x.file) })) }
        : {}),
    };
  });
}

/**
 * A severity map of harness logs, not yet filled in: one row per task id
 * their decisions have (or, with `severityMapKey: "field:PATH"`, per
 * distinct value at PATH of the items), each with an empty severity and the
 * metadata the log's items carry there (inspect's `metadata`, lm-eval's
 * `doc`, HELM's `instance.extra_data`, promptfoo's `testCase.metadata`,
 * `vars` and `metadata`), a value shared by every item of the row. The logs
 * are read as `lossbook import` reads them, with the same flags, so the
 * keys are those a map passed to `severityMap` must cover. Returns the
 * document `lossbook severity-template --json` prints; `severityTemplateCsv`
 * turns it into the CSV the command writes.
 *
 * @param inputs Harness logs (a HELM run is its folder), of one format.
 * @param options The flags of `lossbook severity-template` in camelCase
 *   (`format`, `severityMapKey`, `scorer`, `correct`, …).
 * @returns The `severity-template --json` document.
 * @throws {UsageError} For options the command would refuse, or inputs
 *   that are not harness logs, with its message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { severityTemplate } from "./severity_template.ts";
 *
 * const doc = await severityTemplate(["data/examples/harness/inspect_sonnet.json"]);
 * assert.deepEqual(doc.columns, ["key", "severity", "metadata.severity", "metadata.class"]);
 * assert.deepEqual(doc.rows.map((r) => r.key), ["1", "2", "3", "4", "dup-5"]);
 * assert.equal(doc.rows[0].metadata["metadata.class"], "AMOUNT_MISMATCH");
 * ```
 */
export async function severityTemplate(
  inputs: readonly string[],
  options: SeverityTemplateOptions = {},
): Promise<SeverityTemplateDocument> {
  return await severityTemplateRun(
    inputs,
    flagValues(
      "severityTemplate",
      SEVERITY_TEMPLATE_OPTIONS,
      options,
    ),
  );
}
