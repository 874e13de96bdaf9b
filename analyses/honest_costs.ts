/**
 * Honest cost evidence: every rule of `yylo-benchmark` shown
 * on a small hand-written fixture of attempts.
 *
 * Each attempt is given as its terminal signals, with the candidate's stdout
 * read for the execution envelope as a harness would. The cascade classifies
 * it, reconciliation decides its cost, and the per-system books show what a
 * report may print: complete totals, partial floors, counts of the unknown,
 * a labelled cost per success and a success rate that is null over nothing.
 *
 * @module
 */

import * as aq from "arquero";
import type { ColumnTable } from "arquero";
import { groupedBarChart } from "../lib/charts/specs.ts";
import { type Claim, claimClose, claimEqual } from "../lib/claims/claim.ts";
import type { AnalysisResult } from "../lib/claims/analysis_result.ts";
import { attemptEvidence } from "../lib/evidence/attempt_evidence.ts";
import type {
  AttemptSignals,
  ModelAttemptSignals,
} from "../lib/evidence/attempt_signals.ts";
import type {
  CostCompleteness,
  CostEvidence,
  FailureClass,
} from "../lib/evidence/cost_evidence.ts";
import {
  costReportBy,
  type CostReportRow,
} from "../lib/evidence/cost_report.ts";
import { costTotals } from "../lib/evidence/cost_totals.ts";
import {
  type ModelIdentity,
  readEnvelope,
  sameIdentity,
} from "../lib/evidence/envelope.ts";
import { stepCells } from "../lib/evidence/step_cells.ts";

const SOURCE =
  "yylo-benchmark: Honest cost, failure, and zero evidence semantics";

/** One attempt of the fixture: who ran it, on what, and its terminal signals. */
export interface HonestCostsAttempt {
  /** The system (model or workflow) the attempt belongs to: the group key. */
  readonly system: string;
  /** Task or case id, unique within the system. */
  readonly task: string;
  /** What the attempt shows, in words. */
  readonly note: string;
  /** Terminal signals, envelope already read from stdout. */
  readonly signals: AttemptSignals;
}

const identity = (model: string, version = "2026-01"): ModelIdentity => ({
  provider: "acme",
  model,
  version,
});

/** A candidate's stdout: progress lines, then (optionally) the envelope line. */
function stdout(
  progress: readonly string[],
  envelope?: { identity: ModelIdentity; cost?: unknown },
): string {
  return [...progress, ...(envelope ? [JSON.stringify(envelope)] : [])]
    .join("\n") + "\n";
}

function modelAttempt(
  system: string,
  task: string,
  note: string,
  out: string,
  rest: Omit<ModelAttemptSignals, "requested" | "envelope">,
): HonestCostsAttempt {
  return {
    system,
    task,
    note,
    signals: {
      ...rest,
      requested: identity(system),
      envelope: readEnvelope(out),
    },
  };
}

const complete = (usd: number) => ({ completeness: "complete", usd });
const partial = (usd: number) => ({ completeness: "partial", usd });

/**
 * The shipped fixture: 19 attempts of six systems, each chosen to show one
 * rule. `alpha` pays complete costs and has one attempt not yet graded;
 * `bravo` genuinely costs 0; `charlie` mixes complete, partial, a degraded
 * cost and a local step; nothing of `delta` succeeds; every attempt of `echo`
 * is harness-invalid (no envelope, or one from another version); `controls`
 * holds the positive controls `cost:missing`, `cost:zero`, `cost:positive`.
 */
