// Execute every notebook on the real Deno Jupyter kernel with nbconvert,
// check that every display cell came back with its rich output, and write
// the executed notebook back over notebooks/NAME.ipynb, outputs included, so
// that a reader on a code-hosting site sees the tables and figures without
// running anything. Prints one line per notebook with its time, then
// "N passed, N failed"; exits 1 when a notebook fails.
//
// Usage: deno task notebooks [--no-write] [NAME.ipynb ...]
//   --no-write  execute and check, but leave notebooks/ as it is
//
// The late-output problem. The Deno kernel (2.9) sometimes publishes a
// cell's result on IOPub *after* that cell's "idle" status: the message
// arrives, with the right parent, at the start of the next cell's traffic.
// nbclient stops listening to a cell at its idle and drops messages for
// other cells, so the output vanishes without an error (more often under
// load). No nbclient option helps: the message is not slow, it is out of
// order. So the notebooks run through nbconvert with the small
// ExecutePreprocessor subclass below, which keeps a map from execute-request
// id to cell and files any output that arrives for an earlier cell under
// that cell, and after the last cell listens for a moment longer. Then every
// executed notebook is checked: a cell whose last line shows something
// (showChart, showTable, showClaims, showResult, display, or a bare value)
// must have output, a chart cell an image/svg+xml and a Vega-Lite output, and
// no cell an error. A notebook that fails the check is run again (up to
// three times in all) and then reported as failed; it is never written back.

const root = new URL("../", import.meta.url).pathname;
const ATTEMPTS = 3;

const PREPROCESSOR =
  `"""lossbook: nbconvert's ExecutePreprocessor, with late kernel output filed under its own cell."""
import sys
import time
from queue import Empty

from nbclient.exceptions import CellExecutionComplete
from nbclient.util import ensure_async, run_sync
from nbconvert.preprocessors import ExecutePreprocessor
from traitlets import Float

OUTPUT_TYPES = {"execute_result", "display_data", "stream", "error"}


class RoutedExecutePreprocessor(ExecutePreprocessor):
    late_output_wait = Float(
        1.0, help="Seconds to keep listening for late output after the last cell"
    ).tag(config=True)

    def reset_execution_trackers(self):
        super().reset_execution_trackers()
        self._lossbook_cells = {}

    def _lossbook_route(self, msg):
        parent = (msg.get("parent_header") or {}).get("msg_id")
        target = self._lossbook_cells.get(parent)
        if target is None or msg["msg_type"] not in OUTPUT_TYPES:
            return
        cell, index = target
        display_id = msg["content"].get("transient", {}).get("display_id")
        self.output(cell.outputs, msg, display_id, index)
        print(f"lossbook-late-output cell={index} type={msg['msg_type']}", file=sys.stderr, flush=True)

    async def _async_poll_output_msg(self, parent_msg_id, cell, cell_index):
        self._lossbook_cells[parent_msg_id] = (cell, cell_index)
        while True:
            msg = await ensure_async(self.kc.iopub_channel.get_msg(timeout=None))
            if msg["parent_header"].get("msg_id") == parent_msg_id:
                try:
                    self.process_message(msg, cell, cell_index)
                except CellExecutionComplete:
                    return
            else:
                self._lossbook_route(msg)

    async def _async_lossbook_drain(self):
        deadline = time.monotonic() + self.late_output_wait
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                msg = await ensure_async(self.kc.iopub_channel.get_msg(timeout=left))
            except Empty:
                return
            self._lossbook_route(msg)

    _lossbook_drain = run_sync(_async_lossbook_drain)

    def preprocess_cell(self, cell, resources, index):
        result = super().preprocess_cell(cell, resources, index)
        if index == len(self.nb.cells) - 1:
            self._lossbook_drain()
        return result
`;

interface Output {
  output_type: string;
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
}
interface Cell {
  cell_type: string;
  source: string | string[];
  outputs?: Output[];
}

/**
 * What a code cell's last line promises to show: a chart (SVG and Vega-Lite),
 * HTML (a table, claims, a result), a bare value, or nothing.
 *
 * @param source The cell's source.
 * @returns The kind of output the cell must have, or `null`.
 */
