// `lossbook import`: turn harness logs (or ReconForge files) into Decision
// records once, so the mapping can be reviewed before anything is scored.
import { basename, dirname } from "node:path";
import type { Decision } from "../lib/decision/decision.ts";
import { onPath } from "../lib/io_error.ts";
import { decisionTable } from "../lib/read/load_decisions.ts";
import { decisionFormatOf, writeDecisions } from "../lib/read/load_any.ts";
import { type Command, parseFlags, UsageError } from "./_command.ts";
import {
  importHarness,
  isHarness,
  MAPPING_FLAGS,
  refuseClusterFill,
} from "./_harness_input.ts";
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
          // JSONL keeps each record as the importer made it (explicit
          // nulls included), written as it is made
          const lines = decisionFormatOf(out) === "jsonl"
            ? await JsonLinesOut.open(out)
            : null;
          let h;
          try {
            h = await importHarness(logs, format, values, {
              quiet: true,
              ...(lines === null ? {} : { onDecision: (d) => lines.write(d) }),
            });
          } catch (error) {
            await lines?.abort();
            throw error;
          }
          const messages = h.messages.map(rename);
          if (values.json !== true) {
            for (const m of messages) console.error(m);
          }
          count = h.count;
          if (lines !== null) await lines.done();
          else await writeDecisions(out, decisionTable(h.decisions));
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
          refuseClusterFill(values, format);
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

// Decisions as JSON lines, written as they are made, a megabyte at a time,
// into a file beside `out` that takes its place once the import is done,
// so that an error on the way leaves `out` as it was. Where no such file
// can be made (a folder the user may not write in, `out` a FIFO or a
// device), the lines wait in memory and go into `out` itself once the
// import is done. A write that fails is reported when the import is done,
// after any error in the logs, as it was when the whole file was written
// after the import.
class JsonLinesOut {
  #text = "";
  #waiting: string[] = [];
  #failed: unknown = null;
  readonly #encoder = new TextEncoder();

  private constructor(
    readonly out: string,
    // the file beside `out` and the path it takes, or null: into `out`
    readonly file: Deno.FsFile | null,
    readonly partial: string | null,
    readonly target: string,
  ) {}

  static async open(out: string): Promise<JsonLinesOut> {
    const inPlace = new JsonLinesOut(out, null, null, out);
    let target = out;
    let mode: number | null = null;
    try {
      const info = await Deno.lstat(out);
      if (info.isSymlink) target = await Deno.realPath(out);
      const real = info.isSymlink ? await Deno.stat(target) : info;
      if (!real.isFile) return inPlace;
      mode = real.mode === null ? null : real.mode & 0o7777;
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) return inPlace;
    }
    const partial = `${dirname(target)}/.${basename(target)}.${
      crypto.randomUUID().slice(0, 8)
    }.partial`;
    try {
      const file = await Deno.open(partial, { write: true, createNew: true });
      if (mode !== null) await Deno.chmod(partial, mode).catch(() => {});
      return new JsonLinesOut(out, file, partial, target);
    } catch {
      return inPlace;
    }
  }

  /** One decision's line; written once a megabyte is waiting. */
  write(d: Decision): void {
    this.#text += JSON.stringify(d) + "\n";
    if (this.#text.length >= 1 << 20) this.#flush();
  }

  #flush(): void {
    const text = this.#text;
    this.#text = "";
    if (this.file === null) {
      this.#waiting.push(text);
      return;
    }
    if (this.#failed !== null || text === "") return;
    try {
      writeAll(this.file, this.#encoder.encode(text));
    } catch (error) {
      this.#failed = error;
    }
  }

  /** Write what is waiting and put the file in place of `out`. */
  async done(): Promise<void> {
    this.#flush();
    if (this.file === null) {
      // an error opening `out` names it, as it always has
      using file = await Deno.open(this.out, {
        write: true,
        create: true,
        truncate: true,
      });
      try {
        for (const text of this.#waiting) {
          writeAll(file, this.#encoder.encode(text));
        }
      } catch (error) {
        throw onPath(error, `Cannot write ${this.out}`);
      }
      return;
    }
    try {
      if (this.#failed !== null) throw this.#failed;
      this.file.close();
      await Deno.rename(this.partial!, this.target);
    } catch (error) {
      await this.abort();
      throw onPath(error, `Cannot write ${this.out}`);
    }
  }

  /** Give up: the file beside `out` is removed, `out` left as it was. */
  async abort(): Promise<void> {
    if (this.file === null) return;
    try {
      this.file.close();
    } catch {
      // closed already
    }
    await Deno.remove(this.partial!).catch(() => {});
  }
}

function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  for (let n = 0; n < bytes.length;) n += file.writeSync(bytes.subarray(n));
}