export const HONEST_COSTS_FIXTURE: readonly HonestCostsAttempt[] = [
  modelAttempt(
    "alpha",
    "t1",
    "clean exit, graded pass",
    stdout(["progress 1/2", "progress 2/2"], {
      identity: identity("alpha"),
      cost: complete(0.012),
    }),
    { exit: "clean", grade: "pass" },
  ),
  modelAttempt(
    "alpha",
    "t2",
    "clean exit, graded pass",
    stdout([], { identity: identity("alpha"), cost: complete(0.02) }),
    { exit: "clean", grade: "pass" },
  ),
  modelAttempt(
    "alpha",
    "t3",
    "clean exit, graded fail: grader_failure",
    stdout([], { identity: identity("alpha"), cost: complete(0.008) }),
    { exit: "clean", grade: "fail" },
  ),
  modelAttempt(
    "alpha",
    "t4",
    "clean exit, not graded yet: unresolved (null), kept out of the books",
    stdout([], { identity: identity("alpha"), cost: complete(0.011) }),
    { exit: "clean" },
  ),
  modelAttempt(
    "bravo",
    "t1",
    "cache hit: a genuine, complete $0",
    stdout(["cache hit"], { identity: identity("bravo"), cost: complete(0) }),
    { exit: "clean", grade: "pass" },
  ),
  modelAttempt(
    "bravo",
    "t2",
    "cache hit: a genuine, complete $0",
    stdout(["cache hit"], { identity: identity("bravo"), cost: complete(0) }),
    { exit: "clean", grade: "pass" },
  ),
  modelAttempt(
    "charlie",
    "t1",
    "complete cost, graded pass",
    stdout([], { identity: identity("charlie"), cost: complete(0.05) }),
    { exit: "clean", grade: "pass" },
  ),
  modelAttempt(
    "charlie",
    "t2",
    "partial cost (a floor), graded pass",
    stdout([], { identity: identity("charlie"), cost: partial(0.41) }),
    { exit: "clean", grade: "pass" },
  ),
  modelAttempt(
    "charlie",
    "t3",
    "candidate failed; grading cannot overlay it",
    stdout([], { identity: identity("charlie"), cost: partial(0.03) }),
    { exit: "failed", grade: "pass" },
  ),
  modelAttempt(
    "charlie",
    "t4",
    'cancelled (first in the cascade); cost state "estimated" degrades to unavailable',
    stdout([], {
      identity: identity("charlie"),
      cost: { completeness: "estimated", usd: 0.2 },
    }),
    { exit: "clean", grade: "pass", cancelled: true, timedOut: true },
  ),
  {
    system: "charlie",
    task: "t5",
    note: "local deterministic step: no billable event, not_applicable",
    signals: { kind: "local", exit: "clean", grade: "pass" },
  },
  modelAttempt(
    "delta",
    "t1",
    "candidate failed",
    stdout([], { identity: identity("delta"), cost: complete(0.015) }),
    { exit: "failed" },
  ),
  modelAttempt(
    "delta",
    "t2",
    "timed out before writing an envelope",
    stdout(["progress 1/3"]),
    { exit: "failed", timedOut: true },
  ),
  modelAttempt(
    "delta",
    "t3",
    "the runner threw: environment_failure",
    stdout([], {
      identity: identity("delta"),
      cost: { completeness: "unavailable", usd: null },
    }),
    { exit: "runner_error" },
  ),
  modelAttempt(
    "echo",
    "t1",
    "no envelope; a dollar figure in prose is not evidence",
    stdout(["thinking ...", "This call cost about $0.07."]),
    { exit: "clean", grade: "pass" },
  ),
  modelAttempt(
    "echo",
    "t2",
    "envelope from another version: harness failure, its cost not accepted",
    stdout([], {
      identity: identity("echo", "2025-12"),
      cost: complete(0.09),
    }),
    { exit: "clean", grade: "pass" },
  ),
  modelAttempt(
    "controls",
    "cost:missing",
    "positive control: valid envelope without a cost",
    stdout([], { identity: identity("controls") }),
    { exit: "clean", grade: "pass" },
  ),
  modelAttempt(
    "controls",
    "cost:zero",
    "positive control: complete and exactly 0",
    stdout([], { identity: identity("controls"), cost: complete(0) }),
    { exit: "clean", grade: "pass" },
  ),
  modelAttempt(
    "controls",
    "cost:positive",
    "positive control: complete and greater than 0",
    stdout([], { identity: identity("controls"), cost: complete(0.0123) }),
    { exit: "clean", grade: "pass" },
  ),
];

/** Classes left out of the success rate by default: they say nothing about the model. */
const DEFAULT_RATE_EXCLUDES: readonly FailureClass[] = [
  "cancelled",
  "harness_failure",
  "environment_failure",
];

