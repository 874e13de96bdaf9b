import assert from "node:assert/strict";
import { heatmapChart, renderSvg } from "../../../lib/charts/mod.ts";
import { readChartFonts } from "../../../lib/read/chart_fonts.ts";

Deno.test("heatmapChart() orders both axes as given, the y axis bottom to top", async () => {
  const values = ["1", "10", "100"].flatMap((x) =>
    ["1", "10"].map((y) => ({ x, y, winner: Number(x) > 5 ? "B" : "A" }))
  );
  const spec = heatmapChart(values, {
    x: "x",
    y: "y",
    color: "winner",
    title: "regions",
    xOrder: ["1", "10", "100"],
    yOrder: ["1", "10"],
  });
  const enc = spec.encoding as Record<string, { sort?: unknown }>;
  assert.deepEqual(enc.x.sort, ["1", "10", "100"]);
  assert.deepEqual(enc.y.sort, ["10", "1"]);
  const svg = await renderSvg(spec, readChartFonts());
  assert.match(svg, />regions</);
  // one cell per (x, y)
  assert.equal(
    (svg.match(/aria-roledescription="rect mark"/g) ?? []).length,
    6,
  );
});
