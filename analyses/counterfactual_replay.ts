/**
 * Counterfactual replay: a recorded month, re-run under other policies with
 * zero model calls.
 *
 * "You can re-run last month's workload under a different escalation
 * threshold, deterministically, with zero model calls, and read the
 * counterfactual cost" (`third-number`). This analysis records a
 * simulated month of reconciliation decisions into a hash-chained ledger —
 * a calibrated desk model served, a frontier-like model's answers recorded
 * alongside for routing, a threshold policy, reviewers who resolve
 * escalations late or never — verifies it, tampers with it in six ways and
 * watches verification name the record each time, then replays the month
 * under three thresholds, under Chow's rule after a cost profile change, and
 * under a routing change, and draws the counterfactual cost curve over
 * 1,000 thresholds.
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
import { SEVERITIES } from "../lib/costs/severity.ts";
import { ledgerText } from "../lib/ledger/chain.ts";
import { type LedgerColumns, ledgerColumns } from "../lib/ledger/columns.ts";
import { profileRef, thresholdPolicy } from "../lib/ledger/policy.ts";
import { ledgerEntries } from "../lib/ledger/read.ts";
import { refitPolicy } from "../lib/ledger/refit.ts";
import {
  costCurve,
  linearThresholds,
  replay,
  type ReplayPolicy,
  type ReplayResult,
} from "../lib/ledger/replay.ts";
import { reviewSummary } from "../lib/ledger/review.ts";
import {
  type MonthScenario,
  type SimulatedMonth,
  simulateLedgerMonth,
} from "../lib/ledger/simulate_month.ts";
import { verifyLedger } from "../lib/ledger/verify.ts";
import {
  SIMULATED_MODELS,
  type SimulatedModel,
} from "../lib/tasks/simulate.ts";
import { createHash } from "node:crypto";

const SOURCE =
  "third-number: the decision ledger, record every decision, replay any alternative policy against the recorded history";

/**
 * The desk's own model: calibrated, errs on every severity (8% LOW, 6%
 * MEDIUM, 4% HIGH and CRITICAL, 1% of clean items), $0.002 a decision.
 */
export const DESK_MODEL: SimulatedModel = Object.freeze<SimulatedModel>({
  id: "desk_model",
  label: "Desk model: calibrated, 8/6/4/4% errors on LOW/MEDIUM/HIGH/CRITICAL",
  errorRate: {
    LOW: 0.08,
    MEDIUM: 0.06,
    HIGH: 0.04,
    CRITICAL: 0.04,
    clean: 0.01,
  },
  missShare: 0.6,
  confidence: { kind: "calibrated" },
  usdPerDecision: 0.002,
});

/** Options for {@linkcode replayMonth} and {@linkcode counterfactualReplay}. */
export interface CounterfactualReplayOptions {
  /** Seed of the simulated month. Default: 7. */
  seed?: number;
  /** Days in the month. Default: 30. */
  days?: number;
  /** Cases per day. Default: 200. */
  casesPerDay?: number;
  /** Threshold of the recorded policy. Default: 0.1. */
  recordedThreshold?: number;
  /** Thresholds to replay. Default: `[0.05, 0.2, 0.5]`. */
  thresholds?: readonly number[];
  /** Profile the month is recorded and priced under. Default: `reconciliation`. */
  profile?: CostProfile;
  /** The changed profile. Default: `principal_risk`. */
  changedProfile?: CostProfile;
  /** Points on the cost curve. Default: 1,000. */
  curvePoints?: number;
}

/**
 * The month the analysis records: 30 days of 200 reconciliation cases (70%
 * clean, 10% LOW, 10% MEDIUM, 8% HIGH, 2% CRITICAL exceptions), the desk
 * model served under "escalate when P(error) > 0.1" with a 24-hour review
 * SLA, and `frontier_even` recorded alongside as a shadow.
 *
 * @param options Seed, size, recorded threshold and profile.
 * @returns The records, in time order, ready to append to a ledger.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { replayMonth } from "./counterfactual_replay.ts";
 *
 * const month = replayMonth({ days: 2, casesPerDay: 20 });
 * assert.equal(month.decisions, 40);
 * ```
 */
