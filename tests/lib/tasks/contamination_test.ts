import assert from "node:assert/strict";
import {
  contamination,
  DOMAINS,
  drawInt,
  generateSuite,
  maxSimilarity,
  NEAR_DUPLICATE_THRESHOLD,
  type Task,
  taskFeatures,
  taskRng,
} from "../../../lib/tasks/mod.ts";

/** Copy `k` evaluation tasks into a training split, renamed, at seeded positions. */
function leak(
  train: Task[],
  evalTasks: Task[],
  k: number,
  edit?: (t: Task) => Task,
): Task[] {
  const out = [...train];
  const rng = taskRng(99, 0);
  for (let i = 0; i < k; i++) {
    const src = evalTasks[i * Math.floor(evalTasks.length / k)];
    const copy = {
      ...(edit ? edit(src) : src),
      id: `train-copy-${i}`,
      seed: 1,
      index: 100_000 + i,
    };
    out.splice(drawInt(rng, 0, out.length), 0, copy);
  }
  return out;
}

/** A near copy: two fields changed, one only cosmetically. */
function perturb(t: Task): Task {
  const s = structuredClone(t.state) as unknown as Record<string, unknown>;
  switch (t.domain) {
    case "reconciliation": {
      const l = s.ledger as Record<string, string>;
      l.reference = l.reference.toLowerCase(); // cosmetic: normalises away
      l.amount = "1.00";
      l.bookingDate = "2020-01-01";
      break;
    }
    case "payment_repair":
      s.uetr = "00000000-0000-4000-8000-000000000000";
      s.remittanceInfo = "changed";
      break;
    default:
      s.tradeId = "FX000000001";
      s.asOf = "2020-01-01T00:00Z";
  }
  return { ...t, state: s as never };
}

for (const domain of DOMAINS) {
  const evalTasks = generateSuite(domain, { seed: 777, n: 300 }).tasks;
  const train = generateSuite(domain, { seed: 1, n: 1000 }).tasks;

  Deno.test(`contamination() detects no leak between clean ${domain} splits`, () => {
    const r = contamination(train, evalTasks);
    assert.equal(r.exact.count, 0);
    assert.equal(r.near.count, 0);
    assert.equal(r.exact.share, 0);
    // independent tasks stay well below the threshold
    assert.ok(maxSimilarity(train, evalTasks) < NEAR_DUPLICATE_THRESHOLD - 0.2);
  });

  Deno.test(`contamination() detects exactly the 10% of ${domain} eval tasks copied into train`, () => {
    const r = contamination(leak(train, evalTasks, 30), evalTasks);
    assert.equal(r.exact.count, 30);
    assert.equal(r.exact.share, 0.1);
    assert.equal(r.near.count, 0);
    assert.ok(r.exact.pairs.every((p) => p.trainId.startsWith("train-copy-")));
  });

  Deno.test(`contamination() finds ${domain} near copies that exact matching misses`, () => {
    const r = contamination(leak(train, evalTasks, 15, perturb), evalTasks);
    assert.equal(r.exact.count, 0);
    assert.equal(r.near.count, 15);
    assert.ok(
      r.near.pairs.every((p) =>
        p.similarity >= NEAR_DUPLICATE_THRESHOLD && p.similarity < 1
      ),
    );
  });
}

Deno.test("contamination() near-duplicate search agrees with brute force", () => {
  const a = generateSuite("settlement", { seed: 3, n: 120 }).tasks;
  const b = generateSuite("settlement", { seed: 4, n: 60 }).tasks;
  for (const t of [0.3, 0.35, 0.4]) {
    const fast = contamination(a, b, { threshold: t }).near.pairs.length;
    const sets = (ts: Task[]) => ts.map((x) => new Set(taskFeatures(x)));
    const sa = sets(a);
    const slow = sets(b).filter((x) =>
      sa.some((y) => {
        const shared = [...x].filter((f) => y.has(f)).length;
        return shared / (x.size + y.size - shared) >= t;
      })
    ).length;
    assert.equal(fast, slow, `threshold ${t}`);
  }
  assert.throws(() => contamination(a, b, { threshold: 0 }), RangeError);
  assert.equal(contamination(a, []).exact.share, null);
});
