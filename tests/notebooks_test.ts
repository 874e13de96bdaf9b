// Run every notebook's code cells in-process (no Jupyter needed): the cells
// are joined into one module next to the notebook, so "../mod.ts" resolves
// as it does in the kernel, and imported. A failing cell fails the test.
import assert from "node:assert/strict";

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
