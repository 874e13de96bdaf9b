/**
 * Errors flat, cost rising: drift on the loss distribution that an
 * accuracy monitor cannot see.
 *
 * "The platforms went to sleep on accuracy drift; the whole category of
 * consequence-weighted drift — errors flat, cost rising — is unmonitored
 * everywhere" (`third-number`). This analysis records two simulated
 * months of a reconciliation desk into ledgers. In both, the model's error
 * rate stays at 3.0% of decisions all month, but halfway through its errors
 * move from an even spread onto HIGH-severity exceptions. In the first
 * month the model stays calibrated; in the second its stated confidence goes
 * stale (over-confident) at the same moment. Each ledger is split at
 * mid-month and compared: the error rate, the realised loss per decision,
 * the expected-loss distribution (PSI, KS), and calibration over rolling
 * windows with a recalibration fitted on the window before.
 *
 * @module
 */

import * as aq from "arquero";
import { lineChart } from "../lib/charts/line_chart.ts";
import { groupedBarChart } from "../lib/charts/specs.ts";
import type { AnalysisResult } from "../lib/claims/analysis_result.ts";
import { type Claim, claimClose, claimEqual } from "../lib/claims/claim.ts";
import { getProfile } from "../lib/costs/load.ts";
import type { CostProfile } from "../lib/costs/profile.ts";
import { ledgerText } from "../lib/ledger/chain.ts";
import { ledgerColumns } from "../lib/ledger/columns.ts";
import { ledgerDrift, lossByDay } from "../lib/ledger/drift.ts";
import { profileRef, thresholdPolicy } from "../lib/ledger/policy.ts";
import {
  type SimulatedMonth,
  simulateLedgerMonth,
} from "../lib/ledger/simulate_month.ts";
import type { SimulatedModel } from "../lib/tasks/simulate.ts";

const SOURCE = 'third-number: "errors flat, cost rising"';

/** Share of cases per gold severity (clean cases are LOW). */
export const DRIFT_MIX: Readonly<
  Record<"clean" | "LOW" | "MEDIUM" | "HIGH", number>
> = Object.freeze({
  clean: 0.6,
  LOW: 0.15,
  MEDIUM: 0.15,
  HIGH: 0.1,
});

/** The desk model before the drift: 6% errors on every exception severity, 1% on clean items, calibrated. */
export const DRIFT_MODEL_BEFORE: SimulatedModel = Object.freeze<SimulatedModel>(
  {
    id: "desk_model",
    label: "errors spread evenly: 6% on LOW, MEDIUM and HIGH",
    errorRate: { LOW: 0.06, MEDIUM: 0.06, HIGH: 0.06, clean: 0.01 },
    missShare: 0.7,
    confidence: { kind: "calibrated" },
    usdPerDecision: 0.002,
  },
);

/**
 * After the drift: the same 3.0% of all decisions wrong (0.15·2% + 0.15·4% +
 * 0.1·15% + 0.6·1% = 0.15·6% + 0.15·6% + 0.1·6% + 0.6·1%), but HIGH's share
 * of the errors goes from 20% to 50%.
 */
export const DRIFT_MODEL_AFTER: SimulatedModel = Object.freeze<SimulatedModel>({
  ...DRIFT_MODEL_BEFORE,
  label: "errors moved to HIGH: 2% LOW, 4% MEDIUM, 15% HIGH",
  errorRate: { LOW: 0.02, MEDIUM: 0.04, HIGH: 0.15, clean: 0.01 },
});

/** After the drift, with confidence gone stale: stated P(error) is the true one cubed. */
export const DRIFT_MODEL_STALE: SimulatedModel = Object.freeze<SimulatedModel>({
  ...DRIFT_MODEL_AFTER,
  label: "errors moved to HIGH, confidence stale (over-confident)",
  confidence: { kind: "overconfident", strength: 3 },
});

/** The error rate both halves are built to have: 3.0% of decisions. */
export const DESIGNED_ERROR_RATE = 0.03;

/** Options for {@linkcode drift} and {@linkcode driftMonth}. */
export interface DriftOptions {
  /** Seed. Default: 1. */
  seed?: number;
  /** Days. Default: 30. */
  days?: number;
  /** Cases per day. Default: 800. */
  casesPerDay?: number;
  /** First day (from 0) after the drift; the split. Default: 15. */
  splitDay?: number;
  /** Profile. Default: `reconciliation`. */
  profile?: CostProfile;
  /** Significance level of the tests. Default: 0.01. */
  alpha?: number;
  /** Calibration alert bound on the ECE. Default: 0.02. */
  bound?: number;
  /** Decisions per calibration window. Default: 2,000. */
  window?: number;
}

