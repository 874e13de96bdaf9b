/**
 * The interval methods that fell below 0.93 in lossbook's coverage study,
 * kept for comparison, and the warning printed whenever one is chosen.
 *
 * Each worst coverage is the lowest share of simulated suites, over every
 * row of the study (`analyses/interval_coverage.ts`, run by `reproduce` with
 * its defaults), whose interval covered the truth at nominal 0.95. The
 * study asserts each figure as a claim, so a change that moves one fails
 * `reproduce` until the figure here is updated.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { intervalWarnings } from "./interval_warnings.ts";
 *
 * assert.deepEqual(intervalWarnings("score", "auto"), []);
 * assert.match(intervalWarnings("score", "bootstrap")[0], /covered as few as/);
 * ```
 *
 * @module
 */

/** A method that fell below 0.93 in the coverage study. */
export interface CoverageShortfall {
  /** The command that offers it. */
  readonly command: "score" | "compare" | "calibrate" | "replay";
  /** Its `--interval` value. */
  readonly interval: string;
  /** What the interval is for, in words. */
  readonly statistic: string;
  /** Its worst coverage over the study's rows at nominal 0.95, to two decimals. */
  readonly worstCoverage: number;
  /** Where that worst coverage was measured, in words. */
  readonly where: string;
}

/** The coverage every default of lossbook holds in every row of the study. */
export const STUDY_FLOOR = 0.93;

/**
 * Every method that fell below {@linkcode STUDY_FLOOR} in the coverage
 * study, by id (`statistic/method`).
 */
export const COVERAGE_SHORTFALLS = Object.freeze(
  {
    "loss/jeffreys": Object.freeze({
      command: "score",
      interval: "jeffreys",
      statistic: "the loss interval",
      worstCoverage: 0,
      where:
        "design W, 31 decisions at a 0.5% error rate: the prior's half-count per kind lifts the interval above a small true loss",
    }),
    "loss/bootstrap": Object.freeze({
      command: "score",
      interval: "bootstrap",
      statistic: "the loss interval",
      worstCoverage: 0.01,
      where:
        "design W, 31 decisions at a 0.5% error rate under principal_risk: no resample shows the CRITICAL miss the suite did not show",
    }),
    "severityWeightedRecall/bootstrap": Object.freeze({
      command: "score",
      interval: "bootstrap",
      statistic: "the severity-weighted recall interval",
      worstCoverage: 0.83,
      where: "suites of 60 decisions",
    }),
    "lossDifference/bootstrap": Object.freeze({
      command: "compare",
      interval: "bootstrap",
      statistic: "the loss-difference interval",
      worstCoverage: 0.08,
      where: "principal_risk, paired suites of 60 tasks",
    }),
    "accuracyDifference/bootstrap": Object.freeze({
      command: "compare",
      interval: "bootstrap",
      statistic: "the accuracy-difference interval",
      worstCoverage: 0.84,
      where: "paired suites of 60 tasks",
    }),
    "ece/bootstrap": Object.freeze({
      command: "calibrate",
      interval: "bootstrap",
      statistic: "the ECE interval",
      worstCoverage: 0,
      where: "a calibrated model, at every size: binned ECE is biased upward",
    }),
    "replayDifference/bootstrap": Object.freeze({
      command: "replay",
      interval: "bootstrap",
      statistic: "the paired replay interval",
      worstCoverage: 0,
      where: "principal_risk, 60 cases",
    }),
  } satisfies Record<string, CoverageShortfall>,
);

/** The id of a method that fell below the study's floor. */
export type ShortfallId = keyof typeof COVERAGE_SHORTFALLS;

/**
 * The warning for one shortfall: what it measured, where, and that the
 * default holds.
 *
 * @param id The shortfall.
 * @returns One line, without a `warning:` prefix.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { coverageWarning } from "./interval_warnings.ts";
 *
 * assert.match(coverageWarning("ece/bootstrap"), /^--interval bootstrap: the ECE interval/);
 * ```
 */
export function coverageWarning(id: ShortfallId): string {
  const s: CoverageShortfall = COVERAGE_SHORTFALLS[id];
  return `--interval ${s.interval}: ${s.statistic} covered as few as ${
    s.worstCoverage.toFixed(2)
  } of simulated suites at nominal 0.95 in lossbook's coverage study (${s.where}; docs/method.md, "Coverage study"), below the ${STUDY_FLOOR} the default holds in every row; it is kept for comparison`;
}

/**
 * The warnings a command's `--interval` choice earns: one per statistic
 * whose method fell below the study's floor, in the order of
 * {@linkcode COVERAGE_SHORTFALLS}; none for `auto` or a method that holds.
 *
 * @param command The command.
 * @param interval The `--interval` value as given (`auto` resolves to a method that holds).
 * @returns The warning lines, without a `warning:` prefix.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { intervalWarnings } from "./interval_warnings.ts";
 *
 * assert.equal(intervalWarnings("compare", "bootstrap").length, 2);
 * assert.deepEqual(intervalWarnings("compare", "jeffreys"), []);
 * ```
 */
export function intervalWarnings(
  command: CoverageShortfall["command"],
  interval: string,
): string[] {
  return (Object.keys(COVERAGE_SHORTFALLS) as ShortfallId[])
    .filter((id) => {
      const s: CoverageShortfall = COVERAGE_SHORTFALLS[id];
      return s.command === command && s.interval === interval;
    })
    .map(coverageWarning);
}
