import assert from "node:assert/strict";
import {
  chartFontFiles,
  renderPng,
  renderSvg,
} from "../../../lib/charts/render.ts";
import { groupedBarChart } from "../../../lib/charts/specs.ts";
import { CHART_FONT } from "../../../lib/charts/theme.ts";

const textSvg = (family: string, text = "Loss 10,042") =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40"><text x="8" y="26" font-family="${family}" font-size="16">${text}</text></svg>`;
const blankSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40"></svg>';

Deno.test("rendering the same spec twice gives identical SVG and PNG bytes", async () => {
  const spec = groupedBarChart(
    [{ s: "HIGH", m: "A", v: 10 }, { s: "HIGH", m: "B", v: 2.5 }],
    { x: "s", group: "m", y: "v", title: "Errors" },
  );
  const [a, b] = [await renderSvg(spec), await renderSvg(spec)];
  assert.equal(a, b);
  assert.deepEqual(await renderPng(a), await renderPng(b));
});

Deno.test("text is drawn: the PNG of a text-only SVG differs from the blank one", async () => {
  const blank = await renderPng(blankSvg);
  assert.notDeepEqual(await renderPng(textSvg(CHART_FONT)), blank);
});

Deno.test("text in a family the machine may lack is drawn in the pinned font, byte for byte", async () => {
  const pinned = await renderPng(textSvg(CHART_FONT));
  assert.deepEqual(await renderPng(textSvg("No Such Font Family")), pinned);
  assert.deepEqual(await renderPng(textSvg("sans-serif")), pinned);
  assert.notDeepEqual(await renderPng(textSvg(CHART_FONT, "other")), pinned);
});

Deno.test("the pinned font is read from the npm package in node_modules", () => {
  const files = chartFontFiles();
  assert.ok(
    files.every((f) =>
      f.includes("node_modules") && f.includes("dejavu-fonts-ttf")
    ),
  );
  for (const f of files) assert.ok(Deno.statSync(f).size > 100_000);
});

Deno.test("SVG text carries the theme's font family", async () => {
  const svg = await renderSvg(groupedBarChart(
    [{ s: "HIGH", m: "A", v: 1 }],
    { x: "s", group: "m", y: "v", title: "t" },
  ));
  assert.match(svg, /font-family="DejaVu Sans"/);
  assert.doesNotMatch(svg, /font-family="sans-serif"/);
});