/**
 * One of the two months: `"calibrated"` (the model's risk follows the
 * drift) or `"stale"` (its confidence does not).
 *
 * @param kind Which month.
 * @param options Seed, size, split and profile.
 * @returns The month's records, in time order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { driftMonth } from "./drift.ts";
 *
 * assert.equal(driftMonth("calibrated", { days: 2, casesPerDay: 10 }).decisions, 20);
 * ```
 */
export function driftMonth(
  kind: "calibrated" | "stale",
  options: DriftOptions = {},
): SimulatedMonth {
  const profile = options.profile ?? getProfile("reconciliation");
  const splitDay = options.splitDay ?? 15;
  const after = kind === "calibrated" ? DRIFT_MODEL_AFTER : DRIFT_MODEL_STALE;
  return simulateLedgerMonth({
    start: "2026-03-01",
    days: options.days ?? 30,
    casesPerDay: options.casesPerDay ?? 800,
    mix: DRIFT_MIX,
    served: (day) => (day < splitDay ? DRIFT_MODEL_BEFORE : after),
    policy: thresholdPolicy("recon-desk", 0.5, {
      slaHours: 24,
      profile: profileRef(profile),
    }),
    profile,
  }, { seed: options.seed ?? 1 });
}

const r6 = (x: number | null) => x === null ? null : Math.round(x * 1e6) / 1e6;

/**
 * Record both months, split them at mid-month, and compare the halves.
 *
 * @param options Seed, size, split, profile, significance and calibration bound.
 * @returns Tables `tests`, `windows`, `daily` and `calibration`, charts
 * `daily`, `calibration` and `expected_loss`, and claims: in both months the
 * error rate stays at the designed 3.0% and the accuracy test is silent,
 * while errors move onto HIGH, loss per decision rises and the detector
 * fires; KS sees the shift in the expected-loss distribution; calibration
 * raises no alert while the model is calibrated, and when its confidence
 * goes stale the alert fires in the first window after the split, not
 * before, and recalibrating on the previous window brings the error back
 * under the bound.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drift } from "./drift.ts";
 *
 * const result = drift({ days: 10, splitDay: 5, casesPerDay: 400, window: 1000 });
 * assert.ok(result.claims.length > 10);
 * ```
 */
