// Private to the ReconForge importer: ReconForge's own scoring rules, applied
// to a file's per_task records, so that the figures in the file's summary
// sections (`metrics`, `scoring`) can be checked against its records.
//
// The rules follow ReconForge's scorer (source key `reconforge`):
// - accuracy: a task is correct when the predicted verdict equals the
//   expected one and, on an exception task, the exception type is the
//   expected one; a parse miss (no prediction) is never correct;
// - verdict accuracy: the verdict alone, with a parse miss read as MATCH;
// - severity-weighted recall over exception tasks: a HIGH exception is caught
//   by any verdict other than MATCH (EXCEPTION of another type, or
//   ESCALATE); a MEDIUM or LOW exception only by its exact type, which an
//   ESCALATE verdict (no type) never has; a parse miss catches nothing;
// - exception-type accuracy counts the MEDIUM and LOW exact-type catches only
//   (ReconForge counts it inside the non-HIGH branch), over all exception
//   tasks;
// - confusion matrix: row = expected type or MATCH, column = MATCH for a MATCH
//   verdict or a parse miss, else the predicted type, `null` when there is
//   none (an ESCALATE verdict);
// - escalations: ReconForge counts an ESCALATE verdict only on an exception
//   task (its count sits after the skip of clean tasks), so its escalation
//   precision is 1 whenever it escalated at all, and 0 (over 1) otherwise;
// - ECE of the self-consistency confidence, 10 equal-width bins.

import { RECONFORGE_CLASS_WEIGHTS } from "../metrics/reconforge.ts";

/** A ReconForge verdict, as its parser normalises it. */
export interface RfVerdict {
  readonly verdict: "MATCH" | "EXCEPTION" | "ESCALATE";
  readonly exception_type: string | null;
  readonly severity: "LOW" | "MEDIUM" | "HIGH";
  readonly confidence?: number | null;
  readonly reason?: string;
  readonly resolution?: string;
}

/** One per_task record, validated. */
export interface RfTask {
  readonly task_id: string | number;
  readonly expected: {
    readonly verdict: "MATCH" | "EXCEPTION";
    readonly exception_type: string | null;
    readonly severity: "LOW" | "MEDIUM" | "HIGH";
  };
  /** `null` for a parse miss (missing or null in the file). */
  readonly predicted: RfVerdict | null;
  readonly self_consistency_confidence?: number | null;
  readonly samples?: readonly (RfVerdict | null)[];
  readonly raw_empty?: boolean;
}

/** ReconForge's figures, recomputed from per_task. */
export interface RfScores {
  /** Tasks scored. */
  readonly n: number;
  /** Tasks whose verdict matches the gold verdict. */
  readonly correct: number;
  /** `correct / n`. */
  readonly accuracy: number;
  /** Tasks whose output parsed. */
  readonly parsed: number;
  /** `parsed / n`. */
  readonly parseRate: number;
  /** Tasks whose output did not parse. */
  readonly parseMisses: number;
  /** Tasks with an empty response. */
  readonly emptyResponses: number;
  /** Accuracy of the match/exception verdict alone. */
  readonly verdictAccuracy: number;
  /** Tasks whose gold verdict is an exception. */
  readonly exceptionTasks: number;
  /** Accuracy of the exception type on those. */
  readonly exceptionTypeAccuracy: number;
  /** ReconForge's severity-weighted recall. */
  readonly severityWeightedRecall: number;
  /** Recall of exceptions per severity; null where there are none. */
  readonly recallBySeverity: Readonly<
    Record<"HIGH" | "MEDIUM" | "LOW", number | null>
  >;
  /** Gold verdict by predicted verdict counts. */
  readonly confusion: Readonly<
    Record<string, Readonly<Record<string, number>>>
  >;
  /** Share of escalations that were exceptions. */
  readonly escalationPrecision: number;
  /** Tasks escalated. */
  readonly escalations: number;
  /** `null` when some task has no self-consistency confidence. */
  readonly eceSelfConsistency: number | null;
  /** Unparsed samples over all tasks; `null` when some task has no samples. */
  readonly parseFailSamples: number | null;
}

/** ReconForge's accuracy predicate for one task. */
export function rfCorrect(t: RfTask): boolean {
  const p = t.predicted;
  if (p === null) return false;
  if (p.verdict !== t.expected.verdict) return false;
  const type = t.expected.exception_type;
  return type === null || p.exception_type === type;
}

