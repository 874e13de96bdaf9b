// `lossbook board`: the command over `board` (api/board.ts), with its help,
// the human report and the page it writes.
import {
  alignRows,
  type Command,
  formatNumber,
  parseFlags,
} from "./_command.ts";
import { commandHelp } from "./_help.ts";
import { checkOutPath, inputFiles } from "./_out_file.ts";
import { importLater } from "../lib/_late_import.ts";
import { BOARD_OPTIONS, type BoardDocument, boardRun } from "../api/board.ts";

// The folder --out names: a folder or nothing yet, never a file.
async function checkOutDir(dir: string): Promise<void> {
  try {
    if (!(await Deno.stat(dir)).isDirectory) {
      throw new Deno.errors.AlreadyExists(
        `Cannot write ${dir}/: it is a file, not a folder; give --out a folder`,
      );
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

function human(doc: BoardDocument): string {
  const n = doc.models.length;
  const pairs = n * (n - 1) / 2;
  const input = "file" in doc ? doc.file : doc.files.join(" + ");
  const lines = [
    `${input}: ${n} models compared on the ${formatNumber(doc.tasks)} ${
      doc.tasks === 1 ? "task" : "tasks"
    } they all answered${
      doc.unsharedTasks > 0
        ? ` (${
          formatNumber(doc.unsharedTasks)
        } answered by some only, left out)`
        : ""
    }; ${doc.mode} mode, ${doc.matrix} matrix; compare's sign-flip test on ${pairs} ${
      pairs === 1 ? "pair" : "pairs"
    }, Holm at alpha ${doc.alpha}${
      doc.unit === "cluster" ? "; unit: cluster" : ""
    }; seed ${doc.seed}, ${doc.resamples} sign assignments`,
  ];
  for (const p of doc.profiles) {
    lines.push(
      "",
      `${p.id}${p.unit === null ? "" : ` (${p.unit})`}`,
      alignRows([
        ["place", "model", "loss", "group", "rank interval", "better than"],
        ...p.ranking.map((m) => [
          String(m.position),
          m.modelId,
          formatNumber(m.loss, 6),
          m.groups.every((g) => g.length === 1)
            ? m.groups.join("")
            : m.groups.join(" "),
          `[${m.rankInterval[0]}, ${m.rankInterval[1]}]`,
          m.betterThan.length === 0 ? "none" : m.betterThan.join(", "),
        ]),
      ]),
    );
  }
  lines.push("", ...doc.notes.map((t) => `note: ${t}`));
  return lines.join("\n");
}

/** The `board` command. */
export const boardCommand: Command = {
  summary:
    "Rank the models of runs on the tasks they all answered, with tie groups from compare's test on every pair (Holm), and write the page",
  ...commandHelp({
    forms: [{ command: "board", args: "<file>...", options: BOARD_OPTIONS }],
    notes: [
      "The models are compared on the tasks every one of them answered (the board says how many, and refuses when there are none). Under each profile every pair gets compare's paired sign-flip test on the per-task loss differences, the p-values of a profile are adjusted together with Holm's step-down method at --alpha, and a pair whose adjusted p-value is at most alpha is told apart. Models sharing a letter (a compact letter display) are not told apart; a model's rank interval is [1 + the models significantly better, n - the models significantly worse]. --out DIR writes index.html, one self-contained page (no script, no request; charts as inline SVG), and board.json, the --json document.",
    ],
  }),
  example:
    "deno task lossbook board data/examples/model_ab.jsonl --out board --force",
  async run(args) {
    const { values, positionals } = parseFlags("board", args, BOARD_OPTIONS);
    const out = values.out;
    const files = out === undefined ? [] : [
      `${out}/index.html`,
      `${out}/board.json`,
    ];
    const inputs = inputFiles(BOARD_OPTIONS, values, positionals, "input");
    // refuse before computing: a file where the folder goes, an output that
    // is an input, an existing output without --force
    if (out !== undefined) {
      await checkOutDir(out);
      for (const f of files) {
        await checkOutPath(f, inputs, values.force === true);
      }
    }
    const { document } = await boardRun(positionals, values);
    const json = JSON.stringify(document, null, 2) + "\n";
    if (out !== undefined) {
      const { boardPage } = await importLater<
        typeof import("../api/_board_page.ts")
      >(new URL("../api/_board_page.ts", import.meta.url));
      const page = await boardPage(document);
      await Deno.mkdir(out, { recursive: true });
      await Deno.writeTextFile(files[0], page);
      await Deno.writeTextFile(files[1], json);
    }
    if (values.json) {
      console.log(json.slice(0, -1));
    } else {
      console.log(human(document));
      if (out !== undefined) console.log(`wrote ${files.join(" and ")}`);
    }
    return 0;
  },
};