/** Options for {@linkcode honestCosts}. */
export interface HonestCostsOptions {
  /**
   * Attempts to show in the tables and charts. Default:
   * {@linkcode HONEST_COSTS_FIXTURE}. Claims always check the rules on the
   * shipped fixture with the default settings, whatever is shown.
   */
  attempts?: readonly HonestCostsAttempt[];
  /**
   * Classes left out of the success-rate denominator. Default:
   * `["cancelled", "harness_failure", "environment_failure"]`.
   */
  rateExcludes?: readonly FailureClass[];
  /** Confidence level of the success-rate intervals. Default: 0.95. */
  level?: number;
}

interface AttemptRow {
  system: string;
  task: string;
  note: string;
  cancelled: boolean;
  timedOut: boolean;
  envelope: string;
  exit: string;
  grade: string | null;
  outcome: FailureClass | null;
  costCompleteness: CostCompleteness;
  costUsd: number | null;
  resolved: boolean | null;
}

interface Evaluated {
  rows: AttemptRow[];
  attempts: ColumnTable;
  books: CostReportRow[];
  systems: string[];
  ungraded: number;
}

function envelopeState(s: AttemptSignals): string {
  if (s.kind === "local") return "none (local step)";
  if (s.envelope === null) return "missing";
  return sameIdentity(s.envelope.identity, s.requested)
    ? "valid"
    : "wrong identity";
}

function evaluate(
  attempts: readonly HonestCostsAttempt[],
  rateExcludes: readonly FailureClass[],
  level: number,
): Evaluated {
  const rows: AttemptRow[] = attempts.map((a) => {
    const e = attemptEvidence(a.signals);
    return {
      system: a.system,
      task: a.task,
      note: a.note,
      cancelled: a.signals.cancelled ?? false,
      timedOut: a.signals.timedOut ?? false,
      envelope: envelopeState(a.signals),
      exit: a.signals.exit,
      grade: a.signals.grade ?? null,
      outcome: e.outcome,
      costCompleteness: e.cost.completeness,
      costUsd: e.cost.usd,
      resolved: null,
    };
  });
  const systems = [...new Set(rows.map((r) => r.system))];
  // Ungraded attempts have no outcome yet: shown, counted, kept out of the books.
  const graded = rows.filter((r) => r.outcome !== null);
  const gradedOutcomes = graded.map((r) => r.outcome as FailureClass);
  const cells = stepCells(
    gradedOutcomes.map((o) => o === "resolved"),
    gradedOutcomes,
  );
  graded.forEach((r, i) => (r.resolved = cells[i]));
  const table = aq.from(rows);
  const gradedTable = table.filter((d: { outcome: unknown }) =>
    d.outcome !== null
  );
  const books = costReportBy(
    gradedTable.array("system") as string[],
    {
      costCompleteness: gradedTable.array(
        "costCompleteness",
      ) as CostCompleteness[],
      costUsd: gradedTable.array("costUsd") as (number | null)[],
      outcome: gradedTable.array("outcome") as FailureClass[],
    },
    { groups: systems, exclude: rateExcludes, level },
  );
  return {
    rows,
    attempts: table,
    books,
    systems,
    ungraded: rows.length - graded.length,
  };
}

/**
 * Show every honest-cost rule on a fixture of attempts, with claims.
 *
 * Tables: `attempts` (signals, class, cost and the `resolved` cell of each
 * attempt; null where the outcome is unknown or the step harness-invalid)
 * and `cost_books` (per system: counts per cost state, complete total,
 * partial floor, success rate with its denominator and interval, cost per
 * success with its label). Charts: `dollars_by_system` (complete total,
 * partial floor and cost per success; unknown figures drawn as "n/a") and
 * `cost_states_by_system`. Claims check the cascade, reconciliation, the
 * three positive controls and each aggregation rule on the shipped fixture.
 *
 * @param options Attempts to show, success-rate exclusions and level.
 * @returns The analysis result.
 * @throws {TypeError} When an attempt's signals are malformed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { honestCosts } from "./honest_costs.ts";
 *
 * const result = honestCosts();
 * assert.ok(result.claims.every((c) => c.holds));
 * assert.equal(result.tables.cost_books.numRows(), 6);
 * ```
 */