export function replayMonth(
  options: CounterfactualReplayOptions = {},
): SimulatedMonth {
  const profile = options.profile ?? getProfile("reconciliation");
  const scenario: MonthScenario = {
    start: "2026-03-01",
    days: options.days ?? 30,
    casesPerDay: options.casesPerDay ?? 200,
    mix: { clean: 0.7, LOW: 0.1, MEDIUM: 0.1, HIGH: 0.08, CRITICAL: 0.02 },
    served: DESK_MODEL,
    shadows: [SIMULATED_MODELS.frontier_even],
    policy: thresholdPolicy("recon-desk", options.recordedThreshold ?? 0.1, {
      slaHours: 24,
      profile: profileRef(profile),
    }),
    profile,
    unresolvedShare: 0.05,
  };
  return simulateLedgerMonth(scenario, { seed: options.seed ?? 7 });
}

const enc = new TextEncoder();

interface TamperCase {
  readonly kind: string;
  readonly how: string;
  readonly expected: number;
  readonly bytes: Uint8Array;
  readonly anchored: boolean;
}

function tamperCases(
  text: string,
  head: { seq: number; hash: string },
): TamperCase[] {
  const lines = text.split("\n").slice(0, -1);
  const n = lines.length;
  const join = (ls: string[]) => enc.encode(ls.join("\n") + "\n");
  // one byte: a digit of a served decision's pCorrect, 40% into the month
  let k = Math.floor(n * 0.4);
  while (
    !/"served":true/.test(lines[k]) || !/"pCorrect":0\.\d/.test(lines[k])
  ) k++;
  const at = lines[k].indexOf('"pCorrect":0.') + 13;
  const digit = lines[k][at];
  const edited = [...lines];
  edited[k] = lines[k].slice(0, at) +
    (digit === "9" ? "8" : String(Number(digit) + 1)) +
    lines[k].slice(at + 1);
  const del = Math.floor(n * 0.55);
  const swap = Math.floor(n * 0.7);
  const dup = Math.floor(n * 0.8);
  const full = join(lines);
  return [
    {
      kind: "edited",
      how: `one byte of record ${k + 1}'s pCorrect changed from ${digit}`,
      expected: k + 1,
      bytes: join(edited),
      anchored: false,
    },
    {
      kind: "deleted",
      how: `line ${del + 1} deleted`,
      expected: del + 1,
      bytes: join(lines.filter((_, i) => i !== del)),
      anchored: false,
    },
    {
      kind: "reordered",
      how: `lines ${swap + 1} and ${swap + 2} swapped`,
      expected: swap + 1,
      bytes: join([
        ...lines.slice(0, swap),
        lines[swap + 1],
        lines[swap],
        ...lines.slice(swap + 2),
      ]),
      anchored: false,
    },
    {
      kind: "duplicated",
      how: `line ${dup + 1} written twice`,
      expected: dup + 2,
      bytes: join([
        ...lines.slice(0, dup + 1),
        lines[dup],
        ...lines.slice(dup + 1),
      ]),
      anchored: false,
    },
    {
      kind: "truncated",
      how: "the last 100 lines cut off, checked against the head",
      expected: n - 99,
      bytes: join(lines.slice(0, n - 100)),
      anchored: true,
    },
    {
      kind: "torn",
      how: "the last 37 bytes lost in a crash",
      expected: n,
      bytes: full.subarray(0, full.length - 37),
      anchored: false,
    },
  ].map((c) => ({ ...c, anchored: c.anchored && head.seq > 0 }));
}

