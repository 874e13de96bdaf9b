/**
 * A simulated month of decisions, recorded as a ledger would record them:
 * seeded tasks, a served model (which may change during the month), shadow
 * models whose answers are recorded for routing replay, a threshold policy,
 * and reviewers who resolve escalations late or never.
 *
 * @module
 */

import type { CostProfile } from "../costs/profile.ts";
import { SEVERITIES, type Severity } from "../costs/severity.ts";
import { seededPrng } from "../math/sampling.ts";
import type { Decision } from "../decision/decision.ts";
import {
  type SimTask,
  type SimulatedModel,
  simulateRun,
} from "../tasks/simulate.ts";
import { sha256Hex } from "./_sha256.ts";
import { decisionRecord } from "./decision_record.ts";
import {
  policyRecord,
  policyRevision,
  type ThresholdPolicy,
} from "./policy.ts";
import type { DecisionRecord, LedgerRecord } from "./record.ts";
import { openReview, resolveReview } from "./review.ts";

/** Exception classes per severity: the reconciliation classes of `reconforge`, and one CRITICAL class. */
export const MONTH_CLASSES: Readonly<Record<Severity, readonly string[]>> =
  Object.freeze({
    LOW: ["DUPLICATE", "FIELD_CORRUPTION"],
    MEDIUM: ["VALUE_DATE_MISMATCH", "MISSING_MESSAGE", "PARTIAL_MATCH"],
    HIGH: [
      "AMOUNT_MISMATCH",
      "FX_CONVERSION_ERROR",
      "BENEFICIARY_MISMATCH",
      "COUNTERPARTY_MISMATCH",
    ],
    CRITICAL: ["SETTLEMENT_FAILURE"],
  });

/** A month to simulate. */
export interface MonthScenario {
  /** First day, as an ISO date (`2026-03-01`). */
  readonly start: string;
  /** Days in the month. */
  readonly days: number;
  /** Cases per day. */
  readonly casesPerDay: number;
  /**
   * Share of cases per gold severity, and of clean cases (`clean`, which are
   * LOW severity); normalised to sum to 1.
   */
  readonly mix: Readonly<Partial<Record<Severity | "clean", number>>>;
  /** The served model, or the served model on each day (from 0). */
  readonly served: SimulatedModel | ((day: number) => SimulatedModel);
  /** Models whose answers are recorded but not acted on. Default: none. */
  readonly shadows?: readonly SimulatedModel[];
  /** The policy in force. */
  readonly policy: ThresholdPolicy;
  /** Profile that prices expected loss in the records. */
  readonly profile: CostProfile;
  /** Share of escalations never resolved. Default: 0.05. */
  readonly unresolvedShare?: number;
  /** Share of wrong escalated answers rejected without naming the class (the rest are amended). Default: 0.25. */
  readonly rejectShare?: number;
  /** Review delay as a multiple of the SLA, uniform between these. Default: `[0.05, 1.25]`. */
  readonly reviewDelay?: readonly [number, number];
}

/** Options for {@linkcode simulateLedgerMonth}. */
export interface SimulateMonthOptions {
  /** Seed of every draw. Default: 0. */
  seed?: number;
}

/** A simulated month. */
export interface SimulatedMonth {
  /** Records in time order, ready to append. */
  readonly records: readonly LedgerRecord[];
  /** Revision of the policy in force (recorded first). */
  readonly policyRevision: string;
  /** The first instant after the month (ISO), the natural "now" for overdue reviews. */
  readonly end: string;
  /** Served decisions. */
  readonly decisions: number;
}

const CLERKS = ["ana", "ben", "chen"];

/**
 * Simulate a month and record it as ledger records.
 *
 * Each day draws its cases (severity by `mix`, class uniform among the
 * severity's classes, clean cases LOW), then every model answers through
 * `simulateRun` (seeded per day). The served answer's action is the
 * policy's; an escalation opens a review, resolved after a uniform delay
 * (approve when the answer was right, otherwise reject or amend), or never.
 * Labels arrive as production would see them: an automatic decision's gold
 * class is recorded with it (standing in for the end-of-day reconciliation
 * that confirms it), an escalated one's only through its review, and shadow
 * answers carry none of their own. Resolutions after the month's end are
 * left out, so those reviews are still open. Everything is drawn from seeded
 * generators: the same scenario and seed give the same records.
 *
 * @param scenario The month.
 * @param options Seed.
 * @returns Records in time order, the policy revision and the month's end.
 * @throws {RangeError} When a share or size is out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/load.ts";
 * import { SIMULATED_MODELS } from "../tasks/simulate.ts";
 * import { thresholdPolicy } from "./policy.ts";
 * import { simulateLedgerMonth } from "./simulate_month.ts";
 *
 * const month = simulateLedgerMonth({
 *   start: "2026-03-01", days: 2, casesPerDay: 50, mix: { clean: 0.7, LOW: 0.1, MEDIUM: 0.1, HIGH: 0.1 },
 *   served: SIMULATED_MODELS.small_severity_shaped, policy: thresholdPolicy("desk", 0.2),
 *   profile: getProfile("reconciliation"),
 * }, { seed: 1 });
 * assert.equal(month.decisions, 100);
 * assert.equal(month.records[0].kind, "policy");
 * ```
 */
