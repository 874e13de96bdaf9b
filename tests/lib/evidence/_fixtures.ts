// Shared fixtures for the evidence tests: an identity and envelope builders.
import type {
  ExecutionEnvelope,
  ModelAttemptSignals,
  ModelIdentity,
} from "../../../lib/evidence/mod.ts";

/** The identity every model step below asks for. */
export const REQUESTED: ModelIdentity = {
  provider: "acme",
  model: "alpha",
  version: "2026-01",
};

/** An envelope from the requested identity carrying `cost`. */
export function envelope(cost?: unknown): ExecutionEnvelope {
  return cost === undefined
    ? { identity: REQUESTED }
    : { identity: REQUESTED, cost };
}

/** One stdout line holding an envelope (as JSON) for `identity` and `cost`. */
export function envelopeLine(
  cost?: unknown,
  identity: ModelIdentity = REQUESTED,
): string {
  return JSON.stringify(
    cost === undefined ? { identity } : { identity, cost },
  );
}

/** A model step with a valid envelope and a clean exit, patched. */
export function step(
  patch: Partial<ModelAttemptSignals> = {},
): ModelAttemptSignals {
  return {
    requested: REQUESTED,
    envelope: envelope(),
    exit: "clean",
    ...patch,
  };
}