export function honestCosts(options: HonestCostsOptions = {}): AnalysisResult {
  const attempts = options.attempts ?? HONEST_COSTS_FIXTURE;
  const rateExcludes = options.rateExcludes ?? DEFAULT_RATE_EXCLUDES;
  const level = options.level ?? 0.95;
  const shown = evaluate(attempts, rateExcludes, level);
  const isDefault = options.attempts === undefined &&
    options.rateExcludes === undefined && options.level === undefined;
  const shipped = isDefault
    ? shown
    : evaluate(HONEST_COSTS_FIXTURE, DEFAULT_RATE_EXCLUDES, 0.95);

  const dollarRows = shown.books.flatMap((b) => [
    { system: b.group, measure: "complete total", usd: b.completeUsd },
    { system: b.group, measure: "partial floor", usd: b.partialFloorUsd },
    { system: b.group, measure: "cost per success", usd: b.costPerSuccessUsd },
  ]);
  const stateRows = shown.books.flatMap((b) => [
    { system: b.group, state: "complete", attempts: b.completeCount },
    { system: b.group, state: "partial", attempts: b.partialCount },
    { system: b.group, state: "unavailable", attempts: b.unavailableCount },
    {
      system: b.group,
      state: "not_applicable",
      attempts: b.notApplicableCount,
    },
  ]);

  return {
    id: "honest_costs",
    title: "Honest cost evidence: unknown is never printed as zero",
    source: SOURCE,
    parameters: {
      attempts: attempts.length,
      ungraded: shown.ungraded,
      systems: shown.systems,
      fixture: options.attempts === undefined ? "shipped" : "custom",
      rateExcludes: [...rateExcludes],
      level,
    },
    tables: {
      attempts: shown.attempts,
      cost_books: aq.from(shown.books),
    },
    charts: {
      dollars_by_system: groupedBarChart(dollarRows, {
        x: "system",
        group: "measure",
        y: "usd",
        title: "Dollars per system: totals, floors and cost per success",
        xTitle: "system",
        yTitle: "USD",
        groupTitle: "figure",
        xOrder: shown.systems,
      }),
      cost_states_by_system: groupedBarChart(stateRows, {
        x: "system",
        group: "state",
        y: "attempts",
        title: "Attempts per cost completeness state",
        xTitle: "system",
        yTitle: "attempts",
        groupTitle: "cost state",
        xOrder: shown.systems,
        yCounts: true,
      }),
    },
    claims: honestCostsClaims(shipped),
  };
}

