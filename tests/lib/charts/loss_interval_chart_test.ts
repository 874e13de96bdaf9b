import assert from "node:assert/strict";
import { lossIntervalChart, renderSvg } from "../../../lib/charts/mod.ts";
import { readChartFonts } from "../../../lib/read/chart_fonts.ts";

Deno.test("lossIntervalChart() gives each profile its own panel and axis, and labels a null loss n/a, not 0", async () => {
  const spec = lossIntervalChart([
    {
      model: "A",
      profile: "flat",
      unit: "error units",
      loss: 16,
      lossLo: 9,
      lossHi: 26,
    },
    {
      model: "B",
      profile: "flat",
      unit: "error units",
      loss: null,
      lossLo: null,
      lossHi: null,
    },
    {
      model: "A",
      profile: "principal_risk",
      unit: null,
      loss: 10_042,
      lossLo: 4_833,
      lossHi: 18_429,
    },
    {
      model: "B",
      profile: "principal_risk",
      unit: null,
      loss: 2_420,
      lossLo: 485,
      lossHi: 7_560,
    },
  ], { title: "Loss" });
  assert.deepEqual(spec.resolve, { scale: { y: "independent" } });
  const svg = await renderSvg(spec, readChartFonts());
  assert.match(svg, />flat \(error units\)</);
  assert.match(svg, />principal_risk</);
  assert.equal((svg.match(/>n\/a</g) ?? []).length, 1);
  // every label in full: six significant digits
  assert.match(svg, />10,042</);
});