export function simulateLedgerMonth(
  scenario: MonthScenario,
  options: SimulateMonthOptions = {},
): SimulatedMonth {
  const seed = options.seed ?? 0;
  const unresolved = scenario.unresolvedShare ?? 0.05;
  const rejectShare = scenario.rejectShare ?? 0.25;
  const [d0, d1] = scenario.reviewDelay ?? [0.05, 1.25];
  for (
    const [k, v] of [["unresolvedShare", unresolved], [
      "rejectShare",
      rejectShare,
    ]] as const
  ) {
    if (!(v >= 0 && v <= 1)) {
      throw new RangeError(
        `Cannot simulate a month: ${k} must be in [0, 1], got ${v}`,
      );
    }
  }
  if (
    !Number.isSafeInteger(scenario.days) || scenario.days < 1 ||
    !Number.isSafeInteger(scenario.casesPerDay) || scenario.casesPerDay < 1
  ) {
    throw new RangeError(
      `Cannot simulate a month: days and casesPerDay must be integers >= 1, got ${scenario.days} and ${scenario.casesPerDay}`,
    );
  }
  const startMs = Date.parse(`${scenario.start}T00:00:00Z`);
  if (!Number.isFinite(startMs)) {
    throw new RangeError(
      `Cannot simulate a month: start must be an ISO date like 2026-03-01, got ${
        JSON.stringify(scenario.start)
      }`,
    );
  }
  const keys = [...SEVERITIES, "clean"] as const;
  const weights = keys.map((k) => scenario.mix[k] ?? 0);
  const total = weights.reduce((a, b) => a + b, 0);
  if (!(total > 0) || weights.some((w) => !(w >= 0))) {
    throw new RangeError(
      "Cannot simulate a month: mix needs non-negative shares with a positive sum",
    );
  }
  const cum: number[] = [];
  weights.reduce((acc, w, i) => (cum[i] = acc + w / total), 0);
  const policy = scenario.policy;
  const revision = policyRevision(policy);
  const rng = seededPrng(seed);
  const day = 86_400_000;
  const step = day / scenario.casesPerDay;
  const endMs = startMs + scenario.days * day;
  const events: { t: number; order: number; record: LedgerRecord }[] = [];
  let order = 0;
  const push = (t: number, record: LedgerRecord) =>
    events.push({ t, order: order++, record });
  push(startMs, policyRecord(policy, { at: new Date(startMs).toISOString() }));
  const runId = `month-${scenario.start}`;
  let decisions = 0;
  for (let dayIndex = 0; dayIndex < scenario.days; dayIndex++) {
    const tasks: SimTask[] = [];
    for (let i = 0; i < scenario.casesPerDay; i++) {
      const u = rng.next();
      let k = 0;
      while (k < keys.length - 1 && u >= cum[k]) k++;
      const key = keys[k];
      const severity: Severity = key === "clean" ? "LOW" : key;
      const classes = MONTH_CLASSES[severity];
      tasks.push({
        id: `case-${scenario.start}-${String(dayIndex).padStart(2, "0")}-${
          String(i).padStart(6, "0")
        }`,
        gold: {
          exceptionType: key === "clean" ? null : classes[
            Math.min(
              classes.length - 1,
              Math.floor(rng.next() * classes.length),
            )
          ],
          severity,
        },
      });
    }
    const served = typeof scenario.served === "function"
      ? scenario.served(dayIndex)
      : scenario.served;
    const daySeed = (seed * 1009 + dayIndex + 1) >>> 0;
    const answers: { model: SimulatedModel; run: Decision[] }[] = [
      {
        model: served,
        run: simulateRun(tasks, served, { seed: daySeed, runId }),
      },
      ...(scenario.shadows ?? []).map((m) => ({
        model: m,
        run: simulateRun(tasks, m, { seed: daySeed, runId }),
      })),
    ];
    for (let i = 0; i < tasks.length; i++) {
      const t = startMs + dayIndex * day + Math.floor((i + 0.5) * step);
      const at = new Date(t).toISOString();
      const promptHash = sha256Hex(`prompt|${tasks[i].id}`);
      let servedRecord: DecisionRecord | null = null;
      for (const [a, { model, run }] of answers.entries()) {
        const d = run[i];
        const isServed = a === 0;
        const rec = decisionRecord(d, {
          at,
          id: `${tasks[i].id}/${model.id}`,
          profile: scenario.profile,
          policy,
          policyRevision: revision,
          modelRevision: `${model.id}@sim`,
          promptHash,
          served: isServed,
          goldKnown: false,
        });
        if (isServed) {
          decisions++;
          servedRecord = rec.decision.action === "auto"
            ? { ...rec, decision: { ...rec.decision, trueClass: d.trueClass } }
            : rec;
          push(t, servedRecord);
        } else {
          push(t, rec);
        }
      }
      const s = servedRecord!;
      if (s.decision.action !== "escalate") continue;
      push(t, openReview(s, { slaHours: policy.slaHours }));
      const never = rng.next() < unresolved;
      const delay = (d0 + (d1 - d0) * rng.next()) * policy.slaHours * 3_600_000;
      const reviewer = CLERKS[Math.floor(rng.next() * CLERKS.length)];
      const reject = rng.next() < rejectShare;
      const resolvedAt = t + Math.max(1000, Math.round(delay / 1000) * 1000);
      if (never || resolvedAt >= endMs) continue;
      const gold = answers[0].run[i].trueClass;
      const right = s.decision.predClass === gold;
      push(
        resolvedAt,
        resolveReview(
          s,
          right ? "approve" : reject ? "reject" : "amend",
          {
            at: new Date(resolvedAt).toISOString(),
            reviewer,
            ...(right || reject ? {} : { trueClass: gold }),
          },
        ),
      );
    }
  }
  events.sort((a, b) => a.t - b.t || a.order - b.order);
  return {
    records: events.map((e) => e.record),
    policyRevision: revision,
    end: new Date(endMs).toISOString(),
    decisions,
  };
}