function honestCostsClaims(e: Evaluated): Claim[] {
  const source = SOURCE;
  const attempt = (system: string, task: string): AttemptRow => {
    const r = e.rows.find((x) => x.system === system && x.task === task);
    if (r === undefined) {
      throw new RangeError(
        `Cannot state honest-cost claims: the fixture has no attempt ${system}/${task}`,
      );
    }
    return r;
  };
  const book = (system: string): CostReportRow => {
    const b = e.books.find((x) => x.group === system);
    if (b === undefined) {
      throw new RangeError(
        `Cannot state honest-cost claims: the fixture has no system ${system}`,
      );
    }
    return b;
  };
  const cost = (r: AttemptRow): CostEvidence =>
    ({ completeness: r.costCompleteness, usd: r.costUsd }) as CostEvidence;
  const usd = { kind: "property", tolerance: 1e-12, source } as const;
  const outcome = (
    id: string,
    statement: string,
    expected: FailureClass | null,
    system: string,
    task: string,
  ) =>
    claimEqual(
      `honest_costs.cascade.${id}`,
      statement,
      expected,
      attempt(system, task).outcome,
      { kind: "property", source },
    );

  const claims: Claim[] = [
    // The cascade, in order.
    outcome(
      "cancellation_first",
      "A cancelled attempt is cancelled even with a valid envelope, a clean exit, a pass and a timeout",
      "cancelled",
      "charlie",
      "t4",
    ),
    outcome(
      "timeout_before_harness",
      "A timed-out attempt with no envelope is a timeout, not a harness failure",
      "timeout",
      "delta",
      "t2",
    ),
    outcome(
      "missing_envelope",
      "An attempt with no envelope on stdout is a harness failure",
      "harness_failure",
      "echo",
      "t1",
    ),
    outcome(
      "identity_mismatch",
      "An envelope from another version of the requested model is a harness failure",
      "harness_failure",
      "echo",
      "t2",
    ),
    outcome(
      "runner_error",
      "An attempt whose runner threw is an environment failure",
      "environment_failure",
      "delta",
      "t3",
    ),
    outcome(
      "candidate_failed",
      "A failed candidate is a model failure",
      "model_failure",
      "delta",
      "t1",
    ),
    outcome(
      "failed_keeps_class",
      "A failed candidate keeps its class even when grading passes it",
      "model_failure",
      "charlie",
      "t3",
    ),
    outcome(
      "clean_exit_unresolved",
      "A clean exit not yet graded stays unresolved (null), not resolved",
      null,
      "alpha",
      "t4",
    ),
    outcome(
      "grade_pass",
      "A clean exit graded pass is resolved",
      "resolved",
      "alpha",
      "t1",
    ),
    outcome(
      "grade_fail",
      "A clean exit graded fail is a grader failure",
      "grader_failure",
      "alpha",
      "t3",
    ),
    claimEqual(
      "honest_costs.ungraded_left_out",
      "The one ungraded attempt is counted and kept out of the books until graded",
      1,
      e.ungraded,
      { kind: "property", source },
    ),
    // Reconciliation.
    claimEqual(
      "honest_costs.cost.no_envelope",
      "Without an envelope, cost is unavailable with usd null, however much prose mentions dollars",
      JSON.stringify({ completeness: "unavailable", usd: null }),
      JSON.stringify(cost(attempt("echo", "t1"))),
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.cost.wrong_identity",
      "The cost in an envelope from another identity is not accepted: unavailable",
      "unavailable",
      attempt("echo", "t2").costCompleteness,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.cost.degraded",
      'A cost state outside the four literals ("estimated") degrades to unavailable',
      "unavailable",
      attempt("charlie", "t4").costCompleteness,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.cost.local_step",
      "A local deterministic step has cost not_applicable",
      "not_applicable",
      attempt("charlie", "t5").costCompleteness,
      { kind: "property", source },
    ),
    // The three positive controls.
    claimEqual(
      "honest_costs.control.cost_missing.completeness",
      "Positive control cost:missing is observed as unavailable",
      "unavailable",
      attempt("controls", "cost:missing").costCompleteness,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.control.cost_missing.usd",
      "Positive control cost:missing carries usd null, not 0",
      null,
      attempt("controls", "cost:missing").costUsd,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.control.cost_zero.completeness",
      "Positive control cost:zero is observed as complete",
      "complete",
      attempt("controls", "cost:zero").costCompleteness,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.control.cost_zero.usd",
      "Positive control cost:zero carries exactly 0",
      0,
      attempt("controls", "cost:zero").costUsd,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.control.cost_positive.completeness",
      "Positive control cost:positive is observed as complete",
      "complete",
      attempt("controls", "cost:positive").costCompleteness,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.control.cost_positive.usd_above_zero",
      "Positive control cost:positive carries an amount greater than 0",
      true,
      (attempt("controls", "cost:positive").costUsd ?? 0) > 0,
      { kind: "property", source },
    ),
    // Aggregation, system by system (expected values by hand from the fixture).
    claimClose(
      "honest_costs.alpha.complete_usd",
      "alpha's complete costs sum to one total: 0.012 + 0.020 + 0.008 = $0.040",
      0.04,
      book("alpha").completeUsd,
      usd,
    ),
    claimEqual(
      "honest_costs.alpha.per_success.label",
      "alpha: every cost complete and two successes, so cost per success is complete",
      "complete",
      book("alpha").costPerSuccessLabel,
      { kind: "property", source },
    ),
    claimClose(
      "honest_costs.alpha.per_success.usd",
      "alpha: cost per success is $0.040 / 2 = $0.020",
      0.02,
      book("alpha").costPerSuccessUsd,
      usd,
    ),
    claimEqual(
      "honest_costs.bravo.per_success.label",
      "bravo: all costs a genuine complete 0, so cost per success is complete",
      "complete",
      book("bravo").costPerSuccessLabel,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.bravo.per_success.usd",
      "bravo: a group that genuinely cost nothing earns the figure $0",
      0,
      book("bravo").costPerSuccessUsd,
      { kind: "property", source },
    ),
    claimClose(
      "honest_costs.charlie.complete_usd",
      "charlie: the complete total holds only its one complete attempt, $0.05",
      0.05,
      book("charlie").completeUsd,
      usd,
    ),
    claimClose(
      "honest_costs.charlie.partial_floor_usd",
      "charlie: partial costs sum to a separate observed floor, 0.41 + 0.03 = $0.44",
      0.44,
      book("charlie").partialFloorUsd,
      usd,
    ),
    claimEqual(
      "honest_costs.charlie.unavailable_count",
      "charlie: the degraded cost is counted as unavailable, not summed",
      1,
      book("charlie").unavailableCount,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.charlie.not_applicable_count",
      "charlie: the local step is counted as not_applicable, not summed",
      1,
      book("charlie").notApplicableCount,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.charlie.per_success.label",
      "charlie: successes but some cost not complete, so cost per success is incomplete",
      "incomplete",
      book("charlie").costPerSuccessLabel,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.charlie.per_success.usd",
      "charlie: an incomplete group prints no cost per success (null)",
      null,
      book("charlie").costPerSuccessUsd,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.delta.per_success.label",
      "delta: nothing succeeded, so cost per success is not_computable",
      "not_computable",
      book("delta").costPerSuccessLabel,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.delta.per_success.usd",
      "delta: a not_computable group prints no cost per success (null)",
      null,
      book("delta").costPerSuccessUsd,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.delta.success_rate",
      "delta: 0 successes over 2 counted attempts is a measured rate of 0",
      0,
      book("delta").successRate,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.echo.rate_denominator",
      "echo: every attempt is harness-invalid, so the success rate counts none",
      0,
      book("echo").rateDenominator,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.echo.success_rate",
      "echo: a success rate over an empty denominator is null, not 0",
      null,
      book("echo").successRate,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.echo.interval",
      "echo: its interval is null too",
      null,
      book("echo").successRateLo,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.echo.complete_usd",
      "echo: no complete cost, so no complete total (null, not $0)",
      null,
      book("echo").completeUsd,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.echo.per_success.label",
      "echo: nothing succeeded, so cost per success is not_computable",
      "not_computable",
      book("echo").costPerSuccessLabel,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.controls.per_success.label",
      "controls: one unavailable cost makes cost per success incomplete",
      "incomplete",
      book("controls").costPerSuccessLabel,
      { kind: "property", source },
    ),
    claimClose(
      "honest_costs.controls.complete_usd",
      "controls: the complete total $0.0123 is the spend of its 2 complete attempts, not 3",
      0.0123,
      book("controls").completeUsd,
      usd,
    ),
    claimEqual(
      "honest_costs.cell.harness_invalid",
      "The resolved cell of a harness-invalid attempt is null, not false",
      null,
      attempt("echo", "t1").resolved,
      { kind: "property", source },
    ),
    claimEqual(
      "honest_costs.cell.valid_no",
      "The resolved cell of a valid attempt that failed grading is false",
      false,
      attempt("alpha", "t3").resolved,
      { kind: "property", source },
    ),
    unknownsChangeNoDollar(e),
  ];
  return claims;
}

/** Dropping every unavailable and not_applicable attempt leaves each dollar figure as it was. */
function unknownsChangeNoDollar(e: Evaluated): Claim {
  const graded = e.rows.filter((r) => r.outcome !== null);
  const known = graded.filter((r) =>
    r.costCompleteness === "complete" || r.costCompleteness === "partial"
  );
  const totals = (rows: AttemptRow[]) =>
    costTotals({
      costCompleteness: rows.map((r) => r.costCompleteness),
      costUsd: rows.map((r) => r.costUsd),
    });
  const all = totals(graded);
  const kept = totals(known);
  const same = Object.is(all.completeUsd, kept.completeUsd) &&
    Object.is(all.partialFloorUsd, kept.partialFloorUsd) &&
    all.counts.unavailable + all.counts.not_applicable ===
      graded.length - known.length;
  return claimEqual(
    "honest_costs.unknowns_change_no_dollar",
    `Unavailable and not_applicable attempts (${
      graded.length - known.length
    } of ${graded.length}) change counts only: dropping them leaves the complete total and the partial floor unchanged`,
    true,
    same,
    { kind: "property", source: SOURCE },
  );
}