export function drift(options: DriftOptions = {}): AnalysisResult {
  const profile = options.profile ?? getProfile("reconciliation");
  const alpha = options.alpha ?? 0.01;
  const bound = options.bound ?? 0.02;
  const window = options.window ?? 2000;
  const splitDay = options.splitDay ?? 15;
  const split = new Date(
    Date.parse("2026-03-01T00:00:00Z") + splitDay * 86_400_000,
  )
    .toISOString().replace(".000Z", "Z");
  const kinds = ["calibrated", "stale"] as const;
  const runs = kinds.map((kind) => {
    const month = driftMonth(kind, options);
    const cols = ledgerColumns(ledgerText(month.records).entries);
    const d = ledgerDrift(cols, {
      split,
      profile,
      alpha,
      calibration: { window, bound },
    });
    return { kind, month, cols, drift: d, days: lossByDay(cols, { profile }) };
  });
  const claims: Claim[] = [];
  const id = (s: string) => `drift.${s}`;
  const src = { kind: "property", source: SOURCE } as const;
  const derived = (how: string) =>
    ({ kind: "derived", how, source: SOURCE }) as const;
  for (const { kind, drift: d } of runs) {
    const t = d.detector;
    claims.push(
      claimClose(
        id(`${kind}.error_rate.before`),
        "Before the split the error rate is the designed 3.0%",
        DESIGNED_ERROR_RATE,
        t.errorRate.reference,
        { tolerance: 0.005, ...src },
      ),
      claimClose(
        id(`${kind}.error_rate.after`),
        "After the split it is still 3.0%",
        DESIGNED_ERROR_RATE,
        t.errorRate.current,
        { tolerance: 0.005, ...src },
      ),
      claimEqual(
        id(`${kind}.accuracy_drift_silent`),
        `The error-rate test stays silent (two-proportion z, alpha ${alpha})`,
        false,
        t.errorRate.drifted,
        src,
      ),
      claimClose(
        id(`${kind}.high_share.before`),
        "HIGH holds 20% of the errors before",
        0.2,
        d.reference.errorShare.HIGH,
        { tolerance: 0.05, ...src },
      ),
      claimClose(
        id(`${kind}.high_share.after`),
        "... and 50% after",
        0.5,
        d.current.errorShare.HIGH,
        { tolerance: 0.05, ...src },
      ),
      claimEqual(
        id(`${kind}.loss_rising`),
        `Loss per decision rises (Welch z, one-sided, alpha ${alpha})`,
        true,
        t.lossPerDecision.rising,
        src,
      ),
      claimEqual(
        id(`${kind}.detector_fires`),
        "The errors-flat-cost-rising detector fires",
        true,
        t.fired,
        src,
      ),
      claimEqual(
        id(`${kind}.expected_loss.ks`),
        `KS on the recorded expected loss sees the shift (p < ${alpha})`,
        true,
        d.expectedLoss.ks.pValue !== null && d.expectedLoss.ks.pValue < alpha,
        src,
      ),
    );
  }
  const [cal, stale] = runs.map((r) => r.drift);
  claims.push(claimEqual(
    id("calibrated.calibration_silent"),
    `A model whose risk follows the drift raises no calibration alert (ECE bound ${bound})`,
    0,
    cal.calibration.filter((w) => w.alert).length,
    src,
  ));
  const splitMs = Date.parse(split);
  const firstAfter = stale.calibration.findIndex((w) =>
    Date.parse(w.to) >= splitMs
  );
  const firstAlert = stale.calibration.findIndex((w) => w.alert);
  claims.push(
    claimEqual(
      id("stale.alert_first_window_after_split"),
      "When confidence goes stale, the first calibration alert is in the first window that reaches past the split",
      firstAfter,
      firstAlert,
      derived("the first window whose end reaches past the split"),
    ),
    claimEqual(
      id("stale.alert_every_window_after"),
      "... and every window after it alerts",
      stale.calibration.length - firstAlert,
      stale.calibration.slice(firstAlert).filter((w) => w.alert).length,
      derived("the number of windows from the first alert to the last"),
    ),
    claimEqual(
      id("stale.recalibrated_under_bound"),
      "Recalibrating each window on the one before brings the ECE back under the bound from the next window on",
      true,
      stale.calibration.slice(firstAlert + 1).every((w) =>
        w.eceRecalibrated !== null && w.eceRecalibrated <= bound
      ),
      src,
    ),
  );
  const meanEl = (r: (typeof runs)[number], after: boolean) => {
    const days = r.days.filter((d) =>
      (Date.parse(`${d.day}T00:00:00Z`) >= splitMs) === after
    );
    const n = days.reduce((a, d) => a + d.decisions, 0);
    return days.reduce(
      (a, d) => a + d.expectedLossPerDecision! * d.decisions,
      0,
    ) / n;
  };
  claims.push(claimEqual(
    id("stale.expected_loss_falls_while_loss_rises"),
    "With stale confidence the model's own expected loss falls while realised loss rises",
    true,
    meanEl(runs[1], true) < meanEl(runs[1], false) &&
      stale.detector.lossPerDecision.rising,
    src,
  ));

  const testRows = runs.map(({ kind, drift: d }) => ({
    month: kind,
    errorRateBefore: r6(d.detector.errorRate.reference),
    errorRateAfter: r6(d.detector.errorRate.current),
    errorRateZ: r6(d.detector.errorRate.z),
    errorRateP: r6(d.detector.errorRate.pValue),
    accuracyDrift: d.detector.errorRate.drifted,
    lossBefore: r6(d.detector.lossPerDecision.reference),
    lossAfter: r6(d.detector.lossPerDecision.current),
    lossRatio: r6(d.detector.lossPerDecision.ratio),
    lossZ: r6(d.detector.lossPerDecision.z),
    lossP: d.detector.lossPerDecision.pValue,
    lossRising: d.detector.lossPerDecision.rising,
    detectorFires: d.detector.fired,
    expectedLossPsi: r6(d.expectedLoss.psi.psi),
    expectedLossKsD: r6(d.expectedLoss.ks.statistic),
    expectedLossKsP: d.expectedLoss.ks.pValue,
  }));
  const windowRows = runs.flatMap(({ kind, drift: d }) =>
    ([["before", d.reference], ["after", d.current]] as const).map((
      [side, w],
    ) => ({
      month: kind,
      window: side,
      from: w.from,
      to: w.to,
      decisions: w.decisions,
      labelled: w.labelled,
      errorShareLOW: r6(w.errorShare.LOW),
      errorShareMEDIUM: r6(w.errorShare.MEDIUM),
      errorShareHIGH: r6(w.errorShare.HIGH),
    }))
  );
  const dailyRows = runs.flatMap(({ kind, days }) =>
    days.map((d) => ({
      month: kind,
      day: d.day,
      dayOfMonth: Number(d.day.slice(8, 10)),
      decisions: d.decisions,
      errorRate: r6(d.errorRate),
      lossPerDecision: r6(d.lossPerDecision),
      expectedLossPerDecision: r6(d.expectedLossPerDecision),
    }))
  );
  const calRows = runs.flatMap(({ kind, drift: d }) =>
    d.calibration.map((w) => ({
      month: kind,
      window: w.window,
      from: w.from,
      to: w.to,
      ece: r6(w.ece),
      eceRecalibrated: r6(w.eceRecalibrated),
      alert: w.alert,
    }))
  );
  const baseline = (kind: string, key: "errorRate" | "lossPerDecision") => {
    const rows = dailyRows.filter((r) =>
      r.month === kind && r.dayOfMonth <= splitDay
    );
    return rows.reduce((a, r) => a + (r[key] ?? 0), 0) / rows.length;
  };
  const dailyCal = dailyRows.filter((r) => r.month === "calibrated");
  const e0 = baseline("calibrated", "errorRate");
  const l0 = baseline("calibrated", "lossPerDecision");
  const splitMarker = [{
    x: splitDay + 1,
    label: `split ${split.slice(0, 10)}`,
  }];
  const charts = {
    daily: lineChart(
      dailyCal.flatMap((r) => [
        {
          day: r.dayOfMonth,
          series: "error rate",
          relative: r6(r.errorRate! / e0),
        },
        {
          day: r.dayOfMonth,
          series: "loss per decision",
          relative: r6(r.lossPerDecision! / l0),
        },
      ]),
      {
        x: "day",
        y: "relative",
        group: "series",
        title: "Errors flat, cost rising (calibrated month)",
        xTitle: "day of March 2026",
        yTitle: "relative to the first half's mean",
        groupTitle: "",
        markers: splitMarker,
        points: true,
      },
    ),
    calibration: lineChart(
      [
        ...runs.flatMap(({ kind, drift: d }) =>
          d.calibration.map((w) => ({
            day: r6(
              (Date.parse(w.to) - Date.parse("2026-03-01T00:00:00Z")) /
                86_400_000,
            ),
            series: `${kind}: stated risk`,
            ece: r6(w.ece),
          }))
        ),
        ...stale.calibration.filter((w) => w.eceRecalibrated !== null).map((
          w,
        ) => ({
          day: r6(
            (Date.parse(w.to) - Date.parse("2026-03-01T00:00:00Z")) /
              86_400_000,
          ),
          series: "stale: recalibrated on the window before",
          ece: r6(w.eceRecalibrated),
        })),
        ...[0, options.days ?? 30].map((day) => ({
          day,
          series: `alert bound ${bound}`,
          ece: bound,
        })),
      ],
      {
        x: "day",
        y: "ece",
        group: "series",
        title: `Calibration error over rolling windows of ${window} decisions`,
        xTitle: "day of March 2026 (window end)",
        yTitle: "binned ECE",
        groupTitle: "",
        markers: [{ x: splitDay, label: "split" }],
        points: true,
      },
    ),
    expected_loss: groupedBarChart(
      cal.expectedLoss.psi.bins.flatMap((b, i) => [
        { bin: `${i + 1}`, window: "first half", share: r6(b.reference) },
        { bin: `${i + 1}`, window: "second half", share: r6(b.current) },
      ]),
      {
        x: "bin",
        group: "window",
        y: "share",
        title: `Expected loss per decision, reference deciles (PSI ${
          cal.expectedLoss.psi.psi!.toFixed(3)
        })`,
        xTitle: "decile of the first half's expected loss",
        yTitle: "share of decisions",
        groupTitle: "",
        labelFormat: ".2f",
      },
    ),
  };
  return {
    id: "drift",
    title: "Errors flat, cost rising: drift on the loss distribution",
    source: SOURCE,
    parameters: {
      seed: options.seed ?? 1,
      days: options.days ?? 30,
      casesPerDay: options.casesPerDay ?? 800,
      split,
      profile: profileRef(profile),
      alpha,
      bound,
      window,
      mix: DRIFT_MIX,
    },
    tables: {
      tests: aq.from(testRows),
      windows: aq.from(windowRows),
      daily: aq.from(dailyRows),
      calibration: aq.from(calRows),
    },
    charts,
    claims,
  };
}
