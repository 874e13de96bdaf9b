// Private: a hand-written check of a parsed decision record, for the hot path
// of loading a large ledger. It accepts exactly what the zod schema accepts
// for decision records (a test pins this); anything else returns null and
// the caller re-runs zod for the precise message.
import type { DecisionRecord } from "./record.ts";
import { isTimestamp } from "./record.ts";

const SEVERITY = new Set(["LOW", "MEDIUM", "HIGH", "CRITICAL"]);
const OUTCOME = new Set([
  "resolved",
  "model_failure",
  "safety_failure",
  "harness_failure",
  "environment_failure",
  "grader_failure",
  "invalid_case",
  "timeout",
  "cancelled",
]);
const RECORD_KEYS = new Set([
  "kind",
  "id",
  "at",
  "decision",
  "risk",
  "expectedLoss",
  "profile",
  "policyRevision",
  "modelRevision",
  "promptHash",
  "served",
]);
const DECISION_KEYS = new Set([
  "runId",
  "modelId",
  "taskId",
  "trial",
  "severity",
  "trueClass",
  "predClass",
  "parseOk",
  "pCorrect",
  "action",
  "cost",
  "outcome",
  "tokensIn",
  "tokensOut",
  "latencyMs",
]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const id = (v: unknown) => typeof v === "string" && v.length > 0;
const nullableId = (v: unknown) => v === null || id(v);
const count = (v: unknown) =>
  typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const probability = (v: unknown) =>
  v === null || (typeof v === "number" && v >= 0 && v <= 1);

function cost(v: unknown): boolean {
  if (!isObject(v)) return false;
  let keys = 0;
  for (const k in v) {
    if (k !== "completeness" && k !== "usd") return false;
    keys++;
  }
  if (keys !== 2) return false;
  const { completeness, usd } = v;
  if (completeness === "complete" || completeness === "partial") {
    return typeof usd === "number" && Number.isFinite(usd) && usd >= 0;
  }
  return (completeness === "unavailable" ||
    completeness === "not_applicable") && usd === null;
}

function decision(d: unknown): boolean {
  if (!isObject(d)) return false;
  let required = 0;
  for (const k in d) {
    if (!DECISION_KEYS.has(k)) return false;
    if (k !== "tokensIn" && k !== "tokensOut" && k !== "latencyMs") required++;
  }
  if (required !== 12) return false;
  if (
    !id(d.runId) || !id(d.modelId) || !id(d.taskId) || !count(d.trial) ||
    typeof d.severity !== "string" || !SEVERITY.has(d.severity) ||
    !nullableId(d.trueClass) || !id(d.predClass) ||
    typeof d.parseOk !== "boolean" || !probability(d.pCorrect) ||
    (d.action !== "auto" && d.action !== "escalate") || !cost(d.cost) ||
    typeof d.outcome !== "string" || !OUTCOME.has(d.outcome)
  ) return false;
  if (d.tokensIn !== undefined && !count(d.tokensIn)) return false;
  if (d.tokensOut !== undefined && !count(d.tokensOut)) return false;
  if (
    d.latencyMs !== undefined &&
    !(typeof d.latencyMs === "number" && d.latencyMs >= 0)
  ) return false;
  return true;
}

/** The value as a decision record when it is one exactly, otherwise `null`. */
export function fastDecisionRecord(value: unknown): DecisionRecord | null {
  if (!isObject(value) || value.kind !== "decision") return null;
  let keys = 0;
  for (const k in value) {
    if (!RECORD_KEYS.has(k)) return null;
    keys++;
  }
  if (keys !== RECORD_KEYS.size) return null;
  const el = value.expectedLoss;
  if (
    !id(value.id) || typeof value.at !== "string" || !isTimestamp(value.at) ||
    !decision(value.decision) || !probability(value.risk) ||
    !(el === null ||
      (typeof el === "number" && Number.isFinite(el) && el >= 0)) ||
    !nullableId(value.profile) || !nullableId(value.policyRevision) ||
    !nullableId(value.modelRevision) || !nullableId(value.promptHash) ||
    typeof value.served !== "boolean"
  ) return null;
  return value as unknown as DecisionRecord;
}
