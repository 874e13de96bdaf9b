// Reciprocal rank fusion, the margin lattice and the certified threshold.
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  certificationOverhead,
  certifiedThreshold,
  marginThreshold,
  reciprocalRankFusion,
  rrfErosionBound,
  rrfMargin,
  rrfMarginLattice,
  rrfScore,
  rrfWorstErosion,
  simulateSkillCatalog,
} from "../../../lib/policy/mod.ts";

const FC = { seed: 20_261_205, numRuns: 200, verbose: 1 } as const;

function permutations(n: number): number[][] {
  if (n === 1) return [[1]];
  const out: number[][] = [];
  for (const p of permutations(n - 1)) {
    for (let i = 0; i <= p.length; i++) {
      out.push([...p.slice(0, i), n, ...p.slice(i)]);
    }
  }
  return out;
}

Deno.test("rrfMarginLattice() attainable maximum equals the brute-force maximum over every pair of rankings", () => {
  for (const n of [3, 4, 5]) {
    for (const k of [1, 60]) {
      const perms = permutations(n);
      let best = -Infinity;
      for (const a of perms) {
        for (const b of perms) {
          // item i has rank a[i] in one ranker and b[i] in the other
          const scores = a.map((r, i) => 1 / (k + r) + 1 / (k + b[i])).sort((
            x,
            y,
          ) => y - x);
          best = Math.max(best, scores[0] - scores[1]);
        }
      }
      const l = rrfMarginLattice({ candidates: n, k });
      assert.ok(
        Math.abs(best - l.maxMarginAttainable) < 1e-15,
        `N=${n} k=${k}: ${best} vs ${l.maxMarginAttainable}`,
      );
      assert.ok(l.maxMarginAttainable < l.maxMarginBound);
    }
  }
});

Deno.test("rrfMarginLattice() reproduces the Veto Frontier's figures at k = 60, N = 2,000", () => {
  const l = rrfMarginLattice();
  // the-veto-frontier: "the maximum margin is 0.0318"
  assert.ok(Math.abs(l.maxMarginBound - 0.0318) < 5e-5);
  // the-veto-frontier: "the margin of the top two, adjacent in both rankers, is 0.00053"
  assert.ok(Math.abs(l.adjacentTop2 - 0.00053) < 5e-6);
  assert.ok(Math.abs(l.adjacentTop2 - l.smallestUndisputedMargin) < 1e-17);
  assert.ok(
    Math.abs(l.maxMarginAttainable - (2 / 61 - 1 / 62 - 1 / 2060)) < 1e-15,
  );
  // "a one-position rank movement cuts the RRF margin by about one two-thousandth"
  assert.ok(Math.abs(l.erosionPerRank - 1 / 2000) < 5e-5);
});

Deno.test("rrfWorstErosion() is the exact worst case of independent dense-rank moves and stays under 2d/(k+1)²", () => {
  for (const k of [1, 10, 60]) {
    const n = 25;
    const g = (r: number) => 1 / (k + r);
    for (const d of [0, 1, 2, 3, 5]) {
      let worst = 0;
      for (let b1 = 1; b1 <= n; b1++) {
        for (let b2 = 1; b2 <= n; b2++) {
          if (b1 === b2) continue;
          for (let d1 = -d; d1 <= d; d1++) {
            for (let d2 = -d; d2 <= d; d2++) {
              const c1 = b1 + d1, c2 = b2 + d2;
              if (c1 < 1 || c1 > n || c2 < 1 || c2 > n) continue;
              worst = Math.max(worst, g(b1) - g(c1) + g(c2) - g(b2));
            }
          }
        }
      }
      assert.ok(
        Math.abs(worst - rrfWorstErosion(d, { k })) < 1e-15,
        `k=${k} d=${d}`,
      );
      assert.ok(worst <= rrfErosionBound(d, { k }));
    }
  }
  // one position erases exactly the adjacent top-2 margin
  assert.ok(
    Math.abs(rrfWorstErosion(1) - rrfMarginLattice().adjacentTop2) < 1e-17,
  );
});

