// Private: a hand-written check of a parsed decision record, for the hot path
// of loading a large ledger. It accepts exactly what the zod schema accepts
// for decision records (a test pins this); anything else returns null and
// the caller re-runs zod for the precise message.
import type { DecisionRecord } from "./record.ts";
import { isTimestamp } from "./record.ts";
import { isDecisionShape } from "../decision/_fast_decision.ts";

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
// optional: written by new records, absent from records that predate it
const OPTIONAL_KEYS = new Set(["matrix"]);
const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
const id = (v: unknown) => typeof v === "string" && v.length > 0;
const nullableId = (v: unknown) => v === null || id(v);
const probability = (v: unknown) =>
  v === null || (typeof v === "number" && v >= 0 && v <= 1);

/** The value as a decision record when it is one exactly, otherwise `null`. */
export function fastDecisionRecord(value: unknown): DecisionRecord | null {
  if (!isObject(value) || value.kind !== "decision") return null;
  let keys = 0;
  for (const k in value) {
    if (OPTIONAL_KEYS.has(k)) {
      if (!nullableId(value[k])) return null;
      continue;
    }
    if (!RECORD_KEYS.has(k)) return null;
    keys++;
  }
  if (keys !== RECORD_KEYS.size) return null;
  const el = value.expectedLoss;
  if (
    !id(value.id) || typeof value.at !== "string" || !isTimestamp(value.at) ||
    !isDecisionShape(value.decision, { nullableGold: true }) ||
    !probability(value.risk) ||
    !(el === null ||
      (typeof el === "number" && Number.isFinite(el) && el >= 0)) ||
    !nullableId(value.profile) || !nullableId(value.policyRevision) ||
    !nullableId(value.modelRevision) || !nullableId(value.promptHash) ||
    typeof value.served !== "boolean"
  ) return null;
  return value as unknown as DecisionRecord;
}
