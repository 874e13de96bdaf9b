import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/load.ts";
import type { PairedRow } from "../../../lib/metrics/bootstrap.ts";
import { planSampleSize } from "../../../lib/metrics/sample_size.ts";
import { multinomial, seededPrng } from "../../../lib/math/sampling.ts";
import { signFlipTest } from "../../../lib/metrics/sign_flip.ts";

const high = {
  severity: "HIGH",
  trueClass: "X",
  actionA: "auto",
  actionB: "auto",
} as const;
const reconciliation = getProfile("reconciliation");

/** A pilot of HIGH tasks where A misses more often than B. */
function pilot(scale: number): PairedRow[] {
  return [
    { ...high, predA: "X", predB: "X", n: 70 * scale },
    { ...high, predA: "MATCH", predB: "X", n: 18 * scale },
    { ...high, predA: "X", predB: "MATCH", n: 8 * scale },
    { ...high, predA: "MATCH", predB: "MATCH", n: 4 * scale },
  ];
}

Deno.test("planSampleSize() power grows with the number of tasks on seeded data", () => {
  const sizes = [20, 40, 80, 160, 320, 640, 1280, 6000, 12000];
  const plan = planSampleSize(pilot(2), reconciliation, {
    at: sizes,
    maxTasks: 16,
    simulations: 300,
    powerSimulations: 300,
    seed: 3,
  });
  for (const key of ["power", "assurance"] as const) {
    const power = sizes.map((n) =>
      plan.powerAt.find((p) => p.tasks === n)![key]
    );
    for (let i = 1; i < power.length; i++) {
      assert.ok(power[i] >= power[i - 1], `${key} ${power} at ${sizes}`);
    }
    assert.ok(power[0] < 0.3 && power[power.length - 1] > 0.99, `${power}`);
  }
});

/**
 * plan's figures at one size, from 1,000 suites each, beside the sign-flip
 * test's rejection rate on 1,000 suites drawn directly from the pilot's shares.
 */
function planAndDirect(
  rows: PairedRow[],
  n: number,
  seeds: { plan: number; direct: number },
) {
  const sims = 1000;
  const plan = planSampleSize(rows, reconciliation, {
    at: [n],
    maxTasks: 16,
    simulations: sims,
    powerSimulations: sims,
    seed: seeds.plan,
  });
  const rng = seededPrng(seeds.direct);
  const total = rows.reduce((sum, r) => sum + r.n, 0);
  const shares = rows.map((r) => r.n / total);
  // loss of A minus loss of B per task: a HIGH miss costs K(HIGH) = 10
  const diff = [0, 10, -10, 0];
  let rejections = 0;
  for (let s = 0; s < sims; s++) {
    const k = multinomial(rng, n, shares);
    const t = signFlipTest(diff, { weights: k, resamples: 400, prng: rng });
    if (t.pValue <= 0.05) rejections++;
  }
  return {
    at: plan.powerAt.find((p) => p.tasks === n)!,
    direct: rejections / sims,
  };
}

Deno.test("planSampleSize() matches a direct simulation of the sign-flip test at one size", () => {
  // The power is the test's power on suites drawn from the pilot's shares;
  // a pilot of 200,000 tasks also pins the posterior to them, so the
  // assurance must equal it too.
  const { at, direct } = planAndDirect(pilot(2000), 150, {
    plan: 11,
    direct: 99,
  });
  // each estimate has a standard error of about 0.015: allow 4 of their difference
  for (const planned of [at.power, at.assurance]) {
    assert.ok(
      Math.abs(planned - direct) < 0.085,
      `planned ${planned}, direct ${direct}`,
    );
  }
});

Deno.test("planSampleSize() gives the power at a small pilot's own shares, and an assurance below it where the pilot is unsure", () => {
  // 100 tasks: the power is the test's at exactly these shares, whatever the
  // pilot's size; the assurance averages over shares the pilot cannot rule
  // out, some of which barely separate A from B.
  const { at, direct } = planAndDirect(pilot(1), 400, {
    plan: 12,
    direct: 98,
  });
  // standard errors of at most 0.016 each: 0.07 is over 3 of their difference
  assert.ok(
    Math.abs(at.power - direct) < 0.07,
    `power ${at.power}, direct ${direct}`,
  );
  assert.ok(at.assurance < at.power - 0.05, `${at.assurance} vs ${at.power}`);
});

Deno.test("planSampleSize() returns null tasksNeeded when no size up to maxTasks reaches the power", () => {
  // A and B give the same answer on every pilot task
  const same: PairedRow[] = [
    { ...high, predA: "X", predB: "X", n: 190 },
    { ...high, predA: "MATCH", predB: "MATCH", n: 10 },
  ];
  const plan = planSampleSize(same, reconciliation, {
    maxTasks: 500,
    simulations: 200,
    powerSimulations: 200,
    seed: 1,
  });
  assert.equal(plan.tasksNeeded, null);
  assert.equal(plan.powerAt[plan.powerAt.length - 1].tasks, 500);
  assert.ok(plan.powerAt.every((p) => p.power < 0.8));
});

Deno.test("planSampleSize() finds a size whose power reaches the target and one below it that does not", () => {
  const plan = planSampleSize(pilot(1), reconciliation, {
    simulations: 200,
    powerSimulations: 200,
    seed: 5,
  });
  const n = plan.tasksNeeded!;
  const at = new Map(plan.powerAt.map((p) => [p.tasks, p.power]));
  assert.ok(at.get(n)! >= 0.8);
  const below = plan.powerAt.filter((p) => p.tasks < n);
  assert.ok(below.length > 0 && below[below.length - 1].power < 0.8);
  // the search stops within 2% (or one task)
  const last = below[below.length - 1].tasks;
  assert.ok(n - last <= Math.max(1, 0.02 * last) + 1, `${last} -> ${n}`);
});

Deno.test("planSampleSize() is identical for the same seed and refuses an empty pilot", () => {
  const a = planSampleSize(pilot(1), reconciliation, {
    simulations: 100,
    powerSimulations: 100,
    seed: 7,
  });
  const b = planSampleSize(pilot(1), reconciliation, {
    simulations: 100,
    powerSimulations: 100,
    seed: 7,
  });
  assert.deepEqual(a, b);
  assert.throws(() => planSampleSize([], reconciliation), RangeError);
  assert.throws(
    () => planSampleSize(pilot(1), reconciliation, { power: 1 }),
    RangeError,
  );
  assert.throws(
    () => planSampleSize(pilot(1), reconciliation, { powerSimulations: 0 }),
    RangeError,
  );
});
