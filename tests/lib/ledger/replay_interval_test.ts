import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/load.ts";
import type { Severity } from "../../../lib/costs/severity.ts";
import {
  type LedgerColumns,
  ledgerColumns,
} from "../../../lib/ledger/columns.ts";
import type { LedgerEntry } from "../../../lib/ledger/record.ts";
import { replay } from "../../../lib/ledger/replay.ts";
import { type Prng, seededPrng } from "../../../lib/math/sampling.ts";

// A month whose served model answers HIGH and CRITICAL exceptions (and some
// clean LOW items) and states each answer's true error rate as its risk.
// Errors are misses. The cells are fixed; only the answers are random.
interface Cell {
  severity: Severity;
  trueClass: string;
  n: number;
  miss: number;
}
const CELLS: Cell[] = [
  { severity: "LOW", trueClass: "MATCH", n: 40, miss: 0.02 },
  { severity: "HIGH", trueClass: "AMOUNT_MISMATCH", n: 15, miss: 0.02 },
  { severity: "CRITICAL", trueClass: "FX_CONVERSION_ERROR", n: 5, miss: 0.01 },
];

function month(rng: Prng): LedgerColumns {
  const entries: LedgerEntry[] = [];
  let c = 0;
  for (const cell of CELLS) {
    for (let i = 0; i < cell.n; i++, c++) {
      const wrong = rng.next() < cell.miss;
      const predClass = cell.trueClass === "MATCH"
        ? (wrong ? "DUPLICATE" : "MATCH")
        : (wrong ? "MATCH" : cell.trueClass);
      entries.push({
        seq: entries.length + 1,
        prev: "",
        hash: "",
        record: {
          kind: "decision",
          id: `d${c}`,
          at: "2026-03-01T09:00:00Z",
          risk: cell.miss,
          expectedLoss: null,
          profile: null,
          policyRevision: null,
          modelRevision: null,
          promptHash: null,
          served: true,
          decision: {
            runId: "m",
            modelId: "m",
            taskId: `t${c}`,
            trial: 0,
            severity: cell.severity,
            trueClass: cell.trueClass,
            predClass,
            parseOk: true,
            pCorrect: null,
            action: "auto",
            cost: { completeness: "unavailable", usd: null },
            outcome: "resolved",
          },
        },
      });
    }
  }
  return ledgerColumns(entries, { path: "<seeded month>" });
}

Deno.test("replay() default interval covers the true loss difference of a threshold change in at least 93% of seeded months under principal_risk; the former bootstrap does not", () => {
  const profile = getProfile("principal_risk");
  // escalate HIGH and CRITICAL (risk 0.02 and 0.01 > 0.005): each escalated
  // case costs a review instead of miss × K(severity) in expectation
  const threshold = { LOW: 1, MEDIUM: 1, HIGH: 0.005, CRITICAL: 0.005 };
  let truth = 0;
  for (const cell of CELLS.slice(1)) {
    truth += cell.n *
      (profile.reviewCost - cell.miss * profile.K[cell.severity]);
  }
  const runs = 150;
  let hits = 0;
  let bootHits = 0;
  for (let r = 0; r < runs; r++) {
    const cols = month(seededPrng(1000 + r));
    for (const interval of ["auto", "bootstrap"] as const) {
      const d = replay(cols, { threshold }, {
        profile,
        resamples: 300,
        seed: r,
        diff: false,
        interval,
      }).difference;
      const hit = d.lo! <= truth && truth <= d.hi!;
      if (interval === "auto") hits += hit ? 1 : 0;
      else bootHits += hit ? 1 : 0;
    }
  }
  assert.ok(hits / runs >= 0.93, `default covered ${hits / runs}`);
  // with no CRITICAL miss among 5 cases (95% of months), every resample shows none
  assert.ok(bootHits / runs < 0.5, `bootstrap covered ${bootHits / runs}`);
});

Deno.test("replay() default difference names its method, test and estimand, and an unchanged policy gives exactly 0", () => {
  const cols = month(seededPrng(3));
  const profile = getProfile("reconciliation");
  const d = replay(cols, {
    threshold: { LOW: 1, MEDIUM: 1, HIGH: 0.005, CRITICAL: 0.005 },
  }, {
    profile,
    diff: false,
  }).difference;
  assert.equal(d.interval, "auto");
  assert.match(d.method, /fay-feuer/);
  assert.match(d.test, /^sign-flip permutation/);
  assert.match(d.estimand, /conditional on which cases change/);
  const same = replay(cols, { threshold: "recorded" }, { profile, diff: false })
    .difference;
  assert.deepEqual([same.estimate, same.lo, same.hi, same.pValue], [
    0,
    0,
    0,
    1,
  ]);
  assert.throws(
    // @ts-expect-error: an unknown method
    () => replay(cols, { threshold: 0.5 }, { interval: "wald" }),
    /interval must be auto or bootstrap, got "wald"/,
  );
});
