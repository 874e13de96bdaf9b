/**
 * The seeded suite generator: draws each task's class and difficulty from
 * its own stream, makes candidates, and admits a candidate only when the
 * independent verifier's answer equals the intended label.
 *
 * @module
 */

import { SEVERITIES, type Severity } from "../costs/severity.ts";
import { promptText, signatureText } from "./_task_text.ts";
import { canonicalJson } from "./canonical_json.ts";
import { paymentRepairCandidate } from "./generate_payment_repair.ts";
import { reconciliationCandidate } from "./generate_reconciliation.ts";
import { settlementCandidate } from "./generate_settlement.ts";
import type { PaymentRepairClass } from "./payment_repair_rules.ts";
import type { ReconciliationClass } from "./reconciliation_rules.ts";
import { classesBySeverity, DOMAIN_RULES } from "./rules.ts";
import type { SettlementClass } from "./settlement_rules.ts";
import type { Domain, Gold, StateOf, Task } from "./task.ts";
import { isDomain } from "./task.ts";
import {
  drawInt,
  pick,
  pickWeighted,
  type TaskRng,
  taskRng,
  taskRngs,
} from "./task_rng.ts";
import { goldDifference, verifyState } from "./verify.ts";

/** Options of a suite. */
export interface GenerateOptions {
  /** Suite seed, an integer in [0, 2^32 - 1]. */
  seed: number;
  /**
   * Difficulty: one value, or a `[lo, hi]` range drawn uniformly per task, in
   * [0, 1], rounded to thousandths. Default `[0, 1]`.
   */
  difficulty?: number | readonly [number, number];
  /**
   * Share of tasks per gold severity, e.g. `{ HIGH: 0.5, MEDIUM: 0.3, LOW: 0.2 }`;
   * absent severities get 0; shares must sum to 1 (within 0.001). Within a
   * severity the classes are equally likely. Default: every class equally
   * likely.
   */
  mix?: Partial<Record<Severity, number>>;
  /** Candidates tried per task before giving up. Default 1000. */
  maxAttempts?: number;
}

/** Counts from a generation run. */
export interface GenerationStats {
  /** Tasks admitted. */
  tasks: number;
  /** Candidates made (admitted plus rejected). */
  candidates: number;
  /** Rejected candidates by reason: `"<intended> -> <verified>"`, or a field difference. */
  rejections: Record<string, number>;
}

/** A generator candidate: a state and the label the generator intends. */
export interface Candidate<D extends Domain = Domain> {
  /** The state. */
  state: StateOf[D];
  /** The intended gold answer. */
  gold: Gold;
}

/**
 * Make one candidate of an intended class in a domain.
 *
 * @param domain The domain.
 * @param rng The task generator; it advances.
 * @param cls The intended class (clean class included).
 * @param difficultyMilli Difficulty in thousandths.
 * @returns The candidate.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { makeCandidate } from "./generate.ts";
 * import { taskRng } from "./task_rng.ts";
 *
 * const c = makeCandidate("settlement", taskRng(1, 0), "DELAYED", 0);
 * assert.equal(c.gold.exceptionType, "DELAYED");
 * ```
 */
export function makeCandidate<D extends Domain>(
  domain: D,
  rng: TaskRng,
  cls: string,
  difficultyMilli: number,
): Candidate<D> {
  switch (domain) {
    case "reconciliation":
      return reconciliationCandidate(
        rng,
        cls as ReconciliationClass,
        difficultyMilli,
      ) as Candidate<D>;
    case "payment_repair":
      return paymentRepairCandidate(
        rng,
        cls as PaymentRepairClass,
        difficultyMilli,
      ) as Candidate<D>;
    default:
      return settlementCandidate(
        rng,
        cls as SettlementClass,
        difficultyMilli,
      ) as Candidate<D>;
  }
}

/**
 * Decide whether a candidate is admitted: the verifier recomputes the answer
 * from the state alone and it must equal the intended label.
 *
 * @param domain The domain.
 * @param candidate The candidate.
 * @returns `null` when admitted, otherwise the rejection reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { admit, makeCandidate } from "./generate.ts";
 * import { taskRng } from "./task_rng.ts";
 *
 * const c = makeCandidate("reconciliation", taskRng(1, 0), "MATCH", 0);
 * assert.equal(admit("reconciliation", c), null);
 * const lie = { ...c, gold: { ...c.gold, verdict: "EXCEPTION", exceptionType: "DUPLICATE" } };
 * assert.equal(admit("reconciliation", lie), "DUPLICATE -> MATCH");
 * ```
 */
