import assert from "node:assert/strict";
import { cltInterval } from "../../../lib/metrics/clt_interval.ts";

Deno.test("cltInterval() with weights equals the interval of the expanded values", () => {
  const expanded = [0, 0, 0, 1, 1, 5, 5, 5, 5, 20];
  const a = cltInterval(expanded);
  const b = cltInterval([0, 1, 5, 20], { weights: [3, 2, 4, 1] });
  assert.ok(Math.abs(a.se! - b.se!) < 1e-12);
  assert.ok(Math.abs(a.lo! - b.lo!) < 1e-12 && Math.abs(a.hi! - b.hi!) < 1e-12);
});

Deno.test("cltInterval() clustered on singletons is the unclustered SE times sqrt((n - 1) / n)", () => {
  const x = [3, 1, 4, 1, 5, 9, 2, 6];
  const plain = cltInterval(x);
  const clustered = cltInterval(x, { clusters: x.map((_, i) => i) });
  assert.ok(Math.abs(clustered.se! - plain.se! * Math.sqrt(7 / 8)) < 1e-12);
  assert.equal(clustered.method, "clustered clt");
});

Deno.test("cltInterval() widens when identical trials are clustered by task", () => {
  // each task's score appears on three trials: clustering by task must widen the SE
  const tasks = [0, 1, 0, 0, 1, 1, 0, 1, 1, 0];
  const x = tasks.flatMap((v) => [v, v, v]);
  const clusters = tasks.flatMap((_, i) => [i, i, i]);
  assert.ok(cltInterval(x, { clusters }).se! > 1.5 * cltInterval(x).se!);
});

Deno.test("cltInterval() total scales the mean and its SE by n", () => {
  const m = cltInterval([1, 2, 3]);
  const t = cltInterval([1, 2, 3], { total: true });
  assert.ok(
    Math.abs(t.estimate! - 6) < 1e-12 && Math.abs(t.se! - 3 * m.se!) < 1e-12,
  );
});

Deno.test("cltInterval() refuses a mismatched weight column and a level outside (0, 1)", () => {
  assert.throws(() => cltInterval([1, 2], { weights: [1] }), TypeError);
  assert.throws(() => cltInterval([1, 2], { level: 1 }), RangeError);
});
