import assert from "node:assert/strict";
import { renderPng, renderSvg } from "../../../lib/charts/render.ts";
import { chartFontFiles } from "../../../lib/read/chart_fonts.ts";
import { groupedBarChart } from "../../../lib/charts/specs.ts";
import { CHART_FONT } from "../../../lib/charts/theme.ts";
import { readChartFonts } from "../../../lib/read/chart_fonts.ts";

const textSvg = (family: string, text = "Loss 10,042") =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40"><text x="8" y="26" font-family="${family}" font-size="16">${text}</text></svg>`;
const blankSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40"></svg>';

Deno.test("rendering the same spec twice gives identical SVG and PNG bytes", async () => {
  const spec = groupedBarChart(
    [{ s: "HIGH", m: "A", v: 10 }, { s: "HIGH", m: "B", v: 2.5 }],
    { x: "s", group: "m", y: "v", title: "Errors" },
  );
  const [a, b] = [
    await renderSvg(spec, readChartFonts()),
    await renderSvg(spec, readChartFonts()),
  ];
  assert.equal(a, b);
  assert.deepEqual(
    await renderPng(a, readChartFonts()),
    await renderPng(b, readChartFonts()),
  );
});

Deno.test("text is drawn: the PNG of a text-only SVG differs from the blank one", async () => {
  const blank = await renderPng(blankSvg, readChartFonts());
  assert.notDeepEqual(
    await renderPng(textSvg(CHART_FONT), readChartFonts()),
    blank,
  );
});

Deno.test("text in a family the machine may lack is drawn in the pinned font, byte for byte", async () => {
  const pinned = await renderPng(textSvg(CHART_FONT), readChartFonts());
  assert.deepEqual(
    await renderPng(textSvg("No Such Font Family"), readChartFonts()),
    pinned,
  );
  assert.deepEqual(
    await renderPng(textSvg("sans-serif"), readChartFonts()),
    pinned,
  );
  assert.notDeepEqual(
    await renderPng(textSvg(CHART_FONT, "other"), readChartFonts()),
    pinned,
  );
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
  const svg = await renderSvg(
    groupedBarChart(
      [{ s: "HIGH", m: "A", v: 1 }],
      { x: "s", group: "m", y: "v", title: "t" },
    ),
    readChartFonts(),
  );
  assert.match(svg, /font-family="DejaVu Sans"/);
  assert.doesNotMatch(svg, /font-family="sans-serif"/);
});
