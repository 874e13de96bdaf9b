import assert from "node:assert/strict";
import { getAnchor, SHIPPED_REGISTRY } from "../../../lib/costs/mod.ts";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import { seededPrng } from "../../../lib/math/sampling.ts";
import {
  drawRegistryProfiles,
  PAYMENTS_ANCHOR_MAP,
} from "../../../lib/sensitivity/registry_draws.ts";

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

Deno.test("drawRegistryProfiles() draws every slot within its anchor's [low, high]", () => {
  for (
    const distribution of [
      "log-uniform",
      "triangular",
      "log-triangular",
    ] as const
  ) {
    const draws = drawRegistryProfiles({ draws: 2000, distribution, seed: 11 });
    for (const s of SEVERITIES) {
      const a = getAnchor(SHIPPED_REGISTRY, PAYMENTS_ANCHOR_MAP.K[s]);
      assert.ok(
        draws.every((p) => p.K[s] >= a.low && p.K[s] <= a.high),
        `${distribution} ${s}`,
      );
    }
    const review = getAnchor(SHIPPED_REGISTRY, "false_positive_review");
    assert.ok(
      draws.every((p) =>
        p.reviewCost >= review.low && p.reviewCost <= review.high
      ),
    );
  }
});

Deno.test("drawRegistryProfiles() follows the documented distributions", () => {
  const n = 20_000;
  // log-uniform: the median is the geometric mean of low and high; settlement_failure 1e5..1e9 -> 1e7
  const lu = drawRegistryProfiles({ draws: n, seed: 3 }).map((p) =>
    p.K.CRITICAL
  );
  assert.ok(Math.abs(Math.log10(median(lu)) - 7) < 0.05);
  // triangular: the mean is (low + typical + high) / 3; chargeback 15, 40, 100 -> 51.67
  const tri = drawRegistryProfiles({
    draws: n,
    seed: 3,
    distribution: "triangular",
  }).map((p) => p.K.LOW);
  assert.ok(Math.abs(mean(tri) - 155 / 3) < 0.5);
  // log-triangular: the mean of log K is (log low + log typical + log high) / 3; misrouted_wire 1e6, 5e6, 1e7
  const lt = drawRegistryProfiles({
    draws: n,
    seed: 3,
    distribution: "log-triangular",
  }).map((p) => Math.log(p.K.HIGH));
  assert.ok(
    Math.abs(mean(lt) - (Math.log(1e6) + Math.log(5e6) + Math.log(1e7)) / 3) <
      0.01,
  );
});

Deno.test("drawRegistryProfiles() is seeded: the same seed gives the same draws, another seed others", () => {
  const a = drawRegistryProfiles({ draws: 50, seed: 9 });
  assert.deepEqual(a, drawRegistryProfiles({ draws: 50, prng: seededPrng(9) }));
  assert.notDeepEqual(a, drawRegistryProfiles({ draws: 50, seed: 10 }));
  assert.match(
    a[0].description!,
    /seed 9.*LOW from chargeback.*reviewCost from false_positive_review/,
  );
  assert.equal(a[0].id, "draw-00001");
});

Deno.test("drawRegistryProfiles() refuses bad counts, unknown distributions and anchors, and log draws from zero", () => {
  assert.throws(
    () => drawRegistryProfiles({ draws: -1 }),
    /draws must be an integer >= 0, got -1/,
  );
  assert.throws(
    () => drawRegistryProfiles({ distribution: "normal" as "triangular" }),
    /distribution must be one of log-uniform, triangular, log-triangular, got "normal"/,
  );
  assert.throws(
    () =>
      drawRegistryProfiles({
        mapping: {
          ...PAYMENTS_ANCHOR_MAP,
          K: { ...PAYMENTS_ANCHOR_MAP.K, LOW: "nope" },
        },
      }),
    /Cannot find cost anchor "nope"/,
  );
  const registry = {
    ...SHIPPED_REGISTRY,
    anchors: SHIPPED_REGISTRY.anchors.map((a) =>
      a.id === "chargeback" ? { ...a, low: 0 } : a
    ),
  };
  assert.throws(
    () => drawRegistryProfiles({ registry, draws: 1 }),
    /LOW from anchor "chargeback" on the log scale: its low is 0/,
  );
  assert.equal(
    drawRegistryProfiles({ registry, draws: 5, distribution: "triangular" })
      .length,
    5,
  );
});
