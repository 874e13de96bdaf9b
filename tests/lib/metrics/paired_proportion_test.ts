import assert from "node:assert/strict";
import {
  pairedBootstrap,
  type PairedRow,
} from "../../../lib/metrics/bootstrap.ts";
import { accuracy } from "../../../lib/metrics/accuracy.ts";
import { newcombePairedInterval } from "../../../lib/metrics/paired_proportion.ts";
import { multinomial, seededPrng } from "../../../lib/math/sampling.ts";

// Two models graded on the same 60 tasks, answering independently with true
// accuracies 0.97 (A) and 0.99 (B): the joint shares of (A right, B right),
// (A only), (B only), (neither), and the true difference -0.02. Discordant
// tasks are few (about 2.4 of 60), where a bootstrap is too narrow.
const PA = 0.97;
const PB = 0.99;
const JOINT = [PA * PB, PA * (1 - PB), (1 - PA) * PB, (1 - PA) * (1 - PB)];

function rows(k: number[]): PairedRow[] {
  const cells: [string, string][] = [
    ["X", "X"],
    ["X", "MATCH"],
    ["MATCH", "X"],
    ["MATCH", "MATCH"],
  ];
  return cells.flatMap(([predA, predB], i) =>
    k[i] === 0 ? [] : [{
      severity: "HIGH",
      trueClass: "X",
      predA,
      actionA: "auto",
      predB,
      actionB: "auto",
      n: k[i],
    }] as PairedRow[]
  );
}

Deno.test("newcombePairedInterval() covers the true accuracy difference in at least 93% of seeded 60-task pairs; the paired bootstrap does not", () => {
  const truth = PA - PB;
  const runs = 400;
  let hits = 0;
  let bootHits = 0;
  const rng = seededPrng(21);
  for (let r = 0; r < runs; r++) {
    const k = multinomial(rng, 60, JOINT);
    const ci = newcombePairedInterval({
      both: k[0],
      onlyA: k[1],
      onlyB: k[2],
      neither: k[3],
    });
    if (ci.lo! <= truth && truth <= ci.hi!) hits++;
    const b = pairedBootstrap(rows(k), (s) => accuracy(s).value, {
      resamples: 300,
      seed: r,
    });
    if (b.lo! <= truth && truth <= b.hi!) bootHits++;
  }
  assert.ok(hits / runs >= 0.93, `newcombe covered ${hits / runs}`);
  assert.ok(bootHits / runs < 0.9, `bootstrap covered ${bootHits / runs}`);
});

Deno.test("newcombePairedInterval() is symmetric when the discordant counts are equal, and swaps sign with the models", () => {
  const t = { both: 30, onlyA: 4, onlyB: 4, neither: 2 };
  const ci = newcombePairedInterval(t);
  assert.equal(ci.estimate, 0);
  assert.ok(Math.abs(ci.lo! + ci.hi!) < 1e-12);
  const a = newcombePairedInterval({
    both: 30,
    onlyA: 7,
    onlyB: 2,
    neither: 1,
  });
  const b = newcombePairedInterval({
    both: 30,
    onlyA: 2,
    onlyB: 7,
    neither: 1,
  });
  assert.ok(Math.abs(a.lo! + b.hi!) < 1e-12 && Math.abs(a.hi! + b.lo!) < 1e-12);
});

Deno.test("newcombePairedInterval() stays within [-1, 1], is null on no tasks and refuses bad counts", () => {
  const all = newcombePairedInterval({
    both: 0,
    onlyA: 5,
    onlyB: 0,
    neither: 0,
  });
  assert.equal(all.estimate, 1);
  assert.ok(all.lo! > 0 && all.hi === 1);
  const none = newcombePairedInterval({
    both: 0,
    onlyA: 0,
    onlyB: 0,
    neither: 0,
  });
  assert.deepEqual([none.estimate, none.lo, none.hi], [null, null, null]);
  assert.throws(
    () => newcombePairedInterval({ both: -1, onlyA: 0, onlyB: 0, neither: 0 }),
    /both must be a finite count >= 0, got -1/,
  );
});
