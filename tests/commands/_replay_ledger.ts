// A ledger of simulated days served by frontier_even under a 0.2 threshold
// policy, for the tests that replay it.
import { getProfile } from "../../lib/costs/load.ts";
import { thresholdPolicy } from "../../lib/ledger/policy.ts";
import { simulateLedgerMonth } from "../../lib/ledger/simulate_month.ts";
import { openLedger } from "../../lib/ledger/writer.ts";
import { SIMULATED_MODELS } from "../../lib/tasks/simulate.ts";
import { tempDir } from "../_helpers.ts";

/** Write the ledger (seed 4) to a fresh temporary folder and return its path. */
export async function simulatedLedger(
  days: number,
  casesPerDay: number,
): Promise<string> {
  const month = simulateLedgerMonth({
    start: "2026-03-01",
    days,
    casesPerDay,
    mix: { clean: 0.6, LOW: 0.15, MEDIUM: 0.15, HIGH: 0.1 },
    served: () => SIMULATED_MODELS.frontier_even,
    shadows: [],
    policy: thresholdPolicy("frontier_even", 0.2),
    profile: getProfile("reconciliation"),
  }, { seed: 4 });
  const path = `${await tempDir()}/month.jsonl`;
  {
    await using w = await openLedger(path);
    await w.append(month.records);
  }
  return path;
}
