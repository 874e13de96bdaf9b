/**
 * A score document as people read it: one row per model and profile, with
 * the model's decisions and accuracy, the profile's loss and its interval.
 * The notebook display shows these rows as a table and as a chart of loss
 * per model under each profile. Pure: no I/O, no table library.
 *
 * @module
 */

import type { VegaLiteSpec } from "../claims/analysis_result.ts";
import { lossIntervalChart } from "../charts/loss_interval_chart.ts";
import { formatLevel } from "../format/numbers.ts";
import { formatCell } from "./html.ts";
import type { NullReason } from "./null_reasons.ts";

/** An interval's bounds; `null` where the interval is not defined. */
export interface ScoreViewBounds {
  /** Lower bound. */
  readonly lo: number | null;
  /** Upper bound. */
  readonly hi: number | null;
}

/** What the view reads of one model's entry in a score document. */
export interface ScoreViewModel {
  /** Model id. */
  readonly modelId: string;
  /** Decisions scored. */
  readonly n: number;
  /** Accuracy; `null` when no decision was scored. */
  readonly accuracy: number | null;
  /** Realised loss per profile id; `null` when no decision was scored. */
  readonly loss: Readonly<Record<string, number | null>>;
  /** The intervals of accuracy and of loss per profile id. */
  readonly intervals: {
    readonly accuracy: ScoreViewBounds | null;
    readonly loss: Readonly<Record<string, ScoreViewBounds>>;
  };
}

/**
 * What the view reads of a score document: the document that `score()`
 * returns and `lossbook score --json` prints has these keys, among others.
 */
