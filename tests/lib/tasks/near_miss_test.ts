import assert from "node:assert/strict";
import {
  DOMAINS,
  generateSuite,
  nearMissSignals,
  type ReconciliationState,
  taskClass,
} from "../../../lib/tasks/mod.ts";

const LEVELS = [0, 0.25, 0.5, 0.75, 1];

Deno.test("nearMissSignals() finds more near-miss tasks as difficulty rises, in every domain", () => {
  for (const domain of DOMAINS) {
    const shares: number[] = [];
    const means: number[] = [];
    for (const d of LEVELS) {
      const tasks =
        generateSuite(domain, { seed: 11, n: 400, difficulty: d }).tasks;
      const signals = tasks.map((t) => nearMissSignals(t).length);
      shares.push(signals.filter((k) => k > 0).length / tasks.length);
      means.push(signals.reduce((a, b) => a + b, 0) / tasks.length);
    }
    for (let i = 1; i < LEVELS.length; i++) {
      assert.ok(shares[i] >= shares[i - 1], `${domain}: share ${shares}`);
      assert.ok(means[i] > means[i - 1], `${domain}: mean signals ${means}`);
    }
    assert.ok(
      shares[0] < 0.25 && shares[4] > 0.95,
      `${domain}: share ${shares}`,
    );
  }
});

// A careless reconciler: compares raw strings, no tolerance, no weekend roll,
// no BIC or name normalisation. Difficulty should hurt it.
function naive(s: ReconciliationState): string {
  const l = s.ledger;
  const st = s.statement;
  if (st === null) return "MISSING_MESSAGE";
  if (
    s.priorBookings.some((p) =>
      p.reference === l.reference && p.amount === l.amount
    )
  ) return "DUPLICATE";
  if (st.currency !== l.currency) {
    return s.fxRate === null ? "FX_CONVERSION_ERROR" : "MATCH";
  }
  if (st.amount !== l.amount) return "AMOUNT_MISMATCH";
  if (st.beneficiaryName !== l.beneficiaryName) return "BENEFICIARY_MISMATCH";
  if (st.counterpartyBic !== l.counterpartyBic) return "COUNTERPARTY_MISMATCH";
  if (st.reference !== l.reference) return "PARTIAL_MATCH";
  if (st.valueDate !== l.valueDate) return "VALUE_DATE_MISMATCH";
  return "MATCH";
}

Deno.test("difficulty lowers the accuracy of a naive string-comparing reconciler", () => {
  const acc = LEVELS.map((d) => {
    const tasks =
      generateSuite("reconciliation", { seed: 12, n: 500, difficulty: d })
        .tasks;
    return tasks.filter((t) =>
      naive(t.state as ReconciliationState) === taskClass(t)
    ).length / tasks.length;
  });
  for (let i = 1; i < acc.length; i++) {
    assert.ok(acc[i] < acc[i - 1], `accuracy by difficulty ${acc}`);
  }
  assert.ok(acc[0] - acc[4] > 0.3, `accuracy by difficulty ${acc}`);
});

Deno.test("nearMissSignals() names the edge a hand-made task sits on", () => {
  const e = {
    reference: "INV-2024-001234",
    amount: "100.00",
    currency: "EUR",
    counterpartyBic: "DEUTDEFF",
    beneficiaryName: "Acme Trading",
    valueDate: "2024-03-09",
    bookingDate: "2024-03-09",
  };
  const state = {
    ledger: e,
    statement: {
      ...e,
      amount: "100.05",
      counterpartyBic: "DEUTDEFFXXX",
      valueDate: "2024-03-11",
    },
    fxRate: null,
    priorBookings: [],
  };
  assert.deepEqual(
    nearMissSignals({ domain: "reconciliation", state }).sort(),
    [
      "amount-at-tolerance",
      "bic-variant",
      "weekend-date",
    ],
  );
});
