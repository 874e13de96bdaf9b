import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/load.ts";
import { profileSpan } from "../../../lib/costs/profile.ts";
import {
  costFamily,
  familyProfile,
  logGrid,
} from "../../../lib/sensitivity/cost_family.ts";

Deno.test("costFamily() on the flat base makes r the span, and r = 1 the flat profile", () => {
  const family = costFamily(getProfile("flat"));
  for (const r of [1, 5.8, 250, 100_000]) {
    assert.equal(profileSpan(familyProfile(family, r)), r);
  }
  assert.deepEqual(familyProfile(family, 1).K, getProfile("flat").K);
  // LossBench's default: reconciliation with HIGH and CRITICAL scaled; span 250 r.
  assert.equal(profileSpan(familyProfile(costFamily(), 4)), 1000);
  assert.equal(familyProfile(costFamily(), 4).reviewCost, 1);
});

Deno.test("costFamily() and familyProfile() refuse unknown, repeated or no severities and bad ratios", () => {
  assert.throws(
    () => costFamily(undefined, { scaled: [] }),
    /at least one severity, got \[\]/,
  );
  assert.throws(
    () => costFamily(undefined, { scaled: ["HUGE" as "HIGH"] }),
    /unknown severity "HUGE"/,
  );
  assert.throws(
    () => costFamily(undefined, { scaled: ["HIGH", "HIGH"] }),
    /repeats a severity/,
  );
  assert.throws(
    () => familyProfile(costFamily(), -1),
    /r must be a finite number >= 0, got -1/,
  );
  assert.throws(() => familyProfile(costFamily(), Infinity), /got Infinity/);
  assert.deepEqual(
    costFamily(undefined, { scaled: ["CRITICAL", "LOW"] }).scaled,
    ["LOW", "CRITICAL"],
  );
});

Deno.test("logGrid() spaces points evenly on the log scale and keeps both ends exactly", () => {
  const g = logGrid({ from: 1, to: 100_000, points: 61 });
  assert.equal(g.length, 61);
  assert.deepEqual([g[0], g[12], g[24], g[60]], [1, 10, 100, 100_000]);
  for (let i = 1; i < g.length; i++) {
    assert.ok(Math.abs(Math.log10(g[i] / g[i - 1]) - 1 / 12) < 1e-9);
  }
  assert.deepEqual(logGrid({ from: 3, to: 3, points: 1 }), [3]);
  assert.throws(
    () => logGrid({ from: 0 }),
    /from must be a finite number > 0, got 0/,
  );
  assert.throws(
    () => logGrid({ from: 10, to: 1 }),
    /to must be a finite number >= from \(10\), got 1/,
  );
  assert.throws(
    () => logGrid({ points: 1 }),
    /points must be an integer >= 2, got 1/,
  );
});
