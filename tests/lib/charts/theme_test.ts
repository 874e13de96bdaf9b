import assert from "node:assert/strict";
import { groupedBarChart } from "../../../lib/charts/specs.ts";
import { lineChart } from "../../../lib/charts/line_chart.ts";
import { heatmapChart } from "../../../lib/charts/heatmap_chart.ts";
import { reliabilityDiagramChart } from "../../../lib/charts/reliability_diagram.ts";
import { riskCoverageChart } from "../../../lib/charts/risk_coverage_curve.ts";
import { costThresholdChart } from "../../../lib/charts/cost_threshold_curve.ts";
import { renderSvg } from "../../../lib/charts/render.ts";
import {
  CHART_FONT,
  CHART_PALETTE,
  colorScale,
  MODEL_COLORS,
  modelColor,
  modelColorScale,
  withTheme,
} from "../../../lib/charts/theme.ts";
import { readChartFonts } from "../../../lib/read/chart_fonts.ts";

type Scale = { domain: string[]; range: string[] };
const colorOf = (spec: Record<string, unknown>): Map<string, string> => {
  const out = new Map<string, string>();
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (typeof v !== "object" || v === null) return;
    const o = v as Record<string, unknown>;
    const c = o.color as { scale?: Scale } | undefined;
    if (c?.scale?.domain && c.scale.range) {
      c.scale.domain.forEach((d, i) => out.set(d, c.scale!.range[i]));
    }
    Object.values(o).forEach(walk);
  };
  walk(spec);
  return out;
};

Deno.test("a model keeps its colour in every chart kind, whatever the other series", () => {
  const ids = ["frontier_even", "small_severity_shaped", "always_escalate"];
  const rows = ids.map((m, i) => ({ x: i + 1, y: i + 1, m, k: "a" }));
  const specs = [
    groupedBarChart(rows, {
      x: "k",
      group: "m",
      y: "y",
      title: "t",
      colorBy: "model",
    }),
    lineChart(rows.slice(0, 2), {
      x: "x",
      y: "y",
      group: "m",
      title: "t",
      colorBy: "model",
    }),
    heatmapChart(rows.slice(1), {
      x: "x",
      y: "k",
      color: "m",
      title: "t",
      colorBy: "model",
    }),
    reliabilityDiagramChart(
      rows.map((r) => ({
        series: r.m,
        lo: 0,
        hi: 1,
        n: 3,
        meanConfidence: 0.5,
        accuracy: 0.5,
      })),
      { title: "t", colorBy: "model" },
    ),
    riskCoverageChart(
      rows.map((r) => ({ series: r.m, coverage: 0.5, cost: 1 })),
      {
        title: "t",
        colorBy: "model",
      },
    ),
    costThresholdChart(rows, {
      x: "x",
      y: "y",
      series: "m",
      title: "t",
      colorBy: "model",
    }),
  ];
  for (const spec of specs) {
    for (const [id, colour] of colorOf(spec)) {
      assert.equal(colour, modelColor(id), id);
    }
  }
  assert.equal(modelColor("frontier_even"), MODEL_COLORS.frontier_even);
});

Deno.test("pinned model colours are distinct within each analysis' set of models", () => {
  for (
    const set of [
      [
        "frontier_even",
        "small_severity_shaped",
        "constant_confidence",
        "always_escalate",
      ],
      ["calibrated", "constant", "over_confident", "under_confident"],
      ["Model A (even errors)", "Model B (severity-shaped)"],
    ]
  ) {
    assert.equal(new Set(set.map(modelColor)).size, set.length, set.join(", "));
  }
});

Deno.test("unpinned model ids take a hashed palette colour, moved on only to avoid a clash in one chart", () => {
  const ids = Array.from({ length: 10 }, (_, i) => `model-${i}`);
  const scale = modelColorScale(ids);
  assert.equal(new Set(scale.range).size, 10);
  for (const c of scale.range) assert.ok(CHART_PALETTE.includes(c));
  assert.equal(modelColorScale(["model-3"]).range[0], modelColor("model-3"));
  // a pinned id never moves, even when an unpinned one hashes onto its colour
  const clash = ids.find((id) =>
    modelColor(id) === MODEL_COLORS.frontier_even
  )!;
  const s = modelColorScale([clash, "frontier_even"]);
  assert.equal(s.range[1], MODEL_COLORS.frontier_even);
  assert.notEqual(s.range[0], s.range[1]);
});

