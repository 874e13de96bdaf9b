import assert from "node:assert/strict";
import {
  type Cell,
  check,
  expectedDisplays,
  type Output,
} from "../../scripts/run_notebooks.ts";

const code = (
  source: string,
  outputs: Output[],
  count: number | null = 1,
): Cell => ({
  cell_type: "code",
  source,
  execution_count: count,
  outputs,
});
const text = (t: string): Output => ({
  output_type: "display_data",
  data: { "text/plain": t },
});
const chart = (mimes: Record<string, unknown>): Output => ({
  output_type: "display_data",
  data: { "text/plain": "Vega-Lite chart: t", ...mimes },
});
const vl = { "application/vnd.vegalite.v6+json": {} };

Deno.test("expectedDisplays() counts show( call sites, not comments, not showTable or .show", () => {
  assert.equal(expectedDisplays("await show(a);"), 1);
  assert.equal(
    expectedDisplays(
      "await show(showTable(t, { maxRows: 3 }));\nawait show (b);",
    ),
    2,
  );
  assert.equal(
    expectedDisplays("// await show(a);\n/* show(b) */ x.show(c);"),
    0,
  );
  assert.equal(expectedDisplays("const s = showChart(x); reshow(y);"), 0);
});

Deno.test("check() passes a notebook whose every show() came back, charts with a PNG", () => {
  const r = check({
    cells: [
      { cell_type: "markdown", source: "# t" },
      code("const x = 1;", [], 1),
      code("await show(x);\nawait show(y);", [text("1"), text("2")]),
      code("await show(c);", [chart({ ...vl, "image/png": "iVBOR" })]),
    ],
  });
  assert.deepEqual(r.problems, []);
  assert.deepEqual([r.expected, r.present, r.charts, r.chartsWithPng], [
    3,
    3,
    1,
    1,
  ]);
});

Deno.test("check() names a cell with fewer display outputs than show() calls: a dropped output is missing", () => {
  const r = check({
    cells: [code("await show(x);\nawait show(y);", [text("1")])],
  });
  assert.deepEqual(r.problems, [
    "cell 0 (await show(y);) has 1 display outputs of the 2 its show() calls promise",
  ]);
  assert.deepEqual([r.expected, r.present], [2, 1]);
  // an execute_result (a value the kernel showed itself) does not stand in for a display
  const valued = check({
    cells: [
      code("await show(x);", [{
        output_type: "execute_result",
        data: { "text/plain": "1" },
      }]),
    ],
  });
  assert.equal(valued.problems.length, 1);
});

Deno.test("check() fails errors, unexecuted cells, charts without a PNG or with SVG, and empty displays", () => {
  const r = check({
    cells: [
      code("boom();", [{
        output_type: "error",
        ename: "ReferenceError",
        evalue: "boom is not defined",
      }]),
      code("await show(x);", [], null),
      code("await show(c);", [chart({ ...vl, "image/svg+xml": "<svg/>" })]),
      code("await show(e);", [{ output_type: "display_data", data: {} }]),
    ],
  });
  assert.deepEqual(r.problems, [
    "cell 0 (boom();) raised ReferenceError: boom is not defined",
    "cell 1 (await show(x);) was not executed",
    "cell 1 (await show(x);) has 0 display outputs of the 1 its show() calls promise",
    "cell 2 (await show(c);) has a chart output without image/png",
    "cell 2 (await show(c);) has a chart output with image/svg+xml",
    "cell 3 (await show(e);) has a display output without text/plain",
  ]);
});
