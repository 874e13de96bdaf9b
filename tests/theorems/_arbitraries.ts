// Shared fast-check arbitraries for the theorem tests: random run exports
// described by per-severity counts of each kind of decision, expanded into
// sufficient statistics or into decision records.
import fc from "fast-check";
import { SEVERITIES, type Severity } from "../../lib/costs/severity.ts";
import type { StatsRow } from "../../lib/metrics/sufficient_stats.ts";
import type { Decision } from "../../lib/decision/decision.ts";

/**
 * Fixed seed for every theorem: fast-check prints it with the shrunk
 * counterexample and its path when a property fails; rerun with both to
 * reproduce.
 */
export const FC = { seed: 20_261_105, numRuns: 200 } as const;

/** How many decisions of each kind a model makes at one severity. */
export interface SeverityCounts {
  /** Right answers, acted on automatically. */
  readonly correct: number;
  /** Exceptions predicted clean, automatically. */
  readonly missed: number;
  /** Exceptions given another exception class, automatically. */
  readonly wrongType: number;
  /** Clean items flagged as an exception, automatically. */
  readonly falseAlarm: number;
  /** Decisions sent to review (answered right). */
  readonly escalatedRight: number;
  /** Decisions sent to review (answered wrong). */
  readonly escalatedWrong: number;
}

/** A model's decisions: counts per severity. */
export type Pattern = Readonly<Record<Severity, SeverityCounts>>;

/** Options of {@linkcode patternArb}. */
export interface PatternOptions {
  /** Allow escalations. Default: false. */
  escalation?: boolean;
  /** Allow wrong types and false alarms (errors that are not misses). Default: true. */
  otherErrors?: boolean;
  /** Largest count per kind. Default: 12. */
  max?: number;
}

/** A random decision pattern for one model; never empty. */
export function patternArb(
  options: PatternOptions = {},
): fc.Arbitrary<Pattern> {
  const max = options.max ?? 12;
  const k = fc.integer({ min: 0, max });
  const none = fc.constant(0);
  const counts = fc.record({
    correct: k,
    missed: k,
    wrongType: options.otherErrors === false ? none : k,
    falseAlarm: options.otherErrors === false ? none : k,
    escalatedRight: options.escalation ? k : none,
    escalatedWrong: options.escalation ? k : none,
  });
  return fc.record({
    LOW: counts,
    MEDIUM: counts,
    HIGH: counts,
    CRITICAL: counts,
  }).filter((p) => total(p) > 0);
}

/** Decisions in a pattern. */
export function total(p: Pattern): number {
  return SEVERITIES.reduce(
    (sum, s) =>
      sum + Object.values(p[s]).reduce((a: number, b: number) => a + b, 0),
    0,
  );
}

/** Random models: 2 to `maxModels` patterns keyed m0, m1, ... */
export function modelsArb(
  options: PatternOptions & { minModels?: number; maxModels?: number } = {},
): fc.Arbitrary<Record<string, Pattern>> {
  return fc.array(patternArb(options), {
    minLength: options.minModels ?? 2,
    maxLength: options.maxModels ?? 5,
  }).map((ps) => Object.fromEntries(ps.map((p, i) => [`m${i}`, p])));
}

interface Kind {
  readonly trueClass: (s: Severity) => string;
  readonly predClass: (s: Severity) => string;
  readonly action: "auto" | "escalate";
}

const KINDS: Readonly<Record<keyof SeverityCounts, Kind>> = {
  correct: {
    trueClass: (s) => `X_${s}`,
    predClass: (s) => `X_${s}`,
    action: "auto",
  },
  missed: {
    trueClass: (s) => `X_${s}`,
    predClass: () => "MATCH",
    action: "auto",
  },
  wrongType: {
    trueClass: (s) => `X_${s}`,
    predClass: (s) => `Y_${s}`,
    action: "auto",
  },
  falseAlarm: {
    trueClass: () => "MATCH",
    predClass: (s) => `X_${s}`,
    action: "auto",
  },
  escalatedRight: {
    trueClass: (s) => `X_${s}`,
    predClass: (s) => `X_${s}`,
    action: "escalate",
  },
  escalatedWrong: {
    trueClass: (s) => `X_${s}`,
    predClass: () => "MATCH",
    action: "escalate",
  },
};

/** Sufficient statistics of the models' patterns. */
export function statsOf(models: Readonly<Record<string, Pattern>>): StatsRow[] {
  const rows: StatsRow[] = [];
  for (const [modelId, p] of Object.entries(models)) {
    for (const severity of SEVERITIES) {
      for (const [kind, spec] of Object.entries(KINDS)) {
        const n = p[severity][kind as keyof SeverityCounts];
        if (n === 0) continue;
        rows.push({
          modelId,
          severity,
          trueClass: spec.trueClass(severity),
          predClass: spec.predClass(severity),
          action: spec.action,
          n,
          pErrorSum: 0,
          pMissing: n,
          parseFailures: 0,
        });
      }
    }
  }
  return rows;
}

/** The same models as decision records, one per decision, as a run export would hold them. */
export function decisionsOf(
  models: Readonly<Record<string, Pattern>>,
): Decision[] {
  const out: Decision[] = [];
  for (const row of statsOf(models)) {
    for (let i = 0; i < row.n; i++) {
      out.push({
        runId: "theorem",
        modelId: row.modelId,
        taskId:
          `${row.severity}-${row.trueClass}-${row.predClass}-${row.action}-${i}`,
        trial: 0,
        severity: row.severity,
        trueClass: row.trueClass,
        predClass: row.predClass,
        parseOk: true,
        pCorrect: null,
        action: row.action,
        cost: { completeness: "unavailable", usd: null },
        outcome: row.trueClass === row.predClass ? "resolved" : "model_failure",
      });
    }
  }
  return out;
}

/** A cost that is a short decimal, as written in a profile: 0.001 to 1,000,000. */
export const costArb: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ min: 1, max: 1000 }),
  fc.integer({ min: 1, max: 1_000_000 }).map((k) => k / 1000),
  fc.constantFrom(0.2, 0.1, 1, 10, 50, 1000, 100_000),
);

/**
 * Add a twin of the first model: its counts doubled and moved one severity
 * up the ladder. Its accuracy equals the first model's exactly while its
 * errors sit elsewhere, so a flat profile must tie the two.
 */
export function withTwin(
  models: Readonly<Record<string, Pattern>>,
): Record<string, Pattern> {
  const first = Object.values(models)[0];
  const twin = Object.fromEntries(SEVERITIES.map((s, i) => {
    const from = first[SEVERITIES[(i + 3) % 4]];
    return [
      s,
      Object.fromEntries(
        Object.entries(from).map(([k, v]) => [k, 2 * (v as number)]),
      ),
    ];
  })) as unknown as Pattern;
  return { ...models, twin };
}
