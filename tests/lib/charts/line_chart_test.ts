import assert from "node:assert/strict";
import {
  lineChart,
  renderSvg,
  VEGA_LITE_SCHEMA,
} from "../../../lib/charts/mod.ts";
import { readChartFonts } from "../../../lib/read/chart_fonts.ts";

Deno.test("lineChart() draws one line per group on log axes and labels every marker", async () => {
  const values = [1, 10, 100, 1000].flatMap((r) => [
    { r, model: "A", loss: 20 + 400 * r },
    { r, model: "B", loss: 600 + 300 * r },
  ]);
  const spec = lineChart(values, {
    x: "r",
    y: "loss",
    group: "model",
    title: "t",
    xScale: "log",
    yScale: "log",
    markers: [{ x: 5.8, label: "cross at 5.8" }, { x: 300, label: "second" }],
  });
  assert.equal(spec.$schema, VEGA_LITE_SCHEMA);
  const svg = await renderSvg(spec, readChartFonts());
  assert.match(svg, />cross at 5\.8</);
  assert.match(svg, />second</);
  // two series lines plus two dashed marker rules
  assert.equal((svg.match(/stroke-dasharray="4,3"/g) ?? []).length, 2);
});

Deno.test("lineChart() keeps a null value as a gap and honours a fixed y domain", async () => {
  const spec = lineChart(
    [{ x: 1, tau: 1 }, { x: 2, tau: null }, { x: 3, tau: -0.5 }],
    { x: "x", y: "tau", title: "tau", yDomain: [-1, 1], points: true },
  );
  const layer = (spec.layer as { encoding: { y: { scale: unknown } } }[])[0];
  assert.deepEqual(layer.encoding.y.scale, { domain: [-1, 1] });
  assert.deepEqual((spec.data as { values: unknown[] }).values[1], {
    x: 2,
    tau: null,
  });
  const svg = await renderSvg(spec, readChartFonts());
  assert.match(svg, /values from −1\.0 to 1\.0/);
});
