import assert from "node:assert/strict";
import {
  COVERAGE_MODEL_A,
  coverageCellCounts,
  coverageTrueLoss,
  intervalCoverage,
  lossWidthStudy,
  simulateCoverageSuite,
  WIDTH_METHOD_LABELS,
} from "../../analyses/interval_coverage.ts";
import { getProfile } from "../../lib/costs/load.ts";
import { realisedLoss } from "../../lib/metrics/loss.ts";
import { seededPrng } from "../../lib/math/sampling.ts";

const small = {
  sizes: [60, 400],
  replicates: 40,
  rowReplicates: 4,
  draws: 200,
  widthSizes: [1000],
  widthReplicates: 60,
  widthDraws: 50,
};
const result = intervalCoverage(small);
const rows = result.tables.coverage.objects() as {
  statistic: string;
  n: number;
  profile: string | null;
  method: string;
  role: string;
  coverage: number;
  truthAbove: number;
}[];

// Every named claim of the small run holds, each failure printed whole.
function assertClaimsHold(ids: readonly string[]): void {
  const byId = new Map(result.claims.map((c) => [c.id, c]));
  for (const id of ids) {
    assert.ok(byId.get(id)?.holds, `${id}: ${JSON.stringify(byId.get(id))}`);
  }
}

Deno.test("intervalCoverage() holds its loss and loss-difference claims on a small seeded run", () => {
  assertClaimsHold([
    "interval_coverage.loss.pooled",
    "interval_coverage.loss_difference.pooled",
    "interval_coverage.bootstrap.undercovers",
    "interval_coverage.clt.undercovers",
    "interval_coverage.rate.worst_case",
  ]);
});

Deno.test("intervalCoverage() holds the claims of the fixed intervals (replay, R_w, accuracy difference) and their former bootstraps' negative results on a small seeded run", () => {
  assertClaimsHold([
    "interval_coverage.replay.pooled",
    "interval_coverage.replay.bootstrap_undercovers",
    "interval_coverage.rw.every",
    "interval_coverage.rw.bootstrap_undercovers",
    "interval_coverage.accuracy_difference.every",
    "interval_coverage.ece.every",
  ]);
});

Deno.test("intervalCoverage() shows the bootstrap missing high where zero CRITICAL errors are the rule", () => {
  const boot = rows.find((r) =>
    r.statistic === "loss" && r.n === 60 && r.profile === "principal_risk" &&
    r.method.startsWith("percentile bootstrap")
  )!;
  assert.ok(boot.coverage < 0.5, `${boot.coverage}`);
  // every miss is on the high side: the truth is above the interval
  assert.ok(Math.abs(boot.truthAbove - (1 - boot.coverage)) < 1e-9);
  const lossbook = rows.find((r) =>
    r.statistic === "loss" && r.n === 60 && r.profile === "principal_risk" &&
    r.role === "lossbook"
  )!;
  assert.ok(lossbook.coverage >= 0.9, `${lossbook.coverage}`);
});

Deno.test("intervalCoverage() finds Wilson's exact worst case below 0.90 and the printed rate interval above it", () => {
  const worst = result.tables.rate_worst_case.objects() as {
    wilsonWorstCoverage: number;
    lossbookWorstCoverage: number;
  }[];
  assert.ok(worst.every((w) => w.wilsonWorstCoverage < 0.9));
  assert.ok(worst.every((w) => w.lossbookWorstCoverage >= 0.9));
});

Deno.test("intervalCoverage() has a row for every printed interval, size and profile", () => {
  const stats = new Set(rows.map((r) => r.statistic));
  for (
    const s of [
      "accuracy",
      "recall CRITICAL",
      "R_w",
      "loss",
      "loss difference",
      "replay difference",
      "ECE",
    ]
  ) assert.ok(stats.has(s), s);
  const lossRows = rows.filter((r) => r.statistic === "loss");
  // 2 sizes x 4 profiles x (default, the other per-cell method, the former
  // default fay-feuer, bootstrap, CLT)
  assert.equal(lossRows.length, 2 * 4 * 5);
  assert.ok(stats.has("ECE, calibrated model"));
  // width study: (2 mixes x 3 rates x 1 size of design W, and design E) x 4
  // profiles x 7 methods
  assert.equal(result.tables.width.numRows(), (2 * 3 + 1) * 4 * 7);
  assert.equal(result.tables.size.numRows(), 2 * 4 * 3);
});

