// Agreement with scikit-learn (Debian's python3-sklearn at /usr/bin/python3)
// on the same data: calibration_curve with both binning strategies,
// brier_score_loss and cohen_kappa_score. The conventions are documented in
// scripts/sklearn_agreement.ts. Without scikit-learn the comparison is
// skipped with a message, and the convention checks that need no Python
// still run.
import assert from "node:assert/strict";
import { binEdges, binIndex } from "../../../lib/calibration/mod.ts";
import {
  compareWithSklearn,
  sklearnUnavailable,
} from "../../../scripts/sklearn_agreement.ts";

const unavailable = sklearnUnavailable();
if (unavailable !== null) {
  console.warn(
    `skipping the scikit-learn agreement test: ${unavailable}`,
  );
}

Deno.test({
  name: unavailable === null
    ? "reliabilityDiagram(), brierScore() and cohensKappa() agree with scikit-learn 1.x on the same data"
    : `reliabilityDiagram(), brierScore() and cohensKappa() agree with scikit-learn (skipped: ${unavailable})`,
  ignore: unavailable !== null,
  async fn() {
    const a = await compareWithSklearn();
    for (const c of a.curves) {
      if (c.expectSameBins) {
        // equal-width vs "uniform": same right-closed rule, same bins, same numbers;
        // equal-mass vs "quantile" on distinct values with n a multiple of B: same bins
        assert.ok(
          c.sameBins,
          `${c.name}: ${c.lossbookCounts} vs ${c.sklearnCounts}`,
        );
        assert.ok(c.maxDifference! < 1e-12, `${c.name}: ${c.maxDifference}`);
      }
    }
    // with heavy ties the percentile edges of "quantile" give unequal bins;
    // lossbook's equal-mass bins stay as equal as the ties allow
    const tied = a.curves.find((c) => c.name.includes("heavy ties"))!;
    assert.equal(tied.sameBins, false);
    const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
    assert.ok(spread(tied.lossbookCounts) < spread(tied.sklearnCounts));
    for (const b of a.brier) {
      assert.ok(Math.abs(b.lossbook - b.sklearn) < 1e-12);
    }
    for (const k of a.kappa) {
      assert.ok(Math.abs(k.lossbook - k.sklearn) < 1e-12);
    }
  },
});

Deno.test("binEdges() equal-width edges are i/B; numpy's linspace edges differ only in the last bit", () => {
  const edges = binEdges([], { bins: 10 });
  // np.linspace(0, 1, 11)[3] == 0.30000000000000004 while 3/10 == 0.3: a
  // probability of exactly 0.3 goes to bin 2 under both conventions; only the
  // double between them, 0.30000000000000004, goes to bin 3 here and bin 2 there
  assert.equal(edges[3], 0.3);
  assert.equal(binIndex(edges, 0.3), 2);
  assert.equal(binIndex(edges, 0.30000000000000004), 3);
  // numpy.linspace(0, 1, B + 1) computes i·(1/B) and sets the last edge to 1;
  // on every six-decimal probability both edge sets give the same bin
  for (const bins of [10, 15, 20]) {
    const mine = binEdges([], { bins });
    const numpy = Array.from(
      { length: bins + 1 },
      (_, i) => (i === bins ? 1 : i * (1 / bins)),
    );
    for (let k = 0; k <= 1_000_000; k++) {
      const v = k / 1e6;
      if (binIndex(mine, v) !== binIndex(numpy, v)) {
        throw new Error(
          `${v} at ${bins} bins: ${binIndex(mine, v)} vs ${binIndex(numpy, v)}`,
        );
      }
    }
  }
});
