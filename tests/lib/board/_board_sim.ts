// Seeded boards with known truth, for the family-wise error check of
// `board`'s ranking (tests/lib/board/fwer_test.ts) and its study
// (scripts/board_fwer.ts). Each model answers the same fixed suite
// (suiteCells of _loss_suites.ts), each task independently with its
// severity's error rate times the model's multiplier; the truth is each
// model's expected loss on the suite (trueLoss), so a pair is truly ordered
// when one expected loss is below the other and tied when the multipliers
// are equal (then the two models are exchangeable on every task).
import type { CostProfile } from "../../../lib/costs/profile.ts";
import { getProfile } from "../../../lib/costs/shipped.ts";
import { SEVERITIES, type Severity } from "../../../lib/costs/severity.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
import { decisionTable } from "../../../lib/read/load_decisions.ts";
import { CONSEQUENCE_MATRIX } from "../../../lib/metrics/loss.ts";
import { type Prng, seededPrng } from "../../../lib/math/sampling.ts";
import { boardRankings } from "../../../api/board.ts";
import { kindProbs, suiteCells, trueLoss } from "../metrics/_loss_suites.ts";

/** A scenario: the models' error-rate multipliers on shared base rates. */
export interface BoardScenario {
  /** Name, as the study prints it. */
  readonly name: string;
  /** Each model's error rates per severity. */
  readonly rates: readonly Readonly<Record<Severity, number>>[];
}

/** Base error rates of the scenarios: 0.30/0.15/0.06/0.03 (compare's size study). */
export const BASE_RATES: Readonly<Record<Severity, number>> = {
  LOW: 0.30,
  MEDIUM: 0.15,
  HIGH: 0.06,
  CRITICAL: 0.03,
};

/** The base rates times a multiplier. */
export function scaled(m: number): Record<Severity, number> {
  return Object.fromEntries(
    SEVERITIES.map((s) => [s, BASE_RATES[s] * m]),
  ) as Record<Severity, number>;
}

/** The scenarios whose family-wise error is held to alpha. */
export const SCENARIOS: readonly BoardScenario[] = [
  { name: "4 equal models", rates: [1, 1, 1, 1].map(scaled) },
  { name: "2 equal, 1 better, 1 worse", rates: [0.5, 1, 1, 2].map(scaled) },
  {
    name: "4 close models in a ladder",
    rates: [0.7, 0.85, 1, 1.15].map(scaled),
  },
  {
    name: "6 models, 3 tied pairs",
    rates: [0.6, 0.6, 1, 1, 1.5, 1.5].map(scaled),
  },
];

/**
 * Two models of equal expected loss under principal_risk on the suite of
 * about n tasks: the second errs half as often on CRITICAL items and more
 * often on HIGH ones, the HIGH rate solved so that the expected losses are
 * equal. The models are not exchangeable, so the sign-flip test claims no
 * size here.
 */
export function tradeOffScenario(n: number): BoardScenario {
  const p = getProfile("principal_risk");
  const cells = suiteCells(n);
  const target = trueLoss(cells, BASE_RATES, p);
  const at = (high: number) =>
    trueLoss(cells, {
      ...BASE_RATES,
      HIGH: high,
      CRITICAL: BASE_RATES.CRITICAL / 2,
    }, p);
  // the loss is linear in the HIGH rate
  const high = BASE_RATES.HIGH +
    (target - at(BASE_RATES.HIGH)) / (at(1) - at(0));
  return {
    name: "2 models, equal loss under principal_risk at different severities",
    rates: [BASE_RATES, {
      ...BASE_RATES,
      HIGH: high,
      CRITICAL: BASE_RATES.CRITICAL / 2,
    }],
  };
}

// one decision of a model on a task, the kind drawn from the cell's probabilities
function answer(rng: Prng, probs: readonly number[]): number {
  let u = rng.next();
  for (let k = 0; k < probs.length; k++) {
    if (u < probs[k]) return k;
    u -= probs[k];
  }
  return probs.length - 1;
}

/** One simulated board: every model answers every task of the suite once. */
export function simulateBoard(
  rng: Prng,
  n: number,
  rates: readonly Readonly<Record<Severity, number>>[],
): Decision[] {
  const out: Decision[] = [];
  let task = 0;
  for (const c of suiteCells(n)) {
    const preds = c.trueClass === "MATCH"
      ? ["MATCH", `${c.severity}_EXC`]
      : [c.trueClass, "MATCH", `${c.severity}_OTHER`];
    for (let t = 0; t < c.n; t++, task++) {
      rates.forEach((r, m) => {
        out.push({
          runId: "sim",
          modelId: `m${m}`,
          taskId: `t${task}`,
          trial: 0,
          severity: c.severity,
          trueClass: c.trueClass,
          predClass: preds[answer(rng, kindProbs(c, r[c.severity]))],
          parseOk: true,
          pCorrect: null,
          action: "auto",
          cost: { completeness: "unavailable", usd: null },
          outcome: "resolved",
        });
      });
    }
  }
  return out;
}

/** What the study found for one scenario and profile. */
export interface FwerResult {
  /** Boards simulated. */
  readonly boards: number;
  /** Boards on which some pair was declared in the wrong order (better while truly worse or tied). */
  readonly wrong: number;
  /** Pairs truly ordered, summed over boards. */
  readonly orderedPairs: number;
  /** Of them, the pairs declared in the right order. */
  readonly found: number;
}

/**
 * Simulate `boards` boards of a scenario and count, per profile, the boards
 * with a wrongly ordered pair and the truly ordered pairs found.
 */
export function boardFwer(
  scenario: BoardScenario,
  profiles: readonly CostProfile[],
  options: {
    boards: number;
    n: number;
    alpha: number;
    resamples: number;
    seed: number;
  },
): Record<string, FwerResult> {
  const rng = seededPrng(options.seed);
  const models = scenario.rates.map((_, m) => `m${m}`);
  const cells = suiteCells(options.n);
  const truth = new Map(
    profiles.map((p) => [
      p.id,
      scenario.rates.map((r) => trueLoss(cells, r, p, CONSEQUENCE_MATRIX)),
    ]),
  );
  const tally = new Map(
    profiles.map((p) => [p.id, { wrong: 0, orderedPairs: 0, found: 0 }]),
  );
  for (let b = 0; b < options.boards; b++) {
    const table = decisionTable(
      simulateBoard(rng, options.n, scenario.rates),
    );
    const ranked = boardRankings(table, models, profiles, {
      matrix: CONSEQUENCE_MATRIX,
      alpha: options.alpha,
      resamples: options.resamples,
      seed: options.seed + b,
    });
    for (const p of ranked) {
      const loss = truth.get(p.id)!;
      const t = tally.get(p.id)!;
      let wrong = false;
      for (const pair of p.pairs) {
        const [a, bb] = [Number(pair.a.slice(1)), Number(pair.b.slice(1))];
        const tied = Math.abs(loss[a] - loss[bb]) <=
          1e-12 * Math.max(loss[a], loss[bb]);
        const truer = tied ? null : loss[a] < loss[bb] ? pair.a : pair.b;
        if (truer !== null) t.orderedPairs++;
        if (pair.better === null) continue;
        if (pair.better === truer) t.found++;
        else wrong = true;
      }
      if (wrong) t.wrong++;
    }
  }
  return Object.fromEntries(
    [...tally].map(([id, t]) => [id, { boards: options.boards, ...t }]),
  );
}
