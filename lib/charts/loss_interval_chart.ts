/**
 * A chart of loss per model under each cost profile, with its interval: one
 * panel per profile, each on its own axis in its own unit.
 *
 * @module
 */

import type { VegaLiteSpec } from "../claims/analysis_result.ts";
import { VEGA_LITE_SCHEMA } from "./specs.ts";
import { colorScale, withTheme } from "./theme.ts";

/** One model's loss under one profile, with its interval. */
export interface LossIntervalPoint {
  /** Model id. */
  readonly model: string;
  /** Profile id. */
  readonly profile: string;
  /** The profile's unit of loss; `null` when it names none. */
  readonly unit: string | null;
  /** Loss; `null` draws no bar and reads "n/a". */
  readonly loss: number | null;
  /** Interval's lower bound; `null` (with `lossHi`) draws no interval. */
  readonly lossLo: number | null;
  /** Interval's upper bound. */
  readonly lossHi: number | null;
}

/** Options for {@linkcode lossIntervalChart}. */
export interface LossIntervalChartOptions {
  /** Chart title. */
  title: string;
  /** Width of each panel in pixels; widened to at least 40 px per model. Default: 150. */
  width?: number;
  /** Height of each panel in pixels. Default: 220. */
  height?: number;
}

/**
 * Loss per model under each profile, as bars with interval whiskers.
 *
 * Profiles price loss in different units and at very different scales (one
 * error unit, a principal at risk), so each profile gets its own panel, its
 * unit in the panel's header and its own y axis; within a panel the models
 * share the axis and keep their pinned colours. A whisker spans the
 * interval; each bar is labelled with its loss above the whisker. A `null`
 * loss draws no bar and is labelled "n/a" at the baseline, never drawn as 0.
 *
 * @param points One point per model and profile.
 * @param options Title and panel size.
 * @returns A Vega-Lite spec with inline data (faceted by profile).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lossIntervalChart } from "./loss_interval_chart.ts";
 * import { renderSvg } from "./render.ts";
 * import { readChartFonts } from "../read/chart_fonts.ts";
 *
 * const spec = lossIntervalChart([
 *   { model: "A", profile: "flat", unit: "error units", loss: 16, lossLo: 9.1, lossHi: 26 },
 *   { model: "B", profile: "flat", unit: "error units", loss: null, lossLo: null, lossHi: null },
 * ], { title: "Loss" });
 * const svg = await renderSvg(spec, readChartFonts());
 * assert.match(svg, /flat \(error units\)/);
 * assert.match(svg, />n\/a</);
 * ```
 */
export function lossIntervalChart(
  points: readonly LossIntervalPoint[],
  options: LossIntervalChartOptions,
): VegaLiteSpec {
  const models = [...new Set(points.map((p) => p.model))];
  const panels = [...new Set(points.map(panelOf))];
  const width = Math.max(options.width ?? 150, 40 * models.length);
  const x = {
    field: "model",
    type: "nominal",
    title: null,
    sort: models,
    axis: models.some((m) => m.length > 6)
      ? { labelAngle: -40, labelAlign: "right" }
      : { labelAngle: 0 },
  };
  const y = { type: "quantitative", title: "loss", scale: { zero: true } };
  // Each panel's top whisker or bar, raised by a margin for the label above
  // it: an invisible mark there makes the panel's own axis reach it.
  const tops = new Map<string, number>();
  for (const p of points) {
    const top = p.lossHi ?? p.loss ?? 0;
    tops.set(p.profile, Math.max(tops.get(p.profile) ?? 0, top));
  }
  return withTheme({
    $schema: VEGA_LITE_SCHEMA,
    title: options.title,
    data: {
      values: points.map((p) => ({
        model: p.model,
        profile: p.profile,
        unit: p.unit,
        loss: p.loss,
        lossLo: p.lossLo,
        lossHi: p.lossHi,
        panel: panelOf(p),
        _top: (tops.get(p.profile) ?? 0) * 1.12,
      })),
    },
    transform: [{
      calculate: "datum.loss == null ? 'n/a' : format(datum.loss, ',.6~r')",
      as: "_label",
    }, {
      calculate:
        "datum.lossHi != null ? datum.lossHi : datum.loss != null ? datum.loss : 0",
      as: "_labelY",
    }],
    facet: {
      column: {
        field: "panel",
        type: "nominal",
        title: null,
        sort: panels,
        header: { labelFontWeight: "bold" },
      },
    },
    spacing: 16,
    resolve: { scale: { y: "independent" } },
    spec: {
      width,
      height: options.height ?? 220,
      encoding: { x },
      layer: [
        {
          mark: { type: "bar", width: { band: 0.7 } },
          encoding: {
            y: { ...y, field: "loss" },
            color: {
              field: "model",
              type: "nominal",
              legend: null,
              scale: colorScale(models, "model", models),
            },
            tooltip: [
              { field: "model", type: "nominal" },
              { field: "profile", type: "nominal" },
              { field: "_label", type: "nominal", title: "loss" },
              {
                field: "lossLo",
                type: "quantitative",
                title: "interval low",
                format: ",.6~r",
              },
              {
                field: "lossHi",
                type: "quantitative",
                title: "interval high",
                format: ",.6~r",
              },
            ],
          },
        },
        {
          mark: { type: "rule", color: "#333", strokeWidth: 1.5 },
          encoding: {
            y: { ...y, field: "lossLo" },
            y2: { field: "lossHi" },
          },
        },
        {
          mark: { type: "point", opacity: 0 },
          encoding: { y: { ...y, field: "_top" } },
        },
        {
          mark: { type: "text", dy: -6, fontSize: 10 },
          encoding: {
            y: { ...y, field: "_labelY" },
            text: { field: "_label", type: "nominal" },
          },
        },
      ],
    },
  });
}

/** A panel's header: the profile and its unit. */
function panelOf(p: LossIntervalPoint): string {
  return p.unit === null ? p.profile : `${p.profile} (${p.unit})`;
}
