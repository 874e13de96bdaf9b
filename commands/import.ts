// `lossbook import`: turn harness logs (or ReconForge files) into Decision
// records once, so the mapping can be reviewed before anything is scored.
import { decisionTable } from "../lib/read/load_decisions.ts";
import { decisionFormatOf, writeDecisions } from "../lib/read/load_any.ts";
import { type Command, parseFlags, UsageError } from "./_command.ts";
import { importHarness, isHarness, MAPPING_FLAGS } from "./_harness_input.ts";
import {
  fileKeys,
  FORMATS,
  importKeys,
  readRun,
  resolveFormats,
} from "./_input.ts";
import { checkOutPath, inputFiles } from "./_out_file.ts";
import { withStreams } from "./_stream_input.ts";
import { commandHelp } from "./_help.ts";
import {
  FORCE_OPTION,
  formatOption,
  JSON_OPTION,
  outOption,
} from "./_options.ts";

/** The options of `import`, as `--help` lists them and `parseFlags` reads them. */
const IMPORT_OPTIONS = {
  format: formatOption("inspect|lm-eval|helm|promptfoo|reconforge"),
  ...MAPPING_FLAGS,
  out: outOption(
    "the decisions to; its extension picks the format (.jsonl, .csv, .arrow, .parquet)",
    "decisions.jsonl|.csv|.arrow|.parquet",
  ),
  force: FORCE_OPTION,
  json: JSON_OPTION,
} as const;

/** The `import` command. */
export const importCommand: Command = {
  summary:
    "Import harness logs (inspect, lm-eval, helm, promptfoo) or ReconForge files as Decision records, with severity from a flag, a map or a field",
  ...commandHelp({
    forms: [{ command: "import", args: "<log>...", options: IMPORT_OPTIONS }],
  }),
  example:
    "deno task lossbook import data/examples/harness/inspect_qwen.eval --severity-field metadata.severity --out /tmp/qwen_decisions.jsonl --force",
  async run(args) {
    const { values, positionals } = parseFlags("import", args, IMPORT_OPTIONS);
    if (positionals.length === 0) {
      throw new UsageError("expected one or more log files, got none");
    }
    if (values.out === undefined) {
      throw new UsageError("say where to write the decisions with --out FILE");
    }
    const out = values.out;
    decisionFormatOf(out); // an unknown extension is refused before reading
    const { doc, count, format } = await withStreams(
      positionals,
      async (logs, rename) => {
        const format = await resolveFormats(logs, values.format);
        if (!isHarness(format) && format !== "reconforge") {
          throw new UsageError(
            `import reads harness logs and ReconForge files; ${
              positionals.join(", ")
            } ${
              positionals.length > 1 ? "are" : "is"
            } --format ${format} (one of ${
              FORMATS.join(", ")
            }), which score and the other commands read directly`,
          );
        }
        await checkOutPath(
          out,
          inputFiles(IMPORT_OPTIONS, values, positionals, "log"),
          values.force === true,
        );
        let doc: Record<string, unknown>;
        let count: number;
        if (isHarness(format)) {
          const h = await importHarness(logs, format, values, { quiet: true });
          const messages = h.messages.map(rename);
          if (values.json !== true) {
            for (const m of messages) console.error(m);
          }
          count = h.decisions.length;
          // JSONL keeps each record as the importer made it (explicit nulls included)
          if (decisionFormatOf(out) === "jsonl") {
            await writeJsonLines(out, h.decisions);
          } else await writeDecisions(out, decisionTable(h.decisions));
          doc = {
            ...fileKeys(positionals),
            format,
            out,
            decisions: count,
            notes: h.notes,
            pCorrectSources: h.pCorrectSources,
            setAside: h.setAside.map((a) => ({ ...a, file: rename(a.file) })),
            ...(h.inputs.length > 0
              ? {
                inputs: h.inputs.map((x) => ({ ...x, file: rename(x.file) })),
              }
              : {}),
            messages,
          };
        } else {
          const run = await readRun(logs, { ...values, format }, true);
          count = run.decisions;
          await writeDecisions(out, run.table!);
          doc = {
            ...fileKeys(positionals),
            format,
            out,
            decisions: count,
            notes: run.notes,
            ...importKeys(run),
          };
        }
        return { doc, count, format };
      },
    );
    if (values.json) console.log(JSON.stringify(doc, null, 2));
    else {
      console.log(
        `wrote ${count} decisions to ${out} (${format}, from ${
          positionals.join(", ")
        })`,
      );
    }
    return 0;
  },
};

// Records as JSON lines, written a few thousand at a time rather than as
// one string of the whole file.
async function writeJsonLines(
  out: string,
  records: readonly unknown[],
): Promise<void> {
  const file = await Deno.open(out, {
    write: true,
    create: true,
    truncate: true,
  });
  try {
    const encoder = new TextEncoder();
    for (let i = 0; i < records.length; i += 4096) {
      let text = "";
      for (const r of records.slice(i, i + 4096)) {
        text += JSON.stringify(r) + "\n";
      }
      const bytes = encoder.encode(text);
      for (let n = 0; n < bytes.length;) {
        n += await file.write(bytes.subarray(n));
      }
    }
  } finally {
    file.close();
  }
}
