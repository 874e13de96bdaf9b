// Ledger benchmarks, each against a baseline measured in the same run:
//   - verify: the chain walk (one SHA-256 per line, links, positions) against
//     one SHA-256 over the same bytes, the floor any per-line verifier pays;
//   - cost curve: 100 thresholds by one sort and prefix sums against one
//     replay() per threshold.
//   deno task bench --only bench-ledger   (the ledger group, deno task bench
//   --only ledger, runs the 1,000,000-record version)
import { createHash } from "node:crypto";
import { getProfile } from "../lib/costs/load.ts";
import { ledgerText } from "../lib/ledger/chain.ts";
import { ledgerColumns } from "../lib/ledger/columns.ts";
import { thresholdPolicy } from "../lib/ledger/policy.ts";
import { costCurve, linearThresholds, replay } from "../lib/ledger/replay.ts";
import { simulateLedgerMonth } from "../lib/ledger/simulate_month.ts";
import { verifyLedger } from "../lib/ledger/verify.ts";
import { SIMULATED_MODELS } from "../lib/tasks/simulate.ts";

const profile = getProfile("reconciliation");
const month = simulateLedgerMonth({
  start: "2026-03-01",
  days: 10,
  casesPerDay: 2_000,
  mix: { clean: 0.7, LOW: 0.1, MEDIUM: 0.1, HIGH: 0.08, CRITICAL: 0.02 },
  served: SIMULATED_MODELS.small_severity_shaped,
  policy: thresholdPolicy("bench-desk", 0.15),
  profile,
}, { seed: 1 });
const ledger = ledgerText(month.records);
const bytes = new TextEncoder().encode(ledger.text);
const cols = ledgerColumns(ledger.entries);
const grid = linearThresholds(0, 1, { count: 100 });

Deno.bench({
  name: `one SHA-256 over the ${(bytes.length / 1e6).toFixed(1)} MB (floor)`,
  group: "verify",
  baseline: true,
  fn() {
    createHash("sha256").update(bytes).digest("hex");
  },
});

Deno.bench({
  name:
    `verifyLedger(): ${ledger.entries.length} lines, hash, link and position each`,
  group: "verify",
  fn() {
    if (!verifyLedger(bytes).valid) throw new Error("invalid");
  },
});

Deno.bench({
  name: `replay() once per threshold, 100 thresholds over ${cols.cases} cases`,
  group: "curve",
  baseline: true,
  fn() {
    for (const t of grid) {
      replay(cols, { threshold: t }, { profile, diff: false, resamples: 1 });
    }
  },
});

Deno.bench({
  name: "costCurve(): the same 100 thresholds, one sort and prefix sums",
  group: "curve",
  fn() {
    costCurve(cols, grid, { profile });
  },
});