Deno.test("category colours follow the given order; null series are left out", () => {
  assert.deepEqual(colorScale(["b", null, "a"]), {
    domain: ["a", "b"],
    range: CHART_PALETTE.slice(0, 2),
  });
  assert.deepEqual(colorScale(["b", "a"], "category", ["b"]).domain, [
    "b",
    "a",
  ]);
});

Deno.test("every chart kind carries the theme config with the pinned font", () => {
  const spec = lineChart([{ x: 1, y: 2 }], { x: "x", y: "y", title: "t" });
  assert.equal((spec.config as { font: string }).font, CHART_FONT);
  assert.equal(
    (withTheme({ config: { font: "Other" } }).config as { font: string }).font,
    "Other",
  );
});

Deno.test("counts get integer ticks only", async () => {
  const spec = groupedBarChart(
    [{ s: "a", m: "A", n: 3 }, { s: "b", m: "A", n: 1 }],
    { x: "s", group: "m", y: "n", title: "t", yCounts: true },
  );
  const svg = await renderSvg(spec, readChartFonts());
  const ticks = [...svg.matchAll(/>(\d+(?:\.\d+)?)<\/text>/g)].map((m) => m[1]);
  assert.ok(ticks.includes("2"));
  assert.ok(ticks.every((t) => !t.includes(".")), ticks.join(" "));
});

Deno.test("value labels turn upright when they are wider than their bar", () => {
  const rows = Array.from(
    { length: 12 },
    (_, i) => ({ x: `b${i}`, m: "A", v: 0.000123 * (i + 1) }),
  );
  const narrow = groupedBarChart(
    [
      ...rows,
      ...rows.map((r) => ({ ...r, m: "B" })),
      ...rows.map((r) => ({ ...r, m: "C" })),
    ],
    { x: "x", group: "m", y: "v", title: "t" },
  );
  const mark = (spec: Record<string, unknown>) =>
    ((spec.layer as Record<string, unknown>[])[1].mark as { angle?: number })
      .angle;
  assert.equal(mark(narrow), 270);
  const wide = groupedBarChart([{ x: "a", m: "A", v: 1 }], {
    x: "x",
    group: "m",
    y: "v",
    title: "t",
  });
  assert.equal(mark(wide), undefined);
});

Deno.test("reliability diagrams facet the bin counts, one histogram per series", () => {
  const spec = reliabilityDiagramChart([
    { series: "a", lo: 0, hi: 0.5, n: 4, meanConfidence: 0.3, accuracy: 0.2 },
    { series: "b", lo: 0.5, hi: 1, n: 6, meanConfidence: 0.8, accuracy: 0.9 },
  ], { title: "t" });
  const counts = (spec.vconcat as Record<string, unknown>[])[1];
  assert.deepEqual(
    (counts.facet as { row: { field: string } }).row.field,
    "series",
  );
});

Deno.test("a series with exactly another's points is drawn dashed, so neither hides the other", () => {
  const rows = [1, 2, 3].flatMap((x) => [
    { x, y: x / 10, s: "a" },
    { x, y: x / 10, s: "b" },
    { x, y: 1 - x / 10, s: "c" },
  ]);
  const spec = lineChart(rows, { x: "x", y: "y", group: "s", title: "t" });
  const enc =
    (spec.layer as { encoding: Record<string, unknown> }[])[0].encoding;
  const dash = enc.strokeDash as {
    scale: { domain: string[]; range: number[][] };
  };
  assert.deepEqual(dash.scale.domain, ["a", "b", "c"]);
  assert.deepEqual(dash.scale.range[0], [1, 0]);
  assert.notDeepEqual(dash.scale.range[1], [1, 0]);
  assert.deepEqual(dash.scale.range[2], [1, 0]);
  const apart = lineChart(rows.filter((r) => r.s !== "b"), {
    x: "x",
    y: "y",
    group: "s",
    title: "t",
  });
  assert.equal(
    (apart.layer as { encoding: Record<string, unknown> }[])[0].encoding
      .strokeDash,
    undefined,
  );
});

Deno.test("a chart with dashed coinciding series still has a legend naming every series", async () => {
  const rows = [1, 2, 3].flatMap((x) => [
    { x, y: x / 10, s: "series alpha" },
    { x, y: x / 10, s: "series beta" },
    { x, y: 1 - x / 10, s: "series gamma" },
  ]);
  const svg = await renderSvg(
    lineChart(rows, { x: "x", y: "y", group: "s", title: "t" }),
    readChartFonts(),
  );
  for (const name of ["series alpha", "series beta", "series gamma"]) {
    assert.match(svg, new RegExp(`>${name}<`), `legend lacks ${name}`);
  }
});
