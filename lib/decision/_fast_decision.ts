// Private: a hand-written check of one parsed JSONL line against the Decision
// schema, for the hot path. It accepts exactly what `decisionSchema` accepts
// (a property test pins this); on anything it does not accept, the caller
// re-runs zod to produce the precise error message.
import type { Decision } from "./decision.ts";
import { isPCorrectSource } from "./pcorrect_source.ts";
import { DECISION_KEYS, REQUIRED_KEYS } from "./decision.ts";
import { SEVERITIES } from "../costs/severity.ts";
import { FAILURE_CLASSES } from "../evidence/cost_evidence.ts";

const SEVERITY = new Set<string>(SEVERITIES);
const OUTCOME = new Set<string>(FAILURE_CLASSES);
const REQUIRED = REQUIRED_KEYS;
const KEYS = new Set<string>(DECISION_KEYS);
const OPTIONAL = new Set<string>(DECISION_KEYS.slice(REQUIRED_KEYS));

function id(v: unknown): boolean {
  return typeof v === "string" && v.length > 0;
}

function count(v: unknown): boolean {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
}

function cost(v: unknown): boolean {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  let keys = 0;
  for (const k in v) {
    if (k !== "completeness" && k !== "usd") return false;
    keys++;
  }
  if (keys !== 2) return false;
  const { completeness, usd } = v as { completeness: unknown; usd: unknown };
  if (completeness === "complete" || completeness === "partial") {
    return typeof usd === "number" && Number.isFinite(usd) && usd >= 0;
  }
  return (completeness === "unavailable" ||
    completeness === "not_applicable") && usd === null;
}

/** Options for {@linkcode isDecisionShape}. */
export interface DecisionShapeOptions {
  /** Accept `trueClass: null` (a ledger decision not yet labelled). Default: `false`. */
  nullableGold?: boolean;
}

/** Whether a parsed value has exactly the Decision shape (see the module note). */
export function isDecisionShape(
  value: unknown,
  options: DecisionShapeOptions = {},
): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return false;
  }
  const d = value as Record<string, unknown>;
  let required = 0;
  for (const k in d) {
    if (!KEYS.has(k)) return false;
    if (!OPTIONAL.has(k)) required++;
  }
  if (required !== REQUIRED) return false;
  const p = d.pCorrect;
  const gold = d.trueClass;
  if (
    !id(d.runId) || !id(d.modelId) || !id(d.taskId) || !count(d.trial) ||
    typeof d.severity !== "string" || !SEVERITY.has(d.severity) ||
    !(id(gold) || (options.nullableGold === true && gold === null)) ||
    !id(d.predClass) ||
    typeof d.parseOk !== "boolean" ||
    !(p === null || (typeof p === "number" && p >= 0 && p <= 1)) ||
    (d.action !== "auto" && d.action !== "escalate") || !cost(d.cost) ||
    typeof d.outcome !== "string" || !OUTCOME.has(d.outcome)
  ) return false;
  if (d.tokensIn !== undefined && !count(d.tokensIn)) return false;
  if (d.tokensOut !== undefined && !count(d.tokensOut)) return false;
  if (
    d.latencyMs !== undefined &&
    !(typeof d.latencyMs === "number" && Number.isFinite(d.latencyMs) &&
      d.latencyMs >= 0)
  ) return false;
  if (
    d.pCorrectSource !== undefined && d.pCorrectSource !== null &&
    !isPCorrectSource(d.pCorrectSource)
  ) return false;
  if (d.answer !== undefined && typeof d.answer !== "string") return false;
  if (d.target !== undefined && typeof d.target !== "string") return false;
  return true;
}

/** The value as a Decision when it is one exactly, otherwise `null`. */
export function fastDecision(value: unknown): Decision | null {
  return isDecisionShape(value) ? value as Decision : null;
}