Deno.test("intervalCoverage() is byte-identical for the same seed", () => {
  const again = intervalCoverage({ ...small, sizes: [60] });
  const once = intervalCoverage({ ...small, sizes: [60] });
  assert.equal(again.tables.coverage.toCSV(), once.tables.coverage.toCSV());
});

Deno.test("coverageTrueLoss() is the mean realised loss of many simulated suites", () => {
  const counts = coverageCellCounts(400);
  const p = getProfile("reconciliation");
  const rng = seededPrng(5);
  let sum = 0;
  const reps = 2000;
  for (let i = 0; i < reps; i++) {
    sum += realisedLoss(
      simulateCoverageSuite(rng, COVERAGE_MODEL_A, counts),
      p,
    )!;
  }
  const truth = coverageTrueLoss(COVERAGE_MODEL_A, counts, p);
  // the standard error of the mean of 2,000 suites is about 0.1
  assert.ok(Math.abs(sum / reps - truth) < 0.5, `${sum / reps} vs ${truth}`);
});

Deno.test("intervalCoverage() width study: the default is never wider than fay-feuer, and the candidates it rejected fall below 0.93", () => {
  assertClaimsHold([
    "interval_coverage.width.default_within_former",
    "interval_coverage.width.tcz_undercovers",
  ]);
});

Deno.test("intervalCoverage() width study: the default is the whole-unit gamma interval where units have one decision, and narrower on correlated epochs", () => {
  assertClaimsHold([
    "interval_coverage.width.default_is_whole_unit_on_w",
    "interval_coverage.width.default_narrower_on_e",
  ]);
});

Deno.test("intervalCoverage() calibrated model: the former ECE bootstrap never covers the true ECE of 0, the default does", () => {
  const calibrated = rows.filter((r) =>
    r.statistic === "ECE, calibrated model"
  );
  assert.ok(
    calibrated.filter((r) => r.role === "baseline").every((r) =>
      r.coverage === 0
    ),
  );
  assert.ok(
    calibrated.filter((r) => r.role === "lossbook").every((r) =>
      r.coverage >= 0.75
    ),
  );
});

Deno.test("lossWidthStudy(): on 300 suites of 100 decisions at a 10% error rate (45/30/20/5) the default covers at least 0.93 within 2.5x the spread under every profile, where fay-feuer is wider than 2.5x under reconciliation", () => {
  const study = lossWidthStudy({
    sizes: [100],
    methods: ["cp-gamma", "fay-feuer"],
  });
  const row = (profile: string, method: string) =>
    study.find((r) =>
      r.design === "W" && r.errorRate === 0.1 && r.mix === "45/30/20/5" &&
      r.profile === profile && r.method === WIDTH_METHOD_LABELS[
          method as keyof typeof WIDTH_METHOD_LABELS
        ]
    )!;
  for (
    const p of ["flat", "reconciliation", "review_heavy", "principal_risk"]
  ) {
    const d = row(p, "cp-gamma");
    assert.equal(d.replicates, 300);
    assert.ok(d.expectedErrors >= 10);
    assert.ok(d.coverage! >= 0.93, `${p}: ${d.coverage}`);
    assert.ok(d.widthOverSpread! <= 2.5, `${p}: ${d.widthOverSpread}`);
  }
  assert.ok(row("reconciliation", "fay-feuer").widthOverSpread! > 2.5);
  // design E: narrower than fay-feuer everywhere, and it still covers
  for (
    const p of ["flat", "reconciliation", "review_heavy", "principal_risk"]
  ) {
    const [d, f] = ["cp-gamma", "fay-feuer"].map((m) =>
      study.find((r) =>
        r.design === "E" && r.profile === p &&
        r.method === WIDTH_METHOD_LABELS[m as "cp-gamma" | "fay-feuer"]
      )!
    );
    assert.ok(d.coverage! >= 0.93, `${p}: ${d.coverage}`);
    assert.ok(d.meanWidth! <= f.meanWidth!, p);
  }
});

Deno.test("lossWidthStudy() is byte-identical for the same seed", () => {
  const options = { sizes: [30], replicates: 20, draws: 20 };
  assert.equal(
    JSON.stringify(lossWidthStudy(options)),
    JSON.stringify(lossWidthStudy(options)),
  );
});
