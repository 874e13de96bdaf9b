// `lossbook card`: the command over `card` (api/card.ts): the card written
// as Markdown or HTML, and, on request, as Every Eval Ever records and a
// Hugging Face `model-index` block.
import { dirname, join } from "node:path";
import { type Command, parseFlags, UsageError } from "./_command.ts";
import { commandHelp } from "./_help.ts";
import { checkOutPath, inputFiles } from "./_out_file.ts";
import { importLater } from "../lib/_late_import.ts";
import { CARD_OPTIONS, cardRun } from "../api/card.ts";
import { cardHtml, cardMarkdown } from "../api/card_render.ts";
import {
  everyEvalEverRecords,
  modelIndexEntries,
} from "../api/card_exports.ts";

/** The options of the `card` command: the library's, and the outputs only the command writes. */
const CARD_COMMAND_OPTIONS = {
  ...CARD_OPTIONS,
  html: {
    type: "boolean",
    doc:
      "write the card as a standalone HTML page instead of Markdown (to --out, or stdout without --json)",
  },
  "every-eval-ever": {
    type: "string",
    value: "DIR",
    doc:
      "also write one Every Eval Ever aggregate record per model, DIR/<developer>/<model>/<uuid>.json, each checked against the vendored schema first",
  },
  "model-index": {
    type: "string",
    value: "FILE",
    doc:
      "also write the Hugging Face model-index YAML block to FILE (refused if it exists, unless --force); needs the task type, dataset type and dataset name, from the logs or --task-type, --dataset-type, --dataset-name",
  },
} as const;

// When the records are made, in Unix seconds: SOURCE_DATE_EPOCH when it is
// set (the reproducible-builds convention, for byte-identical records), else
// now.
function retrievedTimestamp(): string {
  const fixed = Deno.env.get("SOURCE_DATE_EPOCH");
  if (fixed === undefined) return String(Date.now() / 1000);
  if (!/^(0|[1-9][0-9]*)$/.test(fixed)) {
    throw new UsageError(
      `SOURCE_DATE_EPOCH must be whole Unix seconds, got ${
        JSON.stringify(fixed)
      }`,
    );
  }
  return fixed;
}

/** The `card` command. */
export const cardCommand: Command = {
  summary:
    "A consequence card per model, in Markdown for a model card or README (or HTML): accuracy, recall, loss per profile with intervals, P(best), where each model wins as K varies, calibration, cost evidence",
  ...commandHelp({
    forms: [{
      command: "card",
      args: "<file>...",
      options: CARD_COMMAND_OPTIONS,
    }],
    notes: [
      "Every figure is the one 'lossbook score', 'sweep' and 'calibrate' print for the same inputs and flags: the card calls them. Where each model wins is taken along sweep's default family: the --base profile (reconciliation) with K(HIGH) and K(CRITICAL) multiplied by r from 1 to 100,000, loss per decision. Without --out the card goes to stdout; with --json stdout holds the card's JSON document instead.",
    ],
  }),
  example:
    "deno task lossbook card data/examples/harness/inspect_qwen.eval --severity-map data/examples/harness/inspect_severity.csv --out /tmp/card.md --force",
  async run(args) {
    const { values, positionals } = parseFlags(
      "card",
      args,
      CARD_COMMAND_OPTIONS,
    );
    const force = values.force === true;
    const out = values.out;
    const index = values["model-index"];
    if (values.html && values.json && out === undefined) {
      throw new UsageError(
        "--html writes the card to --out FILE; with --json, stdout holds the JSON document",
      );
    }
    if (out !== undefined && index !== undefined && out === index) {
      throw new UsageError(
        `--out and --model-index name the same file (${out})`,
      );
    }
    const inputs = inputFiles(
      CARD_COMMAND_OPTIONS,
      values,
      positionals,
      "input",
    ).filter((i) => i.flag !== "--model-index");
    if (out !== undefined) await checkOutPath(out, inputs, force);
    if (index !== undefined) {
      await checkOutPath(index, inputs, force, "--model-index");
    }
    const { document } = await cardRun(positionals, values);
    // everything is made and checked before anything is written
    let yaml: string | null = null;
    if (index !== undefined) {
      const entries = modelIndexEntries(document);
      const { modelIndexYaml } = await importLater<
        typeof import("../lib/report/model_index.ts")
      >(new URL("../lib/report/model_index.ts", import.meta.url));
      yaml = modelIndexYaml(entries);
    }
    const eeeDir = values["every-eval-ever"];
    let records: ReturnType<typeof everyEvalEverRecords> = [];
    if (eeeDir !== undefined) {
      const eee = await importLater<
        typeof import("../lib/report/every_eval_ever.ts")
      >(new URL("../lib/report/every_eval_ever.ts", import.meta.url));
      records = everyEvalEverRecords(document, {
        schemaVersion: eee.EVERY_EVAL_EVER_SCHEMA_VERSION,
        retrievedTimestamp: retrievedTimestamp(),
      });
      for (const { path, record } of records) {
        const errors = eee.everyEvalEverErrors(record);
        if (errors.length > 0) {
          throw new Error(
            `the Every Eval Ever record of ${path} breaks schema ${eee.EVERY_EVAL_EVER_SCHEMA_VERSION}: ${
              errors.join("; ")
            }`,
          );
        }
      }
    }
    const text = values.html ? cardHtml(document) : cardMarkdown(document);
    const said: string[] = [];
    if (out !== undefined) {
      await Deno.writeTextFile(out, text);
      said.push(
        `wrote the card of ${document.models.length} model${
          document.models.length === 1 ? "" : "s"
        } to ${out}`,
      );
    }
    if (index !== undefined) {
      await Deno.writeTextFile(index, yaml!);
      said.push(`wrote the model-index block to ${index}`);
    }
    for (const { path, record } of records) {
      const file = join(eeeDir!, path);
      await Deno.mkdir(dirname(file), { recursive: true });
      await Deno.writeTextFile(file, `${JSON.stringify(record, null, 2)}\n`, {
        createNew: true,
      });
      said.push(
        `wrote the Every Eval Ever record (schema ${record.schema_version}) of ${
          (record.model_info as { id: string }).id
        } to ${file}`,
      );
    }
    if (values.json) {
      console.log(JSON.stringify(document, null, 2));
      for (const line of said) console.error(line);
    } else if (out === undefined) {
      console.log(text.slice(0, -1));
      for (const line of said) console.error(line);
    } else {
      for (const line of said) console.log(line);
    }
    return 0;
  },
};