export function admit(domain: Domain, candidate: Candidate): string | null {
  const verified = verifyState(domain, candidate.state);
  const diff = goldDifference(candidate.gold, verified);
  if (diff === null) return null;
  const clean = DOMAIN_RULES[domain].cleanClass;
  const a = candidate.gold.exceptionType ?? clean;
  const b = verified.exceptionType ?? clean;
  return a !== b ? `${a} -> ${b}` : `${a}: ${diff}`;
}

function milli(x: number, what: string, domain: string): number {
  if (typeof x !== "number" || !(x >= 0 && x <= 1)) {
    throw new RangeError(
      `Cannot generate ${domain} tasks: ${what} must be in [0, 1], got ${x}`,
    );
  }
  return Math.round(x * 1000);
}

/** The resolved, integer form of a suite's options. */
interface Plan {
  lo: number;
  hi: number;
  weights: number[];
  bySeverity: Partial<Record<Severity, string[]>>;
  maxAttempts: number;
}

function plan(domain: Domain, options: GenerateOptions): Plan {
  if (!isDomain(domain)) {
    throw new RangeError(
      `Cannot generate tasks: domain must be one of reconciliation, payment_repair, settlement, got ${
        JSON.stringify(domain)
      }`,
    );
  }
  const d = options.difficulty ?? [0, 1];
  const [lo, hi] = typeof d === "number"
    ? [milli(d, "difficulty", domain), milli(d, "difficulty", domain)]
    : [
      milli(d[0], "difficulty low", domain),
      milli(d[1], "difficulty high", domain),
    ];
  if (lo > hi) {
    throw new RangeError(
      `Cannot generate ${domain} tasks: difficulty range must have low <= high, got ${
        d[0 as never]
      },${d[1 as never]}`,
    );
  }
  const bySeverity = classesBySeverity(domain);
  let weights: number[];
  if (options.mix === undefined) {
    weights = SEVERITIES.map((s) => bySeverity[s]?.length ?? 0);
  } else {
    let sum = 0;
    for (const [k, v] of Object.entries(options.mix)) {
      if (!(SEVERITIES as readonly string[]).includes(k)) {
        throw new RangeError(
          `Cannot generate ${domain} tasks: mix keys must be severities (${
            SEVERITIES.join(", ")
          }), got ${JSON.stringify(k)}`,
        );
      }
      if (typeof v !== "number" || !(v >= 0 && v <= 1)) {
        throw new RangeError(
          `Cannot generate ${domain} tasks: mix share of ${k} must be in [0, 1], got ${v}`,
        );
      }
      if (v > 0 && bySeverity[k as Severity] === undefined) {
        throw new RangeError(
          `Cannot generate ${domain} tasks: mix asks for ${k} but the domain has no ${k} class (it has ${
            Object.keys(bySeverity).join(", ")
          })`,
        );
      }
      sum += v;
    }
    if (Math.abs(sum - 1) > 0.001) {
      throw new RangeError(
        `Cannot generate ${domain} tasks: mix shares must sum to 1, got ${
          Number(sum.toFixed(6))
        }`,
      );
    }
    weights = SEVERITIES.map((s) =>
      Math.round((options.mix![s] ?? 0) * 1_000_000)
    );
  }
  const maxAttempts = options.maxAttempts ?? 1000;
  return { lo, hi, weights, bySeverity, maxAttempts };
}

