/**
 * The execution envelope: the one structured object on a candidate's stdout
 * that may carry the identity that answered and the cost it observed.
 *
 * @module
 */

/** Which provider, model and version answered (or were asked to). */
export interface ModelIdentity {
  /** Provider, for example `"acme"`. */
  readonly provider: string;
  /** Model name, for example `"alpha"`. */
  readonly model: string;
  /** Model version or revision, for example `"2026-01"`. */
  readonly version: string;
}

/**
 * An execution envelope as read from a candidate's stdout.
 *
 * `cost` is left as found (`undefined` when the envelope has none): it is
 * untrusted until `reconcileCost()` checks it.
 */
export interface ExecutionEnvelope {
  /** The identity the envelope says answered. */
  readonly identity: ModelIdentity;
  /** The cost object as written, not yet checked; `undefined` when absent. */
  readonly cost?: unknown;
}

function isNonEmptyString(v: unknown): v is string {
  return typeof v === "string" && v.length > 0;
}

/**
 * Whether a value is a model identity: an object whose `provider`, `model`
 * and `version` are non-empty strings.
 *
 * @param value Any value.
 * @returns `true` when `value` is a well-formed {@linkcode ModelIdentity}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isModelIdentity } from "./envelope.ts";
 *
 * assert.equal(isModelIdentity({ provider: "acme", model: "alpha", version: "2026-01" }), true);
 * assert.equal(isModelIdentity({ provider: "acme", model: "alpha" }), false);
 * ```
 */
export function isModelIdentity(value: unknown): value is ModelIdentity {
  if (value === null || typeof value !== "object") return false;
  const { provider, model, version } = value as Record<string, unknown>;
  return isNonEmptyString(provider) && isNonEmptyString(model) &&
    isNonEmptyString(version);
}

/**
 * Whether two identities name the same provider, model and version.
 *
 * All three fields must be equal as strings: an envelope from another
 * version of the requested model does not match (`yylo-benchmark`: harness
 * failure "when the envelope is missing or its identity does not match the
 * requested provider, model, and version").
 *
 * @param a One identity.
 * @param b The other.
 * @returns `true` when provider, model and version are all equal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sameIdentity } from "./envelope.ts";
 *
 * const asked = { provider: "acme", model: "alpha", version: "2026-01" };
 * assert.equal(sameIdentity(asked, { ...asked }), true);
 * assert.equal(sameIdentity(asked, { ...asked, version: "2025-12" }), false);
 * ```
 */
export function sameIdentity(a: ModelIdentity, b: ModelIdentity): boolean {
  return a.provider === b.provider && a.model === b.model &&
    a.version === b.version;
}

/**
 * Read the execution envelope from a candidate's stdout.
 *
 * The evidence semantics of `yylo-benchmark` (docs/sources.md): cost arrives "inside the public execution envelope,
 * parsed from the final structured object on the candidate's stdout —
 * progress logs before it are ignored, and nothing else is consulted". Here
 * stdout is read as lines; the last line that parses as a JSON object is the
 * final structured object. It is the envelope when its `identity` is a
 * {@linkcode ModelIdentity}; otherwise there is no valid envelope. Plain-text
 * lines (logs, model prose, a dollar figure in words) are never read. Cost is
 * O(length of stdout).
 *
 * @param stdout The candidate's standard output.
 * @returns The envelope, or `null` when no valid envelope is present.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readEnvelope } from "./envelope.ts";
 *
 * const out = 'step 1/2\n{"identity":{"provider":"acme","model":"alpha","version":"2026-01"},' +
 *   '"cost":{"completeness":"complete","usd":0.012}}\n';
 * assert.deepEqual(readEnvelope(out)?.cost, { completeness: "complete", usd: 0.012 });
 * assert.equal(readEnvelope("the call cost $0.07\n"), null);
 * ```
 */
export function readEnvelope(stdout: string): ExecutionEnvelope | null {
  if (typeof stdout !== "string") {
    throw new TypeError(
      `Cannot read execution envelope: stdout must be a string, got ${typeof stdout}`,
    );
  }
  const lines = stdout.split("\n");
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim();
    if (!line.startsWith("{")) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      continue;
    }
    // The final structured object decides: it is the envelope or there is none.
    const { identity, cost } = value as Record<string, unknown>;
    if (!isModelIdentity(identity)) return null;
    const id: ModelIdentity = {
      provider: identity.provider,
      model: identity.model,
      version: identity.version,
    };
    return cost === undefined ? { identity: id } : { identity: id, cost };
  }
  return null;
}
