// Execute every notebook on the real Deno Jupyter kernel with plain nbclient
// (the engine of `jupyter nbconvert --execute`, papermill and CI runners),
// check that no output is missing, and write the executed notebook back over
// notebooks/NAME.ipynb, outputs included, so that a reader on a code-hosting
// site sees the tables and figures without running anything. Prints one line
// per notebook, the late outputs the kernel sent, then "N passed, N failed";
// exits 1 when a notebook fails.
//
// Usage: deno task notebooks [--no-write] [NAME.ipynb ...]
//          --no-write  execute and check, but leave notebooks/ as it is
//        deno run --allow-read scripts/run_notebooks.ts --check DIR
//          check notebooks executed by another runner (for example plain
//          `jupyter nbconvert --to notebook --execute --output-dir DIR`):
//          DIR/NAME.ipynb for every notebooks/NAME.ipynb, none executed here
//
// Late output. The Deno kernel (2.9) sometimes publishes a cell's output on
// IOPub after that cell's "idle" status; nbclient stops listening to a cell
// at its idle and drops the message without an error
// (docs/deno-kernel-late-output.md). The notebooks avoid it themselves: every
// output comes from `await show(x)` (display.ts), which publishes and then
// yields 20 ms before the cell ends. Nothing here repairs output:
// scripts/execute_notebook.py runs nbclient unchanged and a passive IOPub
// observer beside it counts the outputs that arrived after their cell's idle
// (each of them is missing from the notebook). The count is reported; what
// fails a notebook is what `check` finds in the notebook written.
//
// Missing, precisely (`check`): a notebook is complete when (1) every code
// cell was executed (has an execution count) and no cell has an error
// output; (2) every code cell has at least as many display_data outputs as
// its source has `show(` call sites (comments aside), each with a non-empty
// text/plain; (3) every display_data carrying Vega-Lite also carries
// image/png and no image/svg+xml. A `show` inside a loop counts once, so
// the rule is "at least"; a cell that calls `show` conditionally is not
// allowed (none does).

const root = new URL("../", import.meta.url).pathname;

/** An output of an executed notebook cell, as nbformat stores it. */
export interface Output {
  output_type: string;
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
}
/** A notebook cell, as nbformat stores it. */
export interface Cell {
  cell_type: string;
  source: string | string[];
  execution_count?: number | null;
  outputs?: Output[];
}

/** What the observer beside nbclient reports for one notebook run. */
interface Observed {
  late: number;
  lateCells: (number | null)[];
  observed: boolean;
}

function sourceOf(cell: Cell): string {
  return Array.isArray(cell.source) ? cell.source.join("") : cell.source;
}

/**
 * How many outputs a code cell promises: its `show(` call sites, comments
 * aside.
 *
 * @param source A code cell's source.
 * @returns The number of `show(` calls in it.
 */
export function expectedDisplays(source: string): number {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
  return (code.match(/(?<![\w$.])show\s*\(/g) ?? []).length;
}

/** What {@linkcode check} found in one executed notebook. */
export interface CheckResult {
  /** One line per missing output or error; empty when complete. */
  problems: string[];
  /** display_data outputs the cells' `show` calls promise. */
  expected: number;
  /** display_data outputs present (counted up to each cell's promise). */
  present: number;
  /** Chart outputs (Vega-Lite), and how many of them carry a PNG. */
  charts: number;
  chartsWithPng: number;
}

/**
 * Check an executed notebook for missing output (the rules are in the
 * header of this file).
 *
 * @param nb The executed notebook.
 * @returns The problems and the counts.
 */
export function check(nb: { cells: Cell[] }): CheckResult {
  const result: CheckResult = {
    problems: [],
    expected: 0,
    present: 0,
    charts: 0,
    chartsWithPng: 0,
  };
  nb.cells.forEach((cell, i) => {
    if (cell.cell_type !== "code") return;
    const source = sourceOf(cell);
    if (source.trim() === "") return;
    const outputs = cell.outputs ?? [];
    const where = `cell ${i} (${source.trim().split("\n").at(-1)})`;
    if (cell.execution_count === null || cell.execution_count === undefined) {
      result.problems.push(`${where} was not executed`);
    }
    for (const o of outputs) {
      if (o.output_type === "error") {
        result.problems.push(`${where} raised ${o.ename}: ${o.evalue}`);
      }
    }
    const displays = outputs.filter((o) => o.output_type === "display_data");
    const want = expectedDisplays(source);
    result.expected += want;
    result.present += Math.min(want, displays.length);
    if (displays.length < want) {
      result.problems.push(
        `${where} has ${displays.length} display outputs of the ${want} its show() calls promise`,
      );
    }
    for (const o of displays) {
      const mimes = Object.keys(o.data ?? {});
      if (String(o.data?.["text/plain"] ?? "") === "") {
        result.problems.push(
          `${where} has a display output without text/plain`,
        );
      }
      if (!mimes.some((m) => m.startsWith("application/vnd.vegalite"))) {
        continue;
      }
      result.charts++;
      if (mimes.includes("image/png")) result.chartsWithPng++;
      else {result.problems.push(
          `${where} has a chart output without image/png`,
        );}
      if (mimes.includes("image/svg+xml")) {
        result.problems.push(`${where} has a chart output with image/svg+xml`);
      }
    }
  });
  return result;
}

function notebookNames(): string[] {
  return [...Deno.readDirSync(`${root}notebooks`)]
    .map((e) => e.name)
    .filter((n) => n.endsWith(".ipynb") && !n.startsWith("_"))
    .sort();
}

function stderrTail(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes).split("\n")
    .filter((l) =>
      !/Debugger|frozen_modules|PYDEVD|debugger miss|unstable/.test(l)
    )
    .slice(-25).join("\n");
}

