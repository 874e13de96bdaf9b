// Run every notebook's code cells in-process (no Jupyter needed): the cells
// are joined into one module next to the notebook, so "../mod.ts" resolves
// as it does in the kernel, and imported. A failing cell fails the test.
import assert from "node:assert/strict";
import { check } from "../scripts/run_notebooks.ts";

const dir = new URL("../notebooks/", import.meta.url);
const notebooks = [...Deno.readDirSync(dir)]
  .map((e) => e.name)
  .filter((n) => n.endsWith(".ipynb") && !n.startsWith("_"))
  .sort();

Deno.test("every notebook is a Deno-kernel notebook with code", () => {
  assert.ok(notebooks.length >= 1);
  for (const name of notebooks) {
    const nb = JSON.parse(Deno.readTextFileSync(new URL(name, dir)));
    assert.equal(nb.metadata.kernelspec.name, "deno", name);
    assert.ok(
      nb.cells.some((c: { cell_type: string }) => c.cell_type === "code"),
      name,
    );
    assert.equal(
      nb.cells[0].cell_type,
      "markdown",
      `${name} opens with a statement of what it reproduces`,
    );
  }
});

Deno.test("every committed notebook has all its outputs, each from show(), charts as Vega-Lite and PNG", () => {
  for (const name of notebooks) {
    const nb = JSON.parse(Deno.readTextFileSync(new URL(name, dir)));
    const result = check(nb);
    assert.deepEqual(result.problems, [], name);
    assert.ok(result.expected > 0, `${name} shows something`);
    assert.equal(result.charts, result.chartsWithPng, name);
    for (const cell of nb.cells) {
      for (const output of cell.outputs ?? []) {
        // a value left for the kernel to show may arrive after the cell's idle and be lost
        assert.notEqual(
          output.output_type,
          "execute_result",
          `${name}: use await show(x)`,
        );
      }
    }
  }
});

Deno.test("committed notebook outputs are deterministic: no cell timings, temporary paths or pids", () => {
  for (const name of notebooks) {
    const text = Deno.readTextFileSync(new URL(name, dir));
    const nb = JSON.parse(text);
    for (const cell of nb.cells) {
      assert.equal(
        cell.metadata?.execution,
        undefined,
        `${name}: cell timings`,
      );
    }
    const outputs = JSON.stringify(
      nb.cells.map((c: { outputs?: unknown }) => c.outputs ?? []),
    );
    assert.doesNotMatch(outputs, /\/tmp\/|lossbook-month-|\bpid\b/i, name);
    // clock times cannot be told from the seeded dates of simulated data here:
    // running `deno task notebooks` twice and finding git clean checks them
  }
});

for (const name of notebooks) {
  Deno.test(`notebook ${name} runs in-process`, async () => {
    const nb = JSON.parse(await Deno.readTextFile(new URL(name, dir)));
    const code = nb.cells
      .filter((c: { cell_type: string }) => c.cell_type === "code")
      .map((c: { source: string | string[] }, i: number) =>
        `// --- cell ${i + 1}\n${
          Array.isArray(c.source) ? c.source.join("") : c.source
        }`
      )
      .join("\n;\n");
    const file = new URL(`_${name.replace(/\.ipynb$/, "")}.nbtest.ts`, dir);
    await Deno.writeTextFile(file, code + "\nexport {};\n");
    try {
      await import(file.href);
    } finally {
      await Deno.remove(file);
    }
  });
}