export interface ScoreView {
  /** Confidence level of every interval, for example 0.95. */
  readonly level: number;
  /** The profiles priced, in order. */
  readonly profiles: readonly {
    readonly id: string;
    readonly unit: string | null;
  }[];
  /** One entry per model. */
  readonly models: readonly ScoreViewModel[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isNumberOrNull(value: unknown): boolean {
  return value === null || typeof value === "number";
}

/**
 * Whether a value has the shape of a score document: a numeric `level`,
 * `profiles` with string ids, and `models` whose entries each have a
 * `modelId`, `n`, `accuracy`, a loss and an interval for every profile.
 * A document parsed from `lossbook score --json` is recognised as well as
 * one that `score()` returns.
 *
 * @param value Any value.
 * @returns `true` when the view can show it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isScoreView } from "./score_view.ts";
 *
 * const doc = {
 *   level: 0.95,
 *   profiles: [{ id: "flat", unit: "error units" }, { id: "reconciliation", unit: "analyst review units" }],
 *   models: [{
 *     modelId: "A", n: 800, accuracy: 0.98,
 *     loss: { flat: 16, reconciliation: 104.4 },
 *     intervals: {
 *       accuracy: { lo: 0.9678, hi: 0.9877 },
 *       loss: { flat: { lo: 9.145, hi: 25.98 }, reconciliation: { lo: 51.83, hi: 188.1 } },
 *     },
 *   }],
 * };
 * assert.equal(isScoreView(doc), true);
 * assert.equal(isScoreView({ models: [] }), false);
 * ```
 */
export function isScoreView(value: unknown): value is ScoreView {
  if (!isRecord(value) || typeof value.level !== "number") return false;
  const { profiles, models } = value;
  if (!Array.isArray(profiles) || !Array.isArray(models)) return false;
  if (!profiles.every((p) => isRecord(p) && typeof p.id === "string")) {
    return false;
  }
  const ids = profiles.map((p) => p.id as string);
  return models.every((m) =>
    isRecord(m) && typeof m.modelId === "string" && typeof m.n === "number" &&
    isNumberOrNull(m.accuracy) && isRecord(m.loss) &&
    isRecord(m.intervals) && isRecord(m.intervals.loss) &&
    ids.every((id) =>
      isNumberOrNull((m.loss as Record<string, unknown>)[id]) &&
      isRecord((m.intervals as { loss: Record<string, unknown> }).loss[id])
    )
  );
}

/** One model under one profile: a row of {@linkcode scoreRows}. */
export interface ScoreRow {
  /** Model id. */
  readonly model: string;
  /** Decisions scored. */
  readonly n: number;
  /** Accuracy; `null` when no decision was scored. */
  readonly accuracy: number | null;
  /** Accuracy interval's lower bound. */
  readonly accuracyLo: number | null;
  /** Accuracy interval's upper bound. */
  readonly accuracyHi: number | null;
  /** Profile id. */
  readonly profile: string;
  /** The profile's unit of loss; `null` when it names none. */
  readonly unit: string | null;
  /** Realised loss under the profile, in its unit. */
  readonly loss: number | null;
  /** Loss interval's lower bound. */
  readonly lossLo: number | null;
  /** Loss interval's upper bound. */
  readonly lossHi: number | null;
}

/**
 * The rows of a score document: one per model and profile, models in the
 * document's order and, within a model, profiles in theirs. Every number is
 * the document's own, null where the document's is.
 *
 * @param doc A score document.
 * @returns `models × profiles` rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreRows } from "./score_view.ts";
 *
 * const doc = {
 *   level: 0.95,
 *   profiles: [{ id: "flat", unit: "error units" }, { id: "reconciliation", unit: "analyst review units" }],
 *   models: [{
 *     modelId: "A", n: 800, accuracy: 0.98,
 *     loss: { flat: 16, reconciliation: 104.4 },
 *     intervals: {
 *       accuracy: { lo: 0.9678, hi: 0.9877 },
 *       loss: { flat: { lo: 9.145, hi: 25.98 }, reconciliation: { lo: 51.83, hi: 188.1 } },
 *     },
 *   }],
 * };
 * const rows = scoreRows(doc);
 * assert.equal(rows.length, 1 * 2);
 * // third-number: divergence table: Model A loss under reconciliation = 104.4
 * assert.equal(rows.find((r) => r.model === "A" && r.profile === "reconciliation")?.loss, 104.4);
 * ```
 */
export function scoreRows(doc: ScoreView): ScoreRow[] {
  return doc.models.flatMap((m) =>
    doc.profiles.map((p) => {
      const ci = m.intervals.loss[p.id];
      return {
        model: m.modelId,
        n: m.n,
        accuracy: m.accuracy,
        accuracyLo: m.intervals.accuracy?.lo ?? null,
        accuracyHi: m.intervals.accuracy?.hi ?? null,
        profile: p.id,
        unit: p.unit ?? null,
        loss: m.loss[p.id] ?? null,
        lossLo: ci?.lo ?? null,
        lossHi: ci?.hi ?? null,
      };
    })
  );
}

/** A table of a score document, ready for `tableHtml`. */
export interface ScoreTable {
  /** Column names, in order. */
  readonly columns: readonly string[];
  /** One row per model and profile. */
  readonly rows: readonly Record<string, unknown>[];
  /** Why an empty cell of these rows is empty. */
  readonly nullReason: (
    column: string,
    row: Readonly<Record<string, unknown>>,
  ) => NullReason | undefined;
  /** A caption: what the intervals are. */
  readonly caption: string;
}

const NO_DECISIONS: NullReason = {
  label: "n/a",
  why: "no decisions scored for this model, so there is nothing to count",
};

const NO_UNIT: NullReason = {
  label: "n/a",
  why: "the profile names no unit",
};

function bounds(lo: number | null, hi: number | null): string | null {
  return lo === null || hi === null
    ? null
    : `[${formatCell(lo)}, ${formatCell(hi)}]`;
}

/**
 * The table of a score document: model, decisions, accuracy and its
 * interval, then each profile's loss, its interval and its unit, one row per
 * model and profile ({@linkcode scoreRows}). An interval is a text cell
 * `[lo, hi]`; a null value stays null, for the table to mark "n/a" (no
 * decisions scored) or "unknown", never 0.
 *
 * @param doc A score document.
 * @returns Columns, rows, the reasons of null cells and a caption.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreTable } from "./score_view.ts";
 * import { tableHtml } from "./html.ts";
 *
 * const doc = {
 *   level: 0.95,
 *   profiles: [{ id: "flat", unit: "error units" }, { id: "reconciliation", unit: "analyst review units" }],
 *   models: [{
 *     modelId: "A", n: 800, accuracy: 0.98,
 *     loss: { flat: 16, reconciliation: 104.4 },
 *     intervals: {
 *       accuracy: { lo: 0.9678, hi: 0.9877 },
 *       loss: { flat: { lo: 9.145, hi: 25.98 }, reconciliation: { lo: 51.83, hi: 188.1 } },
 *     },
 *   }],
 * };
 * const table = scoreTable(doc);
 * assert.deepEqual(table.columns.slice(0, 3), ["model", "n", "accuracy"]);
 * assert.match(tableHtml(table.columns, table.rows, table), /<td class="num">104.4<\/td>/);
 * ```
 */
export function scoreTable(doc: ScoreView): ScoreTable {
  const level = formatLevel(doc.level);
  const accuracyCi = `accuracy ${level} CI`;
  const lossCi = `loss ${level} CI`;
  return {
    columns: [
      "model",
      "n",
      "accuracy",
      accuracyCi,
      "profile",
      "loss",
      lossCi,
      "unit",
    ],
    rows: scoreRows(doc).map((r) => ({
      model: r.model,
      n: r.n,
      accuracy: r.accuracy,
      [accuracyCi]: bounds(r.accuracyLo, r.accuracyHi),
      profile: r.profile,
      loss: r.loss,
      [lossCi]: bounds(r.lossLo, r.lossHi),
      unit: r.unit,
    })),
    nullReason: (column, row) =>
      column === "unit" ? NO_UNIT : row.n === 0 ? NO_DECISIONS : undefined,
    caption: lossTitle(doc),
  };
}

/** What the table and the chart of a score document show, in words. */
function lossTitle(doc: ScoreView): string {
  return `Loss per model under each profile, in its unit, with ${
    formatLevel(doc.level)
  } intervals`;
}

/**
 * The chart of a score document: loss per model under each profile, with
 * its interval, one panel per profile ({@linkcode lossIntervalChart}).
 *
 * @param doc A score document.
 * @returns A Vega-Lite spec with inline data.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreChart } from "./score_view.ts";
 *
 * const doc = {
 *   level: 0.95,
 *   profiles: [{ id: "flat", unit: "error units" }, { id: "reconciliation", unit: "analyst review units" }],
 *   models: [{
 *     modelId: "A", n: 800, accuracy: 0.98,
 *     loss: { flat: 16, reconciliation: 104.4 },
 *     intervals: {
 *       accuracy: { lo: 0.9678, hi: 0.9877 },
 *       loss: { flat: { lo: 9.145, hi: 25.98 }, reconciliation: { lo: 51.83, hi: 188.1 } },
 *     },
 *   }],
 * };
 * const spec = scoreChart(doc);
 * assert.equal((spec.data as { values: unknown[] }).values.length, 1 * 2);
 * ```
 */
export function scoreChart(doc: ScoreView): VegaLiteSpec {
  return lossIntervalChart(scoreRows(doc), { title: lossTitle(doc) });
}