function makeTask<D extends Domain>(
  domain: D,
  seed: number,
  index: number,
  rng: TaskRng,
  p: Plan,
  stats: GenerationStats,
): Task<D> {
  // Draw order, part of the byte contract: difficulty (only for a range), severity, class, then candidates.
  const dm = p.lo === p.hi ? p.lo : drawInt(rng, p.lo, p.hi);
  const severity = SEVERITIES[pickWeighted(rng, p.weights)];
  const cls = pick(rng, p.bySeverity[severity]!);
  for (let attempt = 0; attempt < p.maxAttempts; attempt++) {
    const c = makeCandidate(domain, rng, cls, dm);
    stats.candidates++;
    const reason = admit(domain, c);
    if (reason !== null) {
      stats.rejections[reason] = (stats.rejections[reason] ?? 0) + 1;
      continue;
    }
    stats.tasks++;
    const stateJson = canonicalJson(c.state);
    return {
      id: `${domain}-${seed}-${index}`,
      domain,
      seed,
      index,
      difficulty: dm / 1000,
      state: c.state,
      gold: c.gold,
      prompt: promptText(domain, stateJson),
      signature: signatureText(domain, canonicalJson(c.gold), stateJson),
    };
  }
  throw new RangeError(
    `Cannot generate ${domain} task ${index}: no ${cls} candidate admitted in ${p.maxAttempts} attempts`,
  );
}

/**
 * Generate a suite lazily, task 0 first, with bounded memory.
 *
 * Task `i` depends only on `(seed, i)` and the options, so the first n tasks
 * of any longer suite are this suite of n. The iterator's return value holds
 * the counts, rejections by reason included. Cost is O(n) candidates (a few
 * per cent are rejected).
 *
 * @param domain The domain.
 * @param options Seed, size, difficulty and severity mix.
 * @returns An iterator of tasks whose return value is the statistics.
 * @throws {RangeError} For a bad seed, difficulty or mix, or a class that
 * cannot be admitted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateTasks } from "./generate.ts";
 *
 * const ids = [...generateTasks("settlement", { seed: 7, n: 3 })].map((t) => t.id);
 * assert.deepEqual(ids, ["settlement-7-0", "settlement-7-1", "settlement-7-2"]);
 * ```
 */
export function* generateTasks<D extends Domain>(
  domain: D,
  options: GenerateOptions & { n: number },
): Generator<Task<D>, GenerationStats, undefined> {
  const p = plan(domain, options);
  if (!Number.isInteger(options.n) || options.n < 0) {
    throw new RangeError(
      `Cannot generate ${domain} tasks: n must be an integer >= 0, got ${options.n}`,
    );
  }
  const stats: GenerationStats = { tasks: 0, candidates: 0, rejections: {} };
  const rngs = taskRngs(options.seed);
  for (let i = 0; i < options.n; i++) {
    yield makeTask(domain, options.seed, i, rngs.next().value, p, stats);
  }
  return stats;
}

/**
 * Generate a whole suite in memory, with its statistics.
 *
 * @param domain The domain.
 * @param options Seed, size, difficulty and severity mix.
 * @returns The tasks and the statistics.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateSuite } from "./generate.ts";
 *
 * const { tasks, stats } = generateSuite("payment_repair", { seed: 7, n: 50, mix: { CRITICAL: 1 } });
 * assert.ok(tasks.every((t) => t.gold.exceptionType === "FRAUD_HOLD"));
 * assert.equal(stats.tasks, 50);
 * ```
 */
export function generateSuite<D extends Domain>(
  domain: D,
  options: GenerateOptions & { n: number },
): { tasks: Task<D>[]; stats: GenerationStats } {
  const it = generateTasks(domain, options);
  const tasks: Task<D>[] = [];
  while (true) {
    const r = it.next();
    if (r.done) return { tasks, stats: r.value };
    tasks.push(r.value);
  }
}

/**
 * Regenerate task `index` of a suite on its own, without the tasks before it.
 *
 * @param domain The domain.
 * @param seed Suite seed.
 * @param index Task index. Cost is O(index) generator jumps, no candidates.
 * @param options Difficulty and mix, as the suite used them.
 * @returns The task, equal to the suite's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateSuite, generateTask } from "./generate.ts";
 *
 * const { tasks } = generateSuite("reconciliation", { seed: 9, n: 5 });
 * assert.deepEqual(generateTask("reconciliation", 9, 4), tasks[4]);
 * ```
 */
export function generateTask<D extends Domain>(
  domain: D,
  seed: number,
  index: number,
  options: Omit<GenerateOptions, "seed"> = {},
): Task<D> {
  const p = plan(domain, { ...options, seed });
  const stats: GenerationStats = { tasks: 0, candidates: 0, rejections: {} };
  return makeTask(domain, seed, index, taskRng(seed, index), p, stats);
}
