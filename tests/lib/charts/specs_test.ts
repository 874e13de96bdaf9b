import assert from "node:assert/strict";
import { groupedBarChart, renderSvg } from "../../../lib/charts/mod.ts";
import { readChartFonts } from "../../../lib/read/chart_fonts.ts";

Deno.test("groupedBarChart() labels a null value n/a instead of dropping it or drawing 0", async () => {
  for (const yScale of ["linear", "log"] as const) {
    const svg = await renderSvg(
      groupedBarChart(
        [{ g: "a", m: "x", v: 5 }, { g: "a", m: "y", v: null }, {
          g: "b",
          m: "x",
          v: 0.5,
        }],
        { x: "g", group: "m", y: "v", title: "t", yScale },
      ),
      readChartFonts(),
    );
    assert.equal((svg.match(/>n\/a</g) ?? []).length, 1, yScale);
  }
});