export function expectation(source: string): "chart" | "html" | "value" | null {
  const lines = source.split("\n").map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("//"));
  const last = lines.at(-1) ?? "";
  if (/^(await\s+)?showChart\(/.test(last)) return "chart";
  if (/^(await\s+)?(show(Table|Claims|Result)|display)\(/.test(last)) {
    return "html";
  }
  if (/^[`(]|^[A-Za-z_$][\w$.]*;?$/.test(last)) return "value";
  return null;
}

/**
 * Problems with an executed notebook: an error output, or a display cell
 * without the output its last line promises.
 *
 * @param nb The executed notebook.
 * @returns One line per problem; empty when every display cell has its output.
 */
export function check(nb: { cells: Cell[] }): string[] {
  const problems: string[] = [];
  let charts = 0;
  nb.cells.forEach((cell, i) => {
    if (cell.cell_type !== "code") return;
    const source = Array.isArray(cell.source)
      ? cell.source.join("")
      : cell.source;
    const outputs = cell.outputs ?? [];
    const where = `cell ${i} (${source.trim().split("\n").at(-1)})`;
    for (const o of outputs) {
      if (o.output_type === "error") {
        problems.push(`${where} raised ${o.ename}: ${o.evalue}`);
      }
    }
    const want = expectation(source);
    const mimes = new Set(outputs.flatMap((o) => Object.keys(o.data ?? {})));
    if (want === null) return;
    if (outputs.length === 0) {
      problems.push(`${where} has no output`);
    } else if (want === "chart") {
      charts++;
      if (!mimes.has("image/svg+xml")) {
        problems.push(`${where} has no image/svg+xml output`);
      }
      if (![...mimes].some((m) => m.startsWith("application/vnd.vegalite"))) {
        problems.push(`${where} has no Vega-Lite output`);
      }
    } else if (want === "html" && !mimes.has("text/html")) {
      problems.push(`${where} has no text/html output`);
    }
  });
  return problems;
}

function stderrTail(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes).split("\n")
    .filter((l) =>
      !/Debugger|frozen_modules|PYDEVD|debugger miss|unstable|lossbook-late-output/
        .test(l)
    )
    .slice(-25).join("\n");
}

/**
 * Run, check and write back the notebooks named in `argv` (all by default).
 *
 * @param argv Command-line arguments.
 * @returns The exit code: 0 when every notebook passed.
 */
async function main(argv: readonly string[]): Promise<number> {
  const write = !argv.includes("--no-write");
  const args = argv.filter((a) => a !== "--no-write");
  const names = args.length > 0
    ? args.map((a) => a.replace(/^notebooks\//, ""))
    : [...Deno.readDirSync(`${root}notebooks`)]
      .map((e) => e.name)
      .filter((n) => n.endsWith(".ipynb") && !n.startsWith("_"))
      .sort();

  const work = await Deno.makeTempDir({ prefix: "lossbook-notebooks-" });
  await Deno.writeTextFile(`${work}/lossbook_nbexec.py`, PREPROCESSOR);
  const pythonPath = [work, Deno.env.get("PYTHONPATH")].filter(Boolean).join(
    ":",
  );

  let passed = 0;
  let failed = 0;
  for (const name of names) {
    let problems: string[] = [];
    let seconds = "";
    let late = 0;
    let attempt = 0;
    for (attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const started = performance.now();
      const out = await new Deno.Command("jupyter", {
        args: [
          "nbconvert",
          "--to",
          "notebook",
          "--NotebookExporter.preprocessors=lossbook_nbexec.RoutedExecutePreprocessor",
          "--RoutedExecutePreprocessor.enabled=True",
          "--RoutedExecutePreprocessor.kernel_name=deno",
          "--RoutedExecutePreprocessor.timeout=300",
          "--RoutedExecutePreprocessor.record_timing=False",
          "--output-dir",
          work,
          `${root}notebooks/${name}`,
        ],
        // NO_COLOR reaches the kernel: plain text outputs without ANSI colours
        env: { PYTHONPATH: pythonPath, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      seconds = ((performance.now() - started) / 1000).toFixed(1);
      const stderr = new TextDecoder().decode(out.stderr);
      late = (stderr.match(/lossbook-late-output/g) ?? []).length;
      if (!out.success) {
        problems = [`nbconvert failed:\n${stderrTail(out.stderr)}`];
        break; // a failing cell fails again: no retry
      }
      const executed = JSON.parse(await Deno.readTextFile(`${work}/${name}`));
      problems = check(executed);
      if (problems.length === 0) {
        if (write) {
          await Deno.writeTextFile(
            `${root}notebooks/${name}`,
            await Deno.readTextFile(`${work}/${name}`),
          );
        }
        break;
      }
      if (attempt < ATTEMPTS) {
        console.log(
          `retry notebooks/${name} (attempt ${attempt} of ${ATTEMPTS}, ${seconds} s): ${
            problems.join("; ")
          }`,
        );
      }
    }
    const notes = [
      `${seconds} s`,
      ...(late > 0 ? [`${late} late outputs filed under their cells`] : []),
      ...(attempt > 1 && problems.length === 0 ? [`attempt ${attempt}`] : []),
    ].join(", ");
    if (problems.length === 0) {
      passed++;
      console.log(
        `ok   notebooks/${name} (${notes})${write ? "" : " [not written]"}`,
      );
    } else {
      failed++;
      console.log(
        `FAIL notebooks/${name} (${notes})\n  ${problems.join("\n  ")}`,
      );
    }
  }
  await Deno.remove(work, { recursive: true });
  console.log(`notebooks: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
