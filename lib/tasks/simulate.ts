/**
 * A seeded model simulator: realistic run exports without calling a model,
 * for notebooks, sweeps and benchmarks.
 *
 * @module
 */

import type { Severity } from "../costs/severity.ts";
import { beta, type Prng, seededPrng } from "../math/sampling.ts";
import { CLEAN_CLASS, type Decision } from "../decision/decision.ts";

/** How a simulated model states its confidence, given its true P(correct) p. */
export type ConfidenceModel =
  | { readonly kind: "calibrated" }
  | { readonly kind: "overconfident"; readonly strength: number }
  | { readonly kind: "underconfident"; readonly strength: number }
  | { readonly kind: "constant"; readonly value: number }
  | { readonly kind: "none" };

/** A simulated model: how often it errs, how it errs, and what it says about it. */
export interface SimulatedModel {
  /** Model id written into the decisions. */
  readonly id: string;
  /** One line on what the model stands for. */
  readonly label: string;
  /**
   * P(error) on exceptions by gold severity, and on clean items under
   * `clean`. A missing entry means 0.
   */
  readonly errorRate: Readonly<Partial<Record<Severity | "clean", number>>>;
  /**
   * Share of errors on exceptions that predict the clean class (misses); the
   * rest name another exception class of the same severity, when the suite
   * has one. Errors on clean items name an exception class (false alarms).
   */
  readonly missShare: number;
  /** How stated confidence relates to the true P(correct). */
  readonly confidence: ConfidenceModel;
  /**
   * Concentration of the per-decision P(correct) around 1 - errorRate: each
   * decision's p is drawn from Beta(c(1 - r), c r). Default: 30.
   */
  readonly concentration?: number;
  /** Escalate every decision instead of acting. Default: `false`. */
  readonly escalateAll?: boolean;
  /** Share of outputs that fail to parse (scored as the clean class). Default: 0. */
  readonly parseFailureRate?: number;
  /** Price of one decision in USD; `null` when the cost is not observed. Default: `null`. */
  readonly usdPerDecision?: number | null;
}

/** The part of a task the simulator needs. */
export interface SimTask {
  /** Task id. */
  readonly id: string;
  /** Gold answer: the exception class (`null` when clean) and the severity. */
  readonly gold: {
    readonly exceptionType: string | null;
    readonly severity: Severity;
  };
}

/** Options for {@linkcode simulateRun}. */
export interface SimulateOptions {
  /** Seed. Default: 0. */
  seed?: number;
  /** Run id. Default: `"sim-<model>-<seed>"`. */
  runId?: string;
}

/**
 * FNV-1a 32-bit hash of a string's UTF-16 code units: mixes a model id into
 * the seed so two models simulated with one seed draw independent streams.
 */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function stated(c: ConfidenceModel, p: number): number | null {
  switch (c.kind) {
    case "calibrated":
      return p;
    case "overconfident":
      return 1 - Math.pow(1 - p, c.strength);
    case "underconfident":
      return 0.5 + c.strength * (p - 0.5);
    case "constant":
      return c.value;
    case "none":
      return null;
  }
}

function checkModel(m: SimulatedModel): void {
  const where = `Cannot simulate model ${JSON.stringify(m.id)}`;
  for (const [k, r] of Object.entries(m.errorRate)) {
    if (!(r! >= 0 && r! <= 1)) {
      throw new RangeError(
        `${where}: errorRate.${k} must be in [0, 1], got ${r}`,
      );
    }
  }
  if (!(m.missShare >= 0 && m.missShare <= 1)) {
    throw new RangeError(
      `${where}: missShare must be in [0, 1], got ${m.missShare}`,
    );
  }
  const c = m.confidence;
  if (c.kind === "overconfident" && !(c.strength >= 1)) {
    throw new RangeError(
      `${where}: overconfident strength must be >= 1, got ${c.strength}`,
    );
  }
  if (c.kind === "underconfident" && !(c.strength >= 0 && c.strength <= 1)) {
    throw new RangeError(
      `${where}: underconfident strength must be in [0, 1], got ${c.strength}`,
    );
  }
  if (c.kind === "constant" && !(c.value >= 0 && c.value <= 1)) {
    throw new RangeError(
      `${where}: constant confidence must be in [0, 1], got ${c.value}`,
    );
  }
  const pf = m.parseFailureRate ?? 0;
  if (!(pf >= 0 && pf <= 1)) {
    throw new RangeError(
      `${where}: parseFailureRate must be in [0, 1], got ${pf}`,
    );
  }
  const conc = m.concentration ?? 30;
  if (!(conc > 0) || !Number.isFinite(conc)) {
    throw new RangeError(
      `${where}: concentration must be a finite number > 0, got ${conc}`,
    );
  }
}