// The Python that runs jupyter (and so has nbclient): LOSSBOOK_PYTHON, or
// the interpreter named by the `jupyter` script's #! line, or python3.
function python(): string {
  const chosen = Deno.env.get("LOSSBOOK_PYTHON");
  if (chosen) return chosen;
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    try {
      const first = Deno.readTextFileSync(`${dir}/jupyter`).split("\n")[0];
      const m = /^#!\s*(\S*python[\d.]*)\s*$/.exec(first);
      if (m) return m[1];
    } catch {
      continue;
    }
  }
  return "python3";
}

function summary(totals: CheckResult[]): string {
  const sum = (f: (r: CheckResult) => number) =>
    totals.reduce((s, r) => s + f(r), 0);
  return `display outputs: ${sum((r) => r.present)} present of ${
    sum((r) => r.expected)
  } expected; chart outputs with a PNG: ${sum((r) => r.chartsWithPng)} of ${
    sum((r) => r.charts)
  }`;
}

/**
 * Check notebooks another runner executed into `dir`.
 *
 * @param dir The folder holding the executed notebooks.
 * @returns The exit code: 0 when every notebook is complete.
 */
function checkDir(dir: string): number {
  let passed = 0;
  let failed = 0;
  const totals: CheckResult[] = [];
  for (const name of notebookNames()) {
    let text: string;
    try {
      text = Deno.readTextFileSync(`${dir}/${name}`);
    } catch {
      failed++;
      console.log(`FAIL ${dir}/${name}\n  not written by the runner`);
      continue;
    }
    const result = check(JSON.parse(text));
    totals.push(result);
    const counts =
      `${result.present} of ${result.expected} display outputs, ${result.chartsWithPng} of ${result.charts} charts with a PNG`;
    if (result.problems.length === 0) {
      passed++;
      console.log(`ok   ${dir}/${name} (${counts})`);
    } else {
      failed++;
      console.log(
        `FAIL ${dir}/${name} (${counts})\n  ${result.problems.join("\n  ")}`,
      );
    }
  }
  console.log(summary(totals));
  console.log(`notebooks checked: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

/**
 * Run, check and write back the notebooks named in `argv` (all by default).
 *
 * @param argv Command-line arguments.
 * @returns The exit code: 0 when every notebook passed.
 */
async function main(argv: readonly string[]): Promise<number> {
  const checkAt = argv.indexOf("--check");
  if (checkAt >= 0) {
    const dir = argv[checkAt + 1];
    if (dir === undefined) {
      console.error("scripts/run_notebooks.ts: --check needs a folder");
      return 2;
    }
    return checkDir(dir.replace(/\/$/, ""));
  }
  const write = !argv.includes("--no-write");
  const args = argv.filter((a) => a !== "--no-write");
  const names = args.length > 0
    ? args.map((a) => a.replace(/^notebooks\//, ""))
    : notebookNames();

  const work = await Deno.makeTempDir({ prefix: "lossbook-notebooks-" });
  const interpreter = python();
  let passed = 0;
  let failed = 0;
  let late = 0;
  let unobserved = 0;
  const lateIn: string[] = [];
  const totals: CheckResult[] = [];
  try {
    for (const name of names) {
      const started = performance.now();
      const out = await new Deno.Command(interpreter, {
        args: [
          `${root}scripts/execute_notebook.py`,
          `${root}notebooks/${name}`,
          `${work}/${name}`,
        ],
        // NO_COLOR reaches the kernel: an error's traceback without ANSI colours
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const report = new TextDecoder().decode(out.stdout).trim().split("\n")
        .at(-1) ?? "";
      let observed: Observed | null = null;
      try {
        observed = JSON.parse(report);
      } catch {
        observed = null;
      }
      let result: CheckResult | null = null;
      const problems: string[] = [];
      try {
        result = check(
          JSON.parse(await Deno.readTextFile(`${work}/${name}`)),
        );
        totals.push(result);
        problems.push(...result.problems);
      } catch {
        problems.push(`not executed:\n${stderrTail(out.stderr)}`);
      }
      if (!out.success && problems.length === 0) {
        problems.push(
          `the runner exited ${out.code}:\n${stderrTail(out.stderr)}`,
        );
      }
      if (observed !== null) {
        late += observed.late;
        if (observed.late > 0) {
          lateIn.push(`${name} cells ${observed.lateCells.join(", ")}`);
        }
        if (!observed.observed) unobserved++;
      } else {
        unobserved++;
      }
      const notes = [
        `${seconds} s`,
        result === null
          ? "no notebook"
          : `${result.present} of ${result.expected} display outputs`,
        observed === null
          ? "late outputs not observed"
          : `${observed.late} late${
            observed.observed ? "" : " (observer joined late)"
          }`,
      ].join(", ");
      if (problems.length === 0) {
        passed++;
        if (write) {
          await Deno.writeTextFile(
            `${root}notebooks/${name}`,
            await Deno.readTextFile(`${work}/${name}`),
          );
        }
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
  } finally {
    await Deno.remove(work, { recursive: true });
  }
  console.log(summary(totals));
  console.log(
    `late outputs (sent by the kernel after their cell's idle, so dropped by nbclient): ${late}${
      lateIn.length > 0 ? ` (${lateIn.join("; ")})` : ""
    }${unobserved > 0 ? `; ${unobserved} notebooks not fully observed` : ""}`,
  );
  console.log(`notebooks: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
