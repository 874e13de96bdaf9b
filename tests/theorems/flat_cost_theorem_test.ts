// Theorem 1, the flat-cost theorem (`third-number`): when
// every error costs the same, ranking models by loss is ranking them by
// accuracy, ties included. Also under an affine cost (a fixed cost per
// decision plus a flat cost per error), and, with escalation, when K and the
// review cost are both flat: then loss ranks by Chow's severity-blind risk.
import assert from "node:assert/strict";
import fc from "fast-check";
import { defineProfile } from "../../lib/costs/profile.ts";
import { accuracy } from "../../lib/metrics/accuracy.ts";
import {
  CONSEQUENCE_MATRIX,
  defineCostMatrix,
  STRICT_MATRIX,
} from "../../lib/metrics/loss.ts";
import { forModel, summarise } from "../../lib/metrics/sufficient_stats.ts";
import { decisionStats } from "../../lib/decision/decision_stats.ts";
import { decisionTable } from "../../lib/read/load_decisions.ts";
import { lossCoefficients } from "../../lib/sensitivity/loss_coefficients.ts";
import { sweepProfiles } from "../../lib/sensitivity/sweep.ts";
import {
  costArb,
  decisionsOf,
  FC,
  modelsArb,
  statsOf,
  withTwin,
} from "./_arbitraries.ts";

/** Dense ranks (0 = best; equal items share a rank) from an exact comparator. */
function ranks(ids: readonly string[], cmp: (a: string, b: string) => number) {
  return ids.map((a) => {
    const classes: string[] = [];
    for (const b of ids) {
      if (cmp(b, a) < 0 && !classes.some((c) => cmp(c, b) === 0)) {
        classes.push(b);
      }
    }
    return classes.length;
  });
}

/** The sweep's dense loss ranks at its only point. */
function lossRanks(sweep: ReturnType<typeof sweepProfiles>): readonly number[] {
  return sweep.points[0].ranks;
}

/** Exact accuracy ranks from the independent accuracy(): fewer errors per decision first. */
function accuracyRanks(
  stats: ReturnType<typeof statsOf>,
  ids: readonly string[],
): number[] {
  const acc = Object.fromEntries(ids.map((id) => {
    const a = accuracy(forModel(stats, id));
    return [id, { k: BigInt(a.numerator), n: BigInt(a.denominator) }];
  }));
  // a more accurate than b  <=>  k_a n_b > k_b n_a
  return ranks(ids, (a, b) => {
    const d = acc[b].k * acc[a].n - acc[a].k * acc[b].n;
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  });
}

Deno.test("sweepProfiles() ranks run exports by loss exactly as accuracy() does under a constant K, ties included", () => {
  fc.assert(
    fc.property(
      modelsArb({ otherErrors: true }).map(withTwin),
      costArb,
      fc.constantFrom(STRICT_MATRIX, CONSEQUENCE_MATRIX),
      (models, k, matrix) => {
        // Through the real path: decision records -> Arquero -> sufficient statistics.
        const stats = decisionStats(decisionTable(decisionsOf(models)));
        // Under the consequence matrix a wrong type and a false alarm cost a
        // review, so "every error costs the same" needs reviewCost = K.
        const flat = defineProfile({
          id: "flat_k",
          K: { LOW: k, MEDIUM: k, HIGH: k, CRITICAL: k },
          reviewCost: k,
        });
        const sweep = sweepProfiles(lossCoefficients(stats, { matrix }), [
          flat,
        ]);
        assert.deepEqual(lossRanks(sweep), accuracyRanks(stats, sweep.models));
        const point = sweep.points[0];
        assert.equal(point.disagrees, false);
        assert.equal(point.regret, 0);
        assert.deepEqual(point.winners, sweep.accuracyWinners);
        // The twin has the first model's accuracy: they share a rank.
        assert.equal(
          point.ranks[sweep.models.indexOf("twin")],
          point.ranks[sweep.models.indexOf("m0")],
        );
        const allTied = new Set(sweep.accuracy).size === 1;
        assert.equal(point.kendallTau, allTied ? null : 1);
      },
    ),
    { ...FC, numRuns: 120 },
  );
});

Deno.test("sweepProfiles() keeps the accuracy ranking under an affine cost: a fixed cost per decision plus a flat cost per error", () => {
  fc.assert(
    fc.property(
      modelsArb().map(withTwin),
      costArb,
      fc.integer({ min: 0, max: 10_000 }).map((b) => b / 100),
      (models, alpha, beta) => {
        const stats = statsOf(models);
        // Every decision costs beta; a wrong one costs alpha more.
        const matrix = defineCostMatrix({
          ...STRICT_MATRIX,
          id: "affine",
          auto: {
            correct: { of: "fixed", value: beta },
            missed: { of: "K" },
            wrongType: { of: "K" },
            falseAlarm: { of: "K" },
          },
        });
        const k = alpha + beta;
        const profile = defineProfile({
          id: "affine",
          K: { LOW: k, MEDIUM: k, HIGH: k, CRITICAL: k },
          reviewCost: 1,
        });
        const sweep = sweepProfiles(lossCoefficients(stats, { matrix }), [
          profile,
        ]);
        assert.deepEqual(lossRanks(sweep), accuracyRanks(stats, sweep.models));
        // ... and over a set of flat profiles K = a·k + b, every point agrees.
        const many = [0.5, 2, 7.3, 1000].map((a, i) =>
          defineProfile({
            id: `flat_${i}`,
            K: {
              LOW: a * k + 1,
              MEDIUM: a * k + 1,
              HIGH: a * k + 1,
              CRITICAL: a * k + 1,
            },
            reviewCost: a * k + 1,
          })
        );
        const strict = sweepProfiles(
          lossCoefficients(stats, { matrix: STRICT_MATRIX }),
          many,
        );
        assert.equal(strict.disagreementShare, 0);
        assert.equal(strict.flips, 0);
      },
    ),
    FC,
  );
});