function sha(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function replayRow(scenario: string, r: ReplayResult): Record<string, unknown> {
  return {
    scenario,
    profile: r.profile,
    evaluable: r.evaluable,
    unevaluable: r.unevaluable.cases,
    reviewsBefore: r.reviewLoad.before,
    reviewsAfter: r.reviewLoad.after,
    autoErrorsBefore: r.before.autoErrors,
    autoErrorsAfter: r.after.autoErrors,
    lossBefore: round(r.before.loss),
    lossAfter: round(r.after.loss),
    difference: r.difference.estimate === null
      ? null
      : round(r.difference.estimate),
    ciLow: r.difference.lo === null ? null : round(r.difference.lo),
    ciHigh: r.difference.hi === null ? null : round(r.difference.hi),
    modelUsdBefore: round(r.before.modelUsd),
    modelUsdAfter: round(r.after.modelUsd),
    changed: r.changed.cases,
  };
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

function bestThreshold(thresholds: Float64Array, loss: Float64Array): number {
  let best = 0;
  for (let i = 1; i < loss.length; i++) if (loss[i] < loss[best]) best = i;
  return thresholds[best];
}

/**
 * Record a simulated month, verify it, tamper with it, and replay it under
 * other thresholds, a cost profile change and a routing change.
 *
 * @param options Seed, size, thresholds and profiles.
 * @returns Tables `ledger`, `tamper`, `replay`, `changes` and `cost_curve`,
 * charts `cost_curve` and `replay_loss`, and claims: the ledger verifies;
 * each of six tamperings is named at the right record; replaying the
 * recorded policy changes nothing; replay is byte-identical across runs;
 * never-reviewed escalations are counted as unevaluable, not guessed; a
 * model with no recorded answers is unevaluable everywhere; the cost curve
 * equals replay at the replayed thresholds; Chow's rule lowers the loss
 * after the profile change; a refit gets a new revision chained to the
 * recorded one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { counterfactualReplay } from "./counterfactual_replay.ts";
 *
 * const result = counterfactualReplay({ days: 6 });
 * assert.deepEqual(result.claims.filter((c) => !c.holds).map((c) => c.id), []);
 * ```
 */
export function counterfactualReplay(
  options: CounterfactualReplayOptions = {},
): AnalysisResult {
  const profile = options.profile ?? getProfile("reconciliation");
  const changed = options.changedProfile ?? getProfile("principal_risk");
  const recordedThreshold = options.recordedThreshold ?? 0.1;
  const thresholds = options.thresholds ?? [0.05, 0.2, 0.5];
  const month = replayMonth(options);
  const ledger = ledgerText(month.records);
  const bytes = enc.encode(ledger.text);
  const verification = verifyLedger(bytes, { path: "month.jsonl" });
  const cols: LedgerColumns = ledgerColumns(ledgerEntries(bytes), {
    path: "month.jsonl",
  });
  const queue = reviewSummary(cols.reviews, month.end);
  const claims: Claim[] = [];
  const id = (s: string) => `counterfactual_replay.${s}`;
  const src = { kind: "property", source: SOURCE } as const;
  const derived = (how: string) =>
    ({ kind: "derived", how, source: SOURCE }) as const;

  // 1-2: record and verify
  claims.push(
    claimEqual(
      id("ledger.verifies"),
      "The recorded month verifies end to end",
      true,
      verification.valid,
      src,
    ),
    claimEqual(
      id("ledger.records"),
      "Verification walks every record of the month",
      month.records.length,
      verification.records,
      derived("the number of records written into the month's ledger"),
    ),
  );
  const ledgerTable = aq.from([{
    records: verification.records,
    servedDecisions: month.decisions,
    shadowAnswers: cols.answers - month.decisions,
    reviewsOpened: queue.opened,
    approved: queue.resolved.approve,
    rejected: queue.resolved.reject,
    amended: queue.resolved.amend,
    resolvedLate: queue.resolvedLate,
    stillOpen: queue.open,
    overdueAtMonthEnd: queue.overdue,
    policyRevision: month.policyRevision,
    head: verification.head,
    megabytes: round(bytes.length / 1e6),
  }]);

  // 3: tamper
  const tamperRows = tamperCases(ledger.text, ledger.head).map((c) => {
    const v = verifyLedger(c.bytes, {
      path: "month.jsonl",
      anchor: c.anchored ? ledger.head : null,
    });
    claims.push(
      claimEqual(
        id(`tamper.${c.kind}`),
        `Verification names record ${c.expected} when ${c.how}`,
        c.expected,
        v.firstBadSeq,
        derived(
          "the record the tampering altered, known from its construction",
        ),
      ),
      claimEqual(
        id(`tamper.${c.kind}.problem`),
        `... and calls it ${c.kind}`,
        c.kind,
        v.problem,
        src,
      ),
    );
    return {
      tampering: c.kind,
      how: c.how,
      valid: v.valid,
      expectedSeq: c.expected,
      firstBadSeq: v.firstBadSeq,
      problem: v.problem,
      reason: v.reason,
    };
  });

  // 4: replay
  const scenarios: [string, ReplayPolicy, CostProfile][] = [
    [
      `recorded (${recordedThreshold})`,
      { threshold: recordedThreshold },
      profile,
    ],
    ...thresholds.map((
      t,
    ): [string, ReplayPolicy, CostProfile] => [`threshold ${t}`, {
      threshold: t,
    }, profile]),
    [`Chow, ${changed.id}`, { threshold: "chow" }, changed],
    ["HIGH+ to frontier_even", {
      route: { HIGH: "frontier_even", CRITICAL: "frontier_even" },
    }, profile],
  ];
  const results = scenarios.map(([name, policy, p]) =>
    [name, replay(cols, policy, { profile: p })] as const
  );
  const get = (i: number) => results[i][1];
  const recorded = get(0);
  claims.push(
    claimEqual(
      id("replay.recorded_policy.changes_nothing"),
      "Replaying the recorded policy changes no decision",
      0,
      recorded.changed.cases,
      src,
    ),
    claimClose(
      id("replay.recorded_policy.same_loss"),
      "... and reproduces the recorded loss",
      recorded.before.loss,
      recorded.after.loss,
      {
        tolerance: 0,
        ...derived("the loss of the recorded actions, from the ledger"),
      },
    ),
  );
  const again = replay(ledgerColumns(ledgerEntries(bytes)), {
    threshold: thresholds[0],
  }, { profile });
  claims.push(claimEqual(
    id("replay.deterministic"),
    "Replay is deterministic: two replays from the bytes give byte-identical JSON (SHA-256 compared)",
    sha(JSON.stringify(get(1))),
    sha(JSON.stringify(again)),
    derived("SHA-256 of a first replay's JSON from the same bytes"),
  ));
  // never-reviewed escalations whose risk is at or below a threshold become automatic and unevaluable
  const highest = Math.max(...thresholds);
  const highIdx = 1 + thresholds.indexOf(highest);
  const answerOf = new Map(cols.answerId.map((d, j) => [d, j]));
  const neverReviewed = cols.reviews.filter((r) =>
    r.resolution === null &&
    cols.answerRisk[answerOf.get(r.decisionId)!] <= highest
  ).length;
  claims.push(claimEqual(
    id("replay.unevaluable.counted"),
    `At threshold ${highest}, the escalations nobody reviewed become automatic: counted unevaluable, never guessed`,
    neverReviewed,
    get(highIdx).unevaluable.outcomeUnknown,
    derived(
      "never-reviewed escalations at or below the threshold, counted from the review records",
    ),
  ));
  const nobody = replay(cols, { route: "model_never_recorded" }, {
    profile,
    diff: false,
  });
  claims.push(claimEqual(
    id("replay.unrecorded_model"),
    "Routing to a model whose answers were never recorded leaves every case unevaluable",
    cols.cases,
    nobody.unevaluable.noRoutedAnswer,
    derived("the number of cases in the ledger"),
  ));
  const chow = get(thresholds.length + 1);
  claims.push(claimEqual(
    id("replay.profile_change.chow_lowers_loss"),
    `Under ${changed.id}, Chow's rule costs less than the recorded actions (paired 95% interval below 0)`,
    true,
    chow.difference.hi !== null && chow.difference.hi < 0,
    src,
  ));
  const routed = get(thresholds.length + 2);
  const highCases = [...cols.caseSeverity].filter((s) => s >= 2).length;
  claims.push(claimEqual(
    id("replay.routing.rerouted"),
    "Routing HIGH and CRITICAL to the recorded shadow model moves exactly those cases",
    highCases,
    routed.changed.rerouted,
    derived("HIGH and CRITICAL cases counted in the ledger"),
  ));

  // 5: the cost curve, one sort and prefix sums per profile
  const grid = linearThresholds(0, 1, { count: options.curvePoints ?? 1000 });
  // common support: every point covers the same cases, so the points compare
  const curves = [profile, changed].map((p) =>
    costCurve(cols, grid, { profile: p, support: "common" })
  );
  const atReplayed = costCurve(cols, thresholds, { profile });
  thresholds.forEach((t, i) => {
    claims.push(claimClose(
      id(`curve.matches_replay.${t}`),
      `The cost curve at ${t} equals the replay at ${t}`,
      get(1 + i).after.loss,
      atReplayed.loss[i],
      {
        tolerance: 1e-6,
        ...derived("the replay's loss at the same threshold"),
      },
    ));
  });

  // refit from labelled outcomes: a new revision, chained to the recorded one
  const parent = cols.policies[0];
  const refit = refitPolicy(cols, parent, { at: month.end, profile });
  claims.push(claimEqual(
    id("refit.chained"),
    "A refit from the month's labels gets a new revision whose parent is the recorded one",
    true,
    refit.record.parent === month.policyRevision &&
      refit.record.revision !== month.policyRevision,
    src,
  ));

  const replayTable = aq.from([
    ...results.map(([name, r]) => replayRow(name, r)),
    replayRow(
      `refit ${refit.record.revision}`,
      replay(cols, { threshold: refit.policy.thresholds }, { profile }),
    ),
  ]);
  const changeRows = results.flatMap(([name, r]) =>
    SEVERITIES.map((s) => {
      const rows = r.diff.filter((d) => d.severity === s);
      return {
        scenario: name,
        severity: s,
        autoToEscalate: rows.filter((d) =>
          d.actionBefore === "auto" && d.actionAfter === "escalate"
        ).length,
        escalateToAuto: rows.filter((d) =>
          d.actionBefore === "escalate" && d.actionAfter === "auto"
        ).length,
        rerouted: rows.filter((d) =>
          d.modelBefore !== d.modelAfter
        ).length,
      };
    }).filter((row) =>
      row.autoToEscalate + row.escalateToAuto + row.rerouted > 0
    )
  );
  const curveRows = curves.flatMap((c, k) =>
    [...c.thresholds].map((t, i) => ({
      profile: [profile, changed][k].id,
      threshold: round(t),
      loss: round(c.loss[i]),
      reviews: c.reviews[i],
      autoErrors: c.autoErrors[i],
      cases: c.evaluable[i],
      excluded: c.excluded,
    }))
  );
  const best = curves.map((c) => bestThreshold(c.thresholds, c.loss));
  const charts = {
    cost_curve: lineChart(curveRows.filter((r) => r.loss > 0), {
      x: "threshold",
      y: "loss",
      group: "profile",
      title: `The month replayed under ${grid.length} thresholds`,
      xTitle: "escalate when P(error) is above",
      yTitle: `loss + review cost, ${curves[0].evaluable[0]} cases (log)`,
      groupTitle: "cost profile",
      yScale: "log",
      markers: [
        { x: recordedThreshold, label: `recorded ${recordedThreshold}` },
        ...best.map((b, k) => ({
          x: round(b),
          label: `best for ${[profile, changed][k].id}: ${b.toFixed(3)}`,
        })),
      ],
    }),
    replay_loss: groupedBarChart(
      results.flatMap(([name, r]) => [
        { scenario: name, side: "recorded", loss: round(r.before.loss) },
        { scenario: name, side: "replayed", loss: round(r.after.loss) },
      ]),
      {
        x: "scenario",
        group: "side",
        y: "loss",
        title:
          "Recorded vs replayed loss, each scenario priced under its profile",
        xTitle: "scenario",
        yTitle: "loss + review cost (log scale)",
        groupTitle: "",
        yScale: "log",
        width: 700,
      },
    ),
  };
  return {
    id: "counterfactual_replay",
    title:
      "Counterfactual replay: last month under another policy, with zero model calls",
    source: SOURCE,
    parameters: {
      seed: options.seed ?? 7,
      days: options.days ?? 30,
      casesPerDay: options.casesPerDay ?? 200,
      recordedThreshold,
      thresholds: [...thresholds],
      profile: profileRef(profile),
      changedProfile: profileRef(changed),
      servedModel: DESK_MODEL.id,
      shadowModel: SIMULATED_MODELS.frontier_even.id,
      curvePoints: grid.length,
    },
    tables: {
      ledger: ledgerTable,
      tamper: aq.from(tamperRows),
      replay: replayTable,
      changes: aq.from(changeRows),
      cost_curve: aq.from(curveRows),
    },
    charts,
    claims,
  };
}
