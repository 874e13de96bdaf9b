// Private: the check of one parsed JSONL line against the Decision schema
// (lib/decision/schema.ts) without zod, for the hot path. It accepts exactly
// what `decisionSchema` accepts (a property test pins this); on anything it
// does not accept, the caller re-runs zod to produce the precise error.
import type { Decision } from "./decision.ts";
import {
  DECISION_FIELDS,
  DECISION_KEYS,
  type DecisionField,
  keyPath,
  REQUIRED_KEYS,
  satisfies,
} from "./schema.ts";

const KEYS = new Set<string>(DECISION_KEYS);
const OPTIONAL = new Set<string>(
  DECISION_FIELDS.filter((f) => !f.required).map((f) => keyPath(f.key).head),
);

/** A field's place in a record: its top-level key, and its inner key if nested. */
interface Slot {
  readonly field: DecisionField;
  readonly head: string;
  readonly inner: string | null;
  /** For a `when` null rule: the slot of the column it names. */
  tag: Slot | null;
}

const SLOTS: readonly Slot[] = DECISION_FIELDS.map((field) => {
  const { head, member } = keyPath(field.key);
  return { field, head, inner: member, tag: null };
});
for (const s of SLOTS) {
  const n = s.field.nulls;
  if (n.reads === "when") {
    s.tag = SLOTS.find((t) => t.field.column === n.column)!;
  }
}

function valueAt(value: Record<string, unknown>, s: Slot): unknown {
  const outer = value[s.head];
  return s.inner === null ? outer : (outer as Record<string, unknown>)[s.inner];
}

/** Nested keys and the inner keys each must have, exactly. */
const GROUPS: ReadonlyMap<string, readonly string[]> = (() => {
  const groups = new Map<string, string[]>();
  for (const s of SLOTS) {
    if (s.inner !== null) {
      (groups.get(s.head) ?? groups.set(s.head, []).get(s.head)!).push(s.inner);
    }
  }
  return groups;
})();

/** Options for {@linkcode isDecisionShape}. */
export interface DecisionShapeOptions {
  /** Accept `trueClass: null` (a ledger decision not yet labelled). Default: `false`. */
  nullableGold?: boolean;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function hasExactly(
  v: Record<string, unknown>,
  keys: readonly string[],
): boolean {
  let n = 0;
  for (const k in v) {
    if (!keys.includes(k)) return false;
    n++;
  }
  return n === keys.length;
}

/** Whether a parsed value has exactly the Decision shape (see the module note). */
export function isDecisionShape(
  value: unknown,
  options: DecisionShapeOptions = {},
): boolean {
  if (!isObject(value)) return false;
  let required = 0;
  for (const k in value) {
    if (!KEYS.has(k)) return false;
    if (!OPTIONAL.has(k)) required++;
  }
  if (required !== REQUIRED_KEYS) return false;
  for (const [head, inner] of GROUPS) {
    const g = value[head];
    if (!isObject(g) || !hasExactly(g, inner)) return false;
  }
  for (const slot of SLOTS) {
    const field = slot.field;
    const v = valueAt(value, slot);
    if (v === undefined) {
      if (field.required) return false;
      continue;
    }
    const n = field.nulls;
    const nullWhen = n.reads === "when" &&
      n.values.includes(valueAt(value, slot.tag!) as string);
    if (v === null) {
      if (n.reads === "value" || nullWhen) continue;
      if (options.nullableGold === true && field.key === "trueClass") continue;
      return false;
    }
    if (nullWhen || !satisfies(field.rule, v)) return false;
  }
  return true;
}

/** The value as a Decision when it is one exactly, otherwise `null`. */
export function fastDecision(value: unknown): Decision | null {
  return isDecisionShape(value) ? value as Decision : null;
}
