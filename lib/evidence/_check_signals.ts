// Private: check the shape of attempt signals (they may come from plain
// JavaScript or parsed JSON) and find the valid envelope, if any.
import {
  type AttemptSignals,
  CANDIDATE_EXITS,
  type CandidateExit,
} from "./attempt_signals.ts";
import {
  type ExecutionEnvelope,
  isModelIdentity,
  type ModelIdentity,
  sameIdentity,
} from "./envelope.ts";

/** What the checks found. */
export interface CheckedSignals {
  /** The attempt is a local step (no provider child). */
  readonly local: boolean;
  /** The envelope when present and from the requested identity, else `null`. */
  readonly validEnvelope: ExecutionEnvelope | null;
}

function show(v: unknown): string {
  return v === undefined ? "nothing" : JSON.stringify(v);
}

/**
 * Check `signals`, throwing a TypeError whose message starts with
 * `Cannot <action>: `, and say whether a valid envelope is present.
 */
export function checkSignals(
  signals: AttemptSignals,
  action: string,
): CheckedSignals {
  const fail = (what: string, got: unknown): never => {
    throw new TypeError(`Cannot ${action}: ${what}, got ${show(got)}`);
  };
  if (signals === null || typeof signals !== "object") {
    fail("signals must be an object", signals);
  }
  const s = signals as unknown as Record<string, unknown>;
  for (const name of ["cancelled", "timedOut"]) {
    if (s[name] !== undefined && typeof s[name] !== "boolean") {
      fail(`${name} must be true or false`, s[name]);
    }
  }
  if (!CANDIDATE_EXITS.includes(s.exit as CandidateExit)) {
    fail(`exit must be one of ${CANDIDATE_EXITS.join(", ")}`, s.exit);
  }
  if (
    s.grade !== undefined && s.grade !== null && s.grade !== "pass" &&
    s.grade !== "fail"
  ) {
    fail('grade must be "pass", "fail" or null', s.grade);
  }
  if (s.kind === "local") {
    if ("envelope" in s || "requested" in s) {
      fail(
        "a local step spawns no provider child, so it has no envelope or requested identity",
        { requested: s.requested, envelope: s.envelope },
      );
    }
    return { local: true, validEnvelope: null };
  }
  if (s.kind !== undefined && s.kind !== "model") {
    fail('kind must be "model" or "local"', s.kind);
  }
  if (!isModelIdentity(s.requested)) {
    fail(
      "requested must be an identity with non-empty provider, model and version",
      s.requested,
    );
  }
  if (s.envelope === undefined) {
    fail(
      "envelope must be an envelope, or null when none was found",
      undefined,
    );
  }
  const envelope = s.envelope as ExecutionEnvelope | null;
  if (
    envelope !== null &&
    (typeof envelope !== "object" || !isModelIdentity(envelope.identity))
  ) {
    fail(
      "envelope.identity must have non-empty provider, model and version",
      typeof envelope === "object" ? envelope.identity : envelope,
    );
  }
  const valid = envelope !== null &&
    sameIdentity(envelope.identity, s.requested as ModelIdentity);
  return { local: false, validEnvelope: valid ? envelope : null };
}