Deno.test("reciprocalRankFusion() scores each item by Σ 1/(k + rank) and orders ties by id", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 2, max: 12 }),
      fc.integer({ min: 0, max: 1000 }),
      (n, seed) => {
        const ids = Array.from({ length: n }, (_, i) => `s${i}`);
        const shuffled = [...ids].sort((a, b) =>
          ((a.charCodeAt(1) * 31 + seed) % 17) -
            ((b.charCodeAt(1) * 31 + seed) % 17) || (a < b ? -1 : 1)
        );
        const fused = reciprocalRankFusion([ids, shuffled]);
        for (const f of fused) {
          assert.ok(Math.abs(f.score - rrfScore(f.ranks as number[])) < 1e-15);
        }
        for (let i = 1; i < fused.length; i++) {
          assert.ok(
            fused[i - 1].score > fused[i].score ||
              (fused[i - 1].score === fused[i].score &&
                fused[i - 1].id < fused[i].id),
          );
        }
        assert.ok(rrfMargin(fused)! >= 0);
      },
    ),
    FC,
  );
  assert.throws(
    () => reciprocalRankFusion([["a", "a"]]),
    /ranking 0 lists "a" twice/,
  );
  assert.equal(rrfMargin(reciprocalRankFusion([["a"]])), null);
});

Deno.test("certificationOverhead() never exceeds ρ(b)·C_e", () => {
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: 0, max: 0.0328, noNaN: true }), {
        maxLength: 200,
      }),
      fc.double({ min: 0, max: 0.01, noNaN: true }),
      fc.integer({ min: 0, max: 30 }),
      fc.double({ min: 0, max: 5, noNaN: true }),
      (margin, tStar, rankShift, ce) => {
        const o = certificationOverhead(margin, { tStar, rankShift, ce });
        assert.ok(o.holds && o.overhead <= o.bound + 1e-15);
        assert.equal(o.threshold, Math.max(tStar, o.erosion));
      },
    ),
    FC,
  );
  assert.equal(
    certifiedThreshold({ tStar: 0.01, rankShift: 1 }).binding,
    "calibration",
  );
});

Deno.test("simulateSkillCatalog(): no query served above the certified threshold changes its top skill under quantisation", () => {
  const run = simulateSkillCatalog({ queries: 600, seed: 3 });
  for (const q of run.quantised) {
    const delta = rrfErosionBound(q.maxRankShift);
    let flipsCertified = 0;
    let flipsBelow = 0;
    for (let i = 0; i < run.queries; i++) {
      if (run.margin[i] > delta) flipsCertified += q.top1Changed[i];
      else flipsBelow += q.top1Changed[i];
    }
    assert.equal(flipsCertified, 0, `${q.bits} bits`);
    // quantisation does flip some uncertified queries
    if (q.bits <= 8) assert.ok(flipsBelow > 0, `${q.bits} bits`);
  }
  // margins live on the lattice: never above the attainable maximum
  assert.ok(
    Math.max(...run.margin) <= rrfMarginLattice().maxMarginAttainable + 1e-15,
  );
});

Deno.test("marginThreshold() finds where the isotonic posterior of error crosses p*", () => {
  const run = simulateSkillCatalog({ queries: 800, seed: 4, bits: [] });
  const t = marginThreshold(run.margin, run.error, { pStar: 0.12 });
  assert.ok(t.tStar > 0 && t.tStar < 0.01);
  // among queries at or above t*, the router is right more often than 1 − p*
  let k = 0, e = 0;
  for (let i = 0; i < run.queries; i++) {
    if (run.margin[i] >= t.tStar) {
      k++;
      e += run.error[i];
    }
  }
  assert.ok(e / k < 0.12, `${e}/${k}`);
});