function latentP(rng: Prng, r: number, concentration: number): number {
  if (r <= 0) return 1;
  if (r >= 1) return 0;
  return beta(rng, concentration * (1 - r), concentration * r);
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * Simulate one model answering a task suite: one decision per task.
 *
 * For each task in order, a latent P(correct) p is drawn from
 * Beta(c(1 - r), c r), where r is the model's error rate for the task's gold
 * severity (or for clean items), and the answer is right with probability p.
 * A wrong answer on an exception is a miss with probability `missShare`,
 * otherwise another exception class of the same severity drawn uniformly
 * from the suite's classes (a miss when there is none); a wrong answer on a
 * clean item names an exception class drawn uniformly. The stated pCorrect is
 * p passed through the confidence model, rounded to six decimals. Everything
 * is drawn from one xoroshiro128+ stream seeded with `seed` XOR the FNV-1a
 * hash of the model id, so the same suite, model and seed give the same
 * bytes, and two models with one seed draw independently.
 *
 * @param tasks The suite, in order.
 * @param model The simulated model.
 * @param options Seed and run id.
 * @returns One decision per task.
 * @throws {RangeError} When a model parameter is out of range.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { simulateRun, SIMULATED_MODELS } from "./simulate.ts";
 *
 * const tasks = Array.from({ length: 1000 }, (_, i) => ({
 *   id: `t${i}`,
 *   gold: { exceptionType: i % 2 ? "AMOUNT_MISMATCH" : null, severity: "HIGH" as const },
 * }));
 * const run = simulateRun(tasks, SIMULATED_MODELS.oracle, { seed: 1 });
 * assert.ok(run.every((d) => d.predClass === d.trueClass));
 * assert.deepEqual(simulateRun(tasks, SIMULATED_MODELS.frontier_even, { seed: 5 }),
 *   simulateRun(tasks, SIMULATED_MODELS.frontier_even, { seed: 5 }));
 * ```
 */
export function simulateRun(
  tasks: readonly SimTask[],
  model: SimulatedModel,
  options: SimulateOptions = {},
): Decision[] {
  checkModel(model);
  const seed = options.seed ?? 0;
  const runId = options.runId ?? `sim-${model.id}-${seed}`;
  const rng = seededPrng((seed ^ fnv1a(model.id)) >>> 0);
  const concentration = model.concentration ?? 30;
  const parseFailureRate = model.parseFailureRate ?? 0;
  const usd = model.usdPerDecision ?? null;
  const bySeverity = new Map<Severity, string[]>();
  const allClasses = new Set<string>();
  for (const t of tasks) {
    const cls = t.gold.exceptionType;
    if (cls === null) continue;
    allClasses.add(cls);
    const list = bySeverity.get(t.gold.severity) ?? [];
    if (!list.includes(cls)) list.push(cls);
    bySeverity.set(t.gold.severity, list);
  }
  for (const list of bySeverity.values()) list.sort();
  const exceptionClasses = [...allClasses].sort();
  const pick = (list: readonly string[]) =>
    list[Math.min(list.length - 1, Math.floor(rng.next() * list.length))];
  return tasks.map((t) => {
    const trueClass = t.gold.exceptionType ?? CLEAN_CLASS;
    const clean = t.gold.exceptionType === null;
    const base = {
      runId,
      modelId: model.id,
      taskId: t.id,
      trial: 0,
      severity: t.gold.severity,
      trueClass,
    };
    if (model.escalateAll) {
      return {
        ...base,
        predClass: CLEAN_CLASS,
        parseOk: true,
        pCorrect: null,
        action: "escalate" as const,
        cost: { completeness: "not_applicable" as const, usd: null },
        outcome: "resolved" as const,
      };
    }
    const cost = usd === null
      ? { completeness: "unavailable" as const, usd: null }
      : { completeness: "complete" as const, usd };
    if (parseFailureRate > 0 && rng.next() < parseFailureRate) {
      return {
        ...base,
        predClass: CLEAN_CLASS,
        parseOk: false,
        pCorrect: null,
        action: "auto" as const,
        cost,
        outcome: "model_failure" as const,
      };
    }
    const r = model.errorRate[clean ? "clean" : t.gold.severity] ?? 0;
    const p = latentP(rng, r, concentration);
    const right = rng.next() < p;
    let predClass = trueClass;
    if (!right) {
      if (clean) {
        predClass = exceptionClasses.length > 0
          ? pick(exceptionClasses)
          : CLEAN_CLASS;
      } else {
        const others = (bySeverity.get(t.gold.severity) ?? []).filter((c) =>
          c !== trueClass
        );
        predClass = others.length === 0 || rng.next() < model.missShare
          ? CLEAN_CLASS
          : pick(others);
      }
    }
    const s = stated(model.confidence, p);
    return {
      ...base,
      predClass,
      parseOk: true,
      pCorrect: s === null ? null : round6(s),
      action: "auto" as const,
      cost,
      outcome: predClass === trueClass
        ? "resolved" as const
        : "model_failure" as const,
    };
  });
}

/**
 * A small zoo with the shapes of the sources (`third-number`, `veto-frontier`):
 *
 * - `frontier_even`: a frontier-like model whose errors are spread evenly (2%
 *   at every severity, like Model A), over-confident, priced at $11.45 per
 *   145 tasks (Switchyard's frontier-only run);
 * - `small_severity_shaped`: a small fine-tune that almost never misses HIGH
 *   or CRITICAL (0.4%) but errs on 20% of MEDIUM and LOW (like Model B),
 *   calibrated, run locally at a genuine $0;
 * - `constant_confidence`: ReconForge's shape, 12% errors everywhere with the
 *   same stated confidence 0.9 on every answer;
 * - `always_escalate`: the baseline that sends everything to review;
 * - `oracle`: always right and certain.
 */
export const SIMULATED_MODELS: Readonly<Record<string, SimulatedModel>> = Object
  .freeze({
    frontier_even: {
      id: "frontier_even",
      label: "Frontier-like: 2% errors at every severity, over-confident",
      errorRate: {
        LOW: 0.02,
        MEDIUM: 0.02,
        HIGH: 0.02,
        CRITICAL: 0.02,
        clean: 0.002,
      },
      missShare: 0.7,
      confidence: { kind: "overconfident", strength: 3 },
      usdPerDecision: 11.45 / 145,
    },
    small_severity_shaped: {
      id: "small_severity_shaped",
      label:
        "Small fine-tune: 0.4% errors on HIGH/CRITICAL, 20% on MEDIUM/LOW, calibrated",
      errorRate: {
        LOW: 0.2,
        MEDIUM: 0.2,
        HIGH: 0.004,
        CRITICAL: 0.004,
        clean: 0.002,
      },
      missShare: 0.8,
      confidence: { kind: "calibrated" },
      usdPerDecision: 0,
    },
    constant_confidence: {
      id: "constant_confidence",
      label:
        "ReconForge-like: 12% errors everywhere, stated confidence always 0.9",
      errorRate: {
        LOW: 0.12,
        MEDIUM: 0.12,
        HIGH: 0.12,
        CRITICAL: 0.12,
        clean: 0.12,
      },
      missShare: 0.5,
      confidence: { kind: "constant", value: 0.9 },
    },
    always_escalate: {
      id: "always_escalate",
      label: "Baseline: every decision goes to human review",
      errorRate: {},
      missShare: 0,
      confidence: { kind: "none" },
      escalateAll: true,
    },
    oracle: {
      id: "oracle",
      label: "Oracle: always right and certain",
      errorRate: {},
      missShare: 0,
      confidence: { kind: "constant", value: 1 },
      usdPerDecision: 0,
    },
  });

/**
 * Write decisions as canonical JSONL: one object per line with the fields
 * in Decision order, a final newline, nothing else.
 *
 * @param decisions Decisions.
 * @returns The JSONL text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decisionsToJsonl } from "./simulate.ts";
 *
 * assert.equal(decisionsToJsonl([]), "");
 * ```
 */
export function decisionsToJsonl(decisions: readonly Decision[]): string {
  if (decisions.length === 0) return "";
  return decisions.map((d) =>
    JSON.stringify({
      runId: d.runId,
      modelId: d.modelId,
      taskId: d.taskId,
      trial: d.trial,
      severity: d.severity,
      trueClass: d.trueClass,
      predClass: d.predClass,
      parseOk: d.parseOk,
      pCorrect: d.pCorrect,
      action: d.action,
      cost: { completeness: d.cost.completeness, usd: d.cost.usd },
      outcome: d.outcome,
      ...(d.tokensIn === undefined ? {} : { tokensIn: d.tokensIn }),
      ...(d.tokensOut === undefined ? {} : { tokensOut: d.tokensOut }),
      ...(d.latencyMs === undefined ? {} : { latencyMs: d.latencyMs }),
    })
  ).join("\n") + "\n";
}
