// Theorem 2, divergence (`third-number`: flat-cost theorem, K-sensitivity): under a non-flat profile there
// are error patterns that accuracy and loss rank oppositely; and along the
// family K_r (LOW = MEDIUM = 1, HIGH = CRITICAL = r) the spans where a less
// accurate model beats a more accurate one form one interval starting at the
// exact crossover r*: the loss winner differs from the accuracy winner on
// (r*, ∞), and the accuracy winner is no longer the sole loss winner on
// [r*, ∞) (the two differ only at the tie r = r*).
import assert from "node:assert/strict";
import fc from "fast-check";
import { getProfile } from "../../lib/costs/load.ts";
import { defineProfile } from "../../lib/costs/profile.ts";
import { accuracy } from "../../lib/metrics/accuracy.ts";
import { realisedLoss, STRICT_MATRIX } from "../../lib/metrics/loss.ts";
import { forModel } from "../../lib/metrics/sufficient_stats.ts";
import {
  costFamily,
  familyProfile,
} from "../../lib/sensitivity/cost_family.ts";
import { crossoverRatio } from "../../lib/sensitivity/crossover.ts";
import { disagreeingPair } from "../../lib/sensitivity/disagreeing_pair.ts";
import { sweepFamily } from "../../lib/sensitivity/family_sweep.ts";
import { lossCoefficients } from "../../lib/sensitivity/loss_coefficients.ts";
import { sweepProfiles } from "../../lib/sensitivity/sweep.ts";
import { costArb, FC, patternArb, statsOf } from "./_arbitraries.ts";

Deno.test("disagreeingPair() builds, for every non-flat profile, two models that accuracy() and realisedLoss() rank oppositely", () => {
  fc.assert(
    fc.property(
      fc.tuple(costArb, costArb, costArb, costArb),
      fc.constantFrom(0, 0.5, 1, 3),
      ([l, m, h, c], review) => {
        fc.pre(new Set([l, m, h, c]).size > 1);
        const profile = defineProfile({
          id: "p",
          K: { LOW: l, MEDIUM: m, HIGH: h, CRITICAL: c },
          reviewCost: review,
        });
        const { stats } = disagreeingPair(profile);
        const acc = forModel(stats, "accurate");
        const cheap = forModel(stats, "cheap");
        // Independent metrics, not the sweep: accuracy prefers one model, loss the other.
        assert.ok(accuracy(acc).value! > accuracy(cheap).value!);
        assert.ok(realisedLoss(acc, profile)! > realisedLoss(cheap, profile)!);
        const point =
          sweepProfiles(lossCoefficients(stats), [profile]).points[0];
        assert.equal(point.disagrees, true);
        assert.equal(point.kendallTau, -1);
        assert.ok(point.regret > 0);
      },
    ),
    FC,
  );
  // ... and under a flat profile none exists.
  assert.throws(() => disagreeingPair(getProfile("flat")), /profile is flat/);
});

Deno.test("sweepFamily() and crossoverRatio(): along LOW = 1, HIGH = r the less accurate model wins exactly on (r*, ∞)", () => {
  const family = costFamily(getProfile("flat")); // K_r = (1, 1, r, r), review 1
  let crossed = 0;
  fc.assert(
    fc.property(
      patternArb({ otherErrors: false }),
      patternArb({ otherErrors: false }),
      fc.array(fc.double({ min: 0, max: 6, noNaN: true }), {
        minLength: 1,
        maxLength: 20,
      }),
      (pa, pb, logs) => {
        const stats = statsOf({ A: pa, B: pb });
        const accA = accuracy(forModel(stats, "A"));
        const accB = accuracy(forModel(stats, "B"));
        // Let A be the strictly more accurate model (exactly: k_A n_B > k_B n_A).
        const lead = accA.numerator * accB.denominator -
          accB.numerator * accA.denominator;
        fc.pre(lead !== 0);
        const [better, worse] = lead > 0 ? ["A", "B"] : ["B", "A"];
        const coefficients = lossCoefficients(stats, { matrix: STRICT_MATRIX });
        const [ca, cb] = better === "A"
          ? coefficients
          : [...coefficients].reverse();
        const x = crossoverRatio(ca, cb, family);
        // Independent oracle: realised loss per decision at any r.
        const lossAt = (id: string, r: number) =>
          realisedLoss(forModel(stats, id), familyProfile(family, r), {
            matrix: STRICT_MATRIX,
          })! /
          accuracy(forModel(stats, id)).denominator;
        // At r = 1 every error costs 1: the more accurate model wins (theorem 1).
        assert.ok(lossAt(better, 1) < lossAt(worse, 1));
        const rStar = x !== null && x.b === worse && x.ratio > 1
          ? x.ratio
          : Infinity;
        const rs = logs.map((e) => 10 ** e);
        if (Number.isFinite(rStar)) {
          rs.push(rStar * (1 - 1e-6), rStar * (1 + 1e-6));
        }
        const sweep = sweepFamily(coefficients, family, {
          from: 1,
          to: 1e6,
          points: 2,
        });
        for (const r of rs) {
          if (Math.abs(r - rStar) < 1e-9 * rStar) continue;
          const worseWins = lossAt(worse, r) < lossAt(better, r);
          assert.equal(worseWins, r > rStar, `r = ${r}, r* = ${rStar}`);
          const point =
            sweepProfiles(coefficients, [familyProfile(family, r)]).points[0];
          assert.equal(point.disagrees, r > rStar, `r = ${r}, r* = ${rStar}`);
        }
        // One interval, one change of winner, at r*.
        const inRange = rStar < 1e6;
        if (inRange) crossed++;
        assert.equal(sweep.flips, inRange ? 1 : 0);
        if (inRange) {
          assert.equal(sweep.winnerChanges[0].ratio, rStar);
          // At r* itself the two lines meet (to rounding of r* to a double).
          const [la, lb] = [lossAt(better, rStar), lossAt(worse, rStar)];
          assert.ok(Math.abs(la - lb) <= 1e-9 * Math.max(la, lb));
        }
      },
    ),
    FC,
  );
  // Not vacuous: most generated pairs do cross within the range.
  assert.ok(crossed >= 40, `only ${crossed} pairs crossed`);
});

Deno.test("sweepProfiles() at the exact crossover r* = 5.8 reports a tie: the accuracy winner stops being the sole loss winner at r*, not after it", () => {
  // The example: A misses 100 LOW and 40 HIGH, B 3,000 LOW and 30 HIGH.
  const model = (modelId: string, low: number, high: number) => ({
    modelId,
    n: 10_000,
    correct: 10_000 - low - high,
    K: { LOW: low, MEDIUM: 0, HIGH: high, CRITICAL: 0 },
    review: 0,
    fixed: 0,
  });
  const coefficients = [model("A", 100, 40), model("B", 3000, 30)];
  const family = costFamily(undefined, { scaled: ["HIGH"] });
  const at = (r: number) =>
    sweepProfiles(coefficients, [familyProfile(family, r)]).points[0];
  assert.deepEqual(at(5.8).winners, ["A", "B"]);
  assert.equal(at(5.8).disagrees, false);
  assert.deepEqual(at(5.800001).winners, ["B"]);
  assert.equal(at(5.800001).disagrees, true);
  assert.deepEqual(at(5.799999).winners, ["A"]);
});