Deno.test("sweepProfiles() ranks by Chow's severity-blind risk when K and the review cost are both flat, and by automated accuracy when they are equal", () => {
  fc.assert(
    fc.property(
      modelsArb({ escalation: true }).map(withTwin),
      fc.integer({ min: 1, max: 100_000 }),
      fc.integer({ min: 1, max: 100_000 }),
      fc.boolean(),
      (models, kMilli, cMilli, equal) => {
        const stats = statsOf(models);
        const k = kMilli / 1000;
        const c = equal ? k : cMilli / 1000;
        const profile = defineProfile({
          id: "flat_with_review",
          K: { LOW: k, MEDIUM: k, HIGH: k, CRITICAL: k },
          reviewCost: c,
        });
        const sweep = sweepProfiles(
          lossCoefficients(stats, { matrix: STRICT_MATRIX }),
          [profile],
        );
        // Chow's risk per decision, in integer arithmetic (costs x 1000):
        // (k · automatic errors + c · escalations) / n. No severity enters.
        const risk = Object.fromEntries(sweep.models.map((id) => {
          const s = summarise(forModel(stats, id));
          const num = BigInt(kMilli) * BigInt(s.autoErrors) +
            BigInt(equal ? kMilli : cMilli) * BigInt(s.escalated);
          return [id, { num, n: BigInt(s.n), s }];
        }));
        const chow = ranks(sweep.models, (a, b) => {
          const d = risk[a].num * risk[b].n - risk[b].num * risk[a].n;
          return d < 0n ? -1 : d > 0n ? 1 : 0;
        });
        assert.deepEqual(lossRanks(sweep), chow);
        if (equal) {
          // c = k: loss = k × (decisions not both automatic and right).
          const automated = ranks(sweep.models, (a, b) => {
            const ra = risk[a].s;
            const rb = risk[b].s;
            const okA = BigInt(ra.n - ra.escalated - ra.autoErrors);
            const okB = BigInt(rb.n - rb.escalated - rb.autoErrors);
            const d = okB * BigInt(ra.n) - okA * BigInt(rb.n);
            return d < 0n ? -1 : d > 0n ? 1 : 0;
          });
          assert.deepEqual(lossRanks(sweep), automated);
        }
      },
    ),
    FC,
  );
});

Deno.test("sweepProfiles() flat-cost ties are exact: the same error rate on different run lengths ties under K = 0.2", () => {
  // 3 errors in 30 and 1 error in 10 decisions: the same rate, split across
  // severities differently, so a float dot product could split them.
  const stats = statsOf({
    a: {
      LOW: {
        correct: 9,
        missed: 1,
        wrongType: 0,
        falseAlarm: 0,
        escalatedRight: 0,
        escalatedWrong: 0,
      },
      MEDIUM: {
        correct: 9,
        missed: 1,
        wrongType: 0,
        falseAlarm: 0,
        escalatedRight: 0,
        escalatedWrong: 0,
      },
      HIGH: {
        correct: 9,
        missed: 1,
        wrongType: 0,
        falseAlarm: 0,
        escalatedRight: 0,
        escalatedWrong: 0,
      },
      CRITICAL: {
        correct: 0,
        missed: 0,
        wrongType: 0,
        falseAlarm: 0,
        escalatedRight: 0,
        escalatedWrong: 0,
      },
    },
    b: {
      LOW: {
        correct: 0,
        missed: 0,
        wrongType: 0,
        falseAlarm: 0,
        escalatedRight: 0,
        escalatedWrong: 0,
      },
      MEDIUM: {
        correct: 0,
        missed: 0,
        wrongType: 0,
        falseAlarm: 0,
        escalatedRight: 0,
        escalatedWrong: 0,
      },
      HIGH: {
        correct: 0,
        missed: 0,
        wrongType: 0,
        falseAlarm: 0,
        escalatedRight: 0,
        escalatedWrong: 0,
      },
      CRITICAL: {
        correct: 9,
        missed: 1,
        wrongType: 0,
        falseAlarm: 0,
        escalatedRight: 0,
        escalatedWrong: 0,
      },
    },
  });
  const profile = defineProfile({
    id: "k",
    K: { LOW: 0.2, MEDIUM: 0.2, HIGH: 0.2, CRITICAL: 0.2 },
    reviewCost: 0.2,
  });
  const point = sweepProfiles(lossCoefficients(stats), [profile]).points[0];
  assert.deepEqual(point.winners, ["a", "b"]);
  assert.equal(point.kendallTau, null);
});
