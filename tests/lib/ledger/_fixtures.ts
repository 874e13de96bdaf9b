// Shared fixtures for the ledger tests: small hand-made records and a
// simulated month.
import { getProfile } from "../../../lib/costs/load.ts";
import type { Severity } from "../../../lib/costs/severity.ts";
import { ledgerText } from "../../../lib/ledger/chain.ts";
import type {
  DecisionRecord,
  LedgerRecord,
} from "../../../lib/ledger/record.ts";
import { thresholdPolicy } from "../../../lib/ledger/policy.ts";
import {
  type SimulatedMonth,
  simulateLedgerMonth,
} from "../../../lib/ledger/simulate_month.ts";
import { SIMULATED_MODELS } from "../../../lib/tasks/simulate.ts";

/** fast-check settings: a fixed seed, printed by fast-check on failure. */
export const FC = { seed: 20260307, numRuns: 100 };

/** A decision record with fields overridden. */
export function decisionRec(
  id: string,
  patch: {
    pred?: string;
    gold?: string | null;
    risk?: number | null;
    action?: "auto" | "escalate";
    severity?: Severity;
    model?: string;
    served?: boolean;
    task?: string;
    at?: string;
    usd?: number | null;
  } = {},
): DecisionRecord {
  const risk = patch.risk === undefined ? 0.1 : patch.risk;
  return {
    kind: "decision",
    id,
    at: patch.at ?? "2026-03-01T09:00:00Z",
    risk,
    expectedLoss: risk === null ? null : risk * 10,
    profile: "reconciliation@1",
    policyRevision: "rev-000000000000",
    modelRevision: "m@1",
    promptHash: null,
    served: patch.served ?? true,
    decision: {
      runId: "r",
      modelId: patch.model ?? "m",
      taskId: patch.task ?? id,
      trial: 0,
      severity: patch.severity ?? "HIGH",
      trueClass: patch.gold === undefined ? "AMOUNT_MISMATCH" : patch.gold,
      predClass: patch.pred ?? "AMOUNT_MISMATCH",
      parseOk: true,
      pCorrect: risk === null ? null : 1 - risk,
      action: patch.action ?? "auto",
      cost: patch.usd === null
        ? { completeness: "unavailable", usd: null }
        : { completeness: "complete", usd: patch.usd ?? 0.01 },
      outcome: "resolved",
    },
  };
}

/** Ten simple records: decisions d1..d10 on tasks t1..t10. */
export function tenRecords(): LedgerRecord[] {
  return Array.from({ length: 10 }, (_, i) => decisionRec(`d${i + 1}`));
}

/** Ledger text of records, as bytes, with its lines. */
export function ledgerBytes(records: readonly LedgerRecord[]): {
  bytes: Uint8Array;
  lines: string[];
  head: { seq: number; hash: string };
} {
  const l = ledgerText(records);
  return {
    bytes: new TextEncoder().encode(l.text),
    lines: l.text.split("\n").slice(0, -1),
    head: l.head,
  };
}

/** Lines joined back into ledger bytes. */
export function joinLines(lines: readonly string[], final = "\n"): Uint8Array {
  return new TextEncoder().encode(lines.join("\n") + final);
}

/** A small simulated month: 6 days of 150 cases, a shadow model. */
export function smallMonth(seed = 3): SimulatedMonth {
  return simulateLedgerMonth({
    start: "2026-03-01",
    days: 6,
    casesPerDay: 150,
    mix: { clean: 0.6, LOW: 0.15, MEDIUM: 0.1, HIGH: 0.1, CRITICAL: 0.05 },
    served: SIMULATED_MODELS.small_severity_shaped,
    shadows: [SIMULATED_MODELS.frontier_even],
    policy: thresholdPolicy("desk", 0.2, { slaHours: 24 }),
    profile: getProfile("reconciliation"),
    unresolvedShare: 0.1,
  }, { seed });
}
