/**
 * Cost reconciliation: the one path by which an attempt's cost evidence is
 * decided, from its envelope or its kind.
 *
 * @module
 */

import type { AttemptSignals } from "./attempt_signals.ts";
import { type CostEvidence, isCostEvidence } from "./cost_evidence.ts";
import { checkSignals } from "./_check_signals.ts";

const UNAVAILABLE: CostEvidence = { completeness: "unavailable", usd: null };

/**
 * Decide an attempt's cost evidence from its signals.
 *
 * The evidence semantics of `yylo-benchmark` (docs/sources.md): cost comes only from a valid execution envelope
 * (present, and from the requested provider, model and version); "no log
 * line, no model prose, and no partial output can supply a number". So:
 * a local step (deterministic script, synthetic transport; no provider
 * child) is `not_applicable`; a model step with no valid envelope, or whose
 * envelope has no cost, is `unavailable` with `usd: null`; an envelope cost
 * is accepted only when its completeness is one of the four literals and its
 * amount pairs legally with it (a number >= 0 for complete and partial, null
 * for the other two), and anything else degrades to `unavailable`. The class
 * of the attempt does not matter: a cancelled attempt with a valid envelope
 * keeps the cost it observed. Never throws on what the candidate wrote; a
 * complete 0 stays a complete 0.
 *
 * @param signals The attempt's terminal signals (only the kind, the
 * requested identity and the envelope are read).
 * @returns The cost evidence.
 * @throws {TypeError} When the signals themselves are malformed (as
 * `classifyAttempt()`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reconcileCost } from "./reconcile_cost.ts";
 *
 * const requested = { provider: "acme", model: "alpha", version: "2026-01" };
 * const at = (cost: unknown) =>
 *   reconcileCost({ requested, envelope: { identity: requested, cost }, exit: "clean" });
 * assert.deepEqual(at({ completeness: "complete", usd: 0 }), { completeness: "complete", usd: 0 });
 * assert.deepEqual(at({ completeness: "estimated", usd: 0.2 }), { completeness: "unavailable", usd: null });
 * assert.deepEqual(reconcileCost({ requested, envelope: null, exit: "clean" }).usd, null);
 * assert.equal(reconcileCost({ kind: "local", exit: "clean" }).completeness, "not_applicable");
 * ```
 */
export function reconcileCost(signals: AttemptSignals): CostEvidence {
  const { local, validEnvelope } = checkSignals(
    signals,
    "reconcile attempt cost",
  );
  if (local) return { completeness: "not_applicable", usd: null };
  if (validEnvelope === null) return UNAVAILABLE;
  const cost = validEnvelope.cost;
  if (!isCostEvidence(cost)) return UNAVAILABLE;
  // Copy only the two fields: extra keys in the envelope are not evidence.
  return { completeness: cost.completeness, usd: cost.usd } as CostEvidence;
}
