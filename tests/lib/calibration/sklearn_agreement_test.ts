// Agreement with scikit-learn (Debian's python3-sklearn at /usr/bin/python3)
// on the same data: calibration_curve with both binning strategies,
// brier_score_loss, cohen_kappa_score, IsotonicRegression on tied
// probabilities and numpy.linspace edges. The conventions are documented in
// scripts/sklearn_agreement.ts. Without scikit-learn the comparison is
// skipped with a message, and the convention checks that need no Python
// still run.
import assert from "node:assert/strict";
import {
  binEdges,
  binIndex,
  equalWidthEdges,
} from "../../../lib/calibration/mod.ts";
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
    ? "reliabilityDiagram(), brierScore(), cohensKappa(), fitIsotonic() and equalWidthEdges() agree with scikit-learn 1.x and numpy on the same data"
    : `reliabilityDiagram(), brierScore(), cohensKappa(), fitIsotonic() and equalWidthEdges() agree with scikit-learn and numpy (skipped: ${unavailable})`,
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
    // IsotonicRegression on tied probabilities: the same map
    for (const c of a.isotonic) {
      assert.ok(c.maxDifference < 1e-12, `${c.name}: ${c.maxDifference}`);
    }
    // numpy.linspace edges, bit for bit, at every bin count compared
    assert.deepEqual(a.linspace.different, []);
  },
});

Deno.test("equalWidthEdges() equals numpy's linspace(0, 1, B + 1) bit for bit: i·(1/B), the last edge 1", () => {
  // numpy/core/function_base.py linspace: step = (stop - start) / div with
  // div = num - 1; y = arange(num) * step + start; y[-1] = stop
  const linspace = (b: number) => {
    const step = (1 - 0) / b;
    return Array.from(
      { length: b + 1 },
      (_, i) => (i === b ? 1 : i * step + 0),
    );
  };
  for (let b = 1; b <= 1000; b++) {
    const mine = binEdges([], { bins: b });
    const numpy = linspace(b);
    assert.equal(mine.length, b + 1);
    mine.forEach((e, i) =>
      assert.ok(
        Object.is(e, numpy[i]),
        `${b} bins, edge ${i}: ${e} vs ${numpy[i]}`,
      )
    );
  }
  // at B = 10, edge 3 is 0.30000000000000004, not 3/10 = 0.3: a probability of
  // 0.30000000000000004 lies on the edge and goes to the lower bin, as in scikit-learn
  const edges = equalWidthEdges(10);
  assert.equal(edges[3], 0.30000000000000004);
  assert.notEqual(edges[3], 3 / 10);
  assert.equal(binIndex(edges, 0.3), 2);
  assert.equal(binIndex(edges, 0.30000000000000004), 2);
  assert.equal(binIndex(edges, 0.3000000000000001), 3);
});