/** ReconForge's caught predicate for one exception task. */
export function rfCaught(t: RfTask): boolean {
  const p = t.predicted;
  const verdict = p === null ? "MATCH" : p.verdict;
  if (t.expected.severity === "HIGH") return verdict !== "MATCH";
  return p !== null && p.exception_type === t.expected.exception_type;
}

function ece(conf: readonly number[], ok: readonly boolean[]): number {
  const bins = 10;
  const sum = new Array<number>(bins).fill(0);
  const hits = new Array<number>(bins).fill(0);
  const count = new Array<number>(bins).fill(0);
  conf.forEach((c, i) => {
    const b = Math.max(0, Math.min(bins - 1, Math.trunc(c * bins)));
    sum[b] += c;
    hits[b] += ok[i] ? 1 : 0;
    count[b]++;
  });
  const total = Math.max(conf.length, 1);
  let e = 0;
  for (let b = 0; b < bins; b++) {
    if (count[b] === 0) continue;
    e += (count[b] / total) * Math.abs(hits[b] / count[b] - sum[b] / count[b]);
  }
  return e;
}

/** Recompute ReconForge's summary figures from validated per_task records. */
export function reconforgeScores(tasks: readonly RfTask[]): RfScores {
  const n = tasks.length;
  let correct = 0, parsed = 0, empty = 0, verdictOk = 0;
  let exceptions = 0, typeOk = 0, weightSum = 0, caughtWeight = 0;
  let escalations = 0;
  const bySev = {
    HIGH: { k: 0, n: 0 },
    MEDIUM: { k: 0, n: 0 },
    LOW: { k: 0, n: 0 },
  };
  const confusion: Record<string, Record<string, number>> = {};
  const conf: number[] = [];
  const ok: boolean[] = [];
  let allConf = true;
  let failSamples: number | null = 0;
  for (const t of tasks) {
    const p = t.predicted;
    if (p !== null) parsed++;
    if (t.raw_empty === true) empty++;
    const right = rfCorrect(t);
    if (right) correct++;
    const verdict = p === null ? "MATCH" : p.verdict;
    if (verdict === t.expected.verdict) verdictOk++;
    const row = t.expected.verdict === "MATCH"
      ? "MATCH"
      : t.expected.exception_type!;
    const col = verdict === "MATCH" ? "MATCH" : String(p!.exception_type);
    confusion[row] ??= {};
    confusion[row][col] = (confusion[row][col] ?? 0) + 1;
    if (typeof t.self_consistency_confidence === "number") {
      conf.push(t.self_consistency_confidence);
      ok.push(right);
    } else allConf = false;
    if (failSamples !== null) {
      failSamples = t.samples === undefined
        ? null
        : failSamples + t.samples.filter((s) => s === null).length;
    }
    if (t.expected.verdict === "MATCH") continue;
    exceptions++;
    const caught = rfCaught(t);
    const sev = bySev[t.expected.severity];
    sev.n++;
    if (caught) {
      sev.k++;
      if (t.expected.severity !== "HIGH") typeOk++;
    }
    const w = RECONFORGE_CLASS_WEIGHTS[t.expected.exception_type!];
    weightSum += w;
    if (caught) caughtWeight += w;
    if (verdict === "ESCALATE") escalations++;
  }
  const rate = (s: { k: number; n: number }) => s.n === 0 ? null : s.k / s.n;
  return {
    n,
    correct,
    accuracy: n === 0 ? 0 : correct / n,
    parsed,
    parseRate: n === 0 ? 0 : parsed / n,
    parseMisses: n - parsed,
    emptyResponses: empty,
    verdictAccuracy: verdictOk / Math.max(n, 1),
    exceptionTasks: exceptions,
    exceptionTypeAccuracy: typeOk / Math.max(exceptions, 1),
    severityWeightedRecall: caughtWeight / Math.max(weightSum, 1e-12),
    recallBySeverity: {
      HIGH: rate(bySev.HIGH),
      MEDIUM: rate(bySev.MEDIUM),
      LOW: rate(bySev.LOW),
    },
    confusion,
    escalationPrecision: escalations / Math.max(escalations, 1),
    escalations,
    eceSelfConsistency: allConf ? ece(conf, ok) : null,
    parseFailSamples: failSamples,
  };
}
