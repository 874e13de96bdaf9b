// Agreement of lossbook's calibration with scikit-learn on the same data:
// calibration_curve (both binning strategies), brier_score_loss,
// cohen_kappa_score, IsotonicRegression on tied probabilities and
// numpy.linspace bin edges. Needs Debian's python3-sklearn at /usr/bin/python3 (the
// python3 on PATH may be a different interpreter without it).
//   deno run -A scripts/sklearn_agreement.ts
//
// Binning conventions:
// - lossbook equal-width: edges i·(1/B), the last set to 1, computed as
//   np.linspace(0, 1, B + 1) computes them (equalWidthEdges), so they are
//   scikit-learn's "uniform" edges bit for bit; bins right-closed (lo, hi],
//   the first also holding 0; a probability on an inner edge goes to the
//   lower bin, as np.searchsorted(edges[1:-1], p) (side left) does.
// - lossbook equal-mass: cuts after round(i·n/B) sorted values, moved so
//   that equal probabilities stay together, edges halfway between distinct
//   values.
// - scikit-learn "quantile": edges np.percentile(p, i/B·100) (linear
//   interpolation), same right-closed rule. Ties also stay together (binning
//   is by value), but edges can coincide and bins come out unequal or empty.
//   On distinct values with n a multiple of B the two give the same bins.
import { brierScore } from "../lib/calibration/brier.ts";
import { reliabilityDiagram } from "../lib/calibration/reliability.ts";
import type { BinStrategy } from "../lib/calibration/binning.ts";
import { seededPrng } from "../lib/math/sampling.ts";
import { cohensKappa } from "../lib/policy/kappa.ts";
import { SIMULATED_MODELS, simulateRun } from "../lib/tasks/simulate.ts";
import { outcomeColumns } from "../lib/calibration/outcome_columns.ts";
import { equalWidthEdges } from "../lib/calibration/binning.ts";
import { applyCalibrator } from "../lib/calibration/calibrator.ts";
import { fitIsotonic } from "../lib/calibration/isotonic.ts";

/** The interpreter that has scikit-learn on these machines. */
export const PYTHON = "/usr/bin/python3";

/** Why scikit-learn cannot be used, or `null` when it can. */
export function sklearnUnavailable(): string | null {
  try {
    const out = new Deno.Command(PYTHON, {
      args: ["-c", "import sklearn, numpy"],
      stdout: "null",
      stderr: "null",
    }).outputSync();
    return out.success
      ? null
      : `${PYTHON} cannot import scikit-learn (install Debian's python3-sklearn)`;
  } catch (error) {
    return `${PYTHON} cannot be run: ${(error as Error).message}`;
  }
}

/** One calibration-curve case. */
export interface CurveCase {
  readonly name: string;
  readonly p: number[];
  readonly y: number[];
  readonly bins: number;
  readonly strategy: BinStrategy;
  /** Whether identical bins are expected (false where the conventions differ by design). */
  readonly expectSameBins: boolean;
}

/** The cases: a simulated run, probabilities on every edge, tie-free and tied equal-mass data. */
export function agreementCases(): CurveCase[] {
  const tasks = Array.from({ length: 5000 }, (_, i) => ({
    id: `t${i}`,
    gold: {
      exceptionType: i % 4 === 0 ? null : "AMOUNT_MISMATCH",
      severity: "HIGH" as const,
    },
  }));
  // an over-confident model with a wide spread of confidence
  const run = simulateRun(tasks, {
    ...SIMULATED_MODELS.frontier_even,
    errorRate: { HIGH: 0.35, clean: 0.25 },
    concentration: 2,
    confidence: { kind: "overconfident", strength: 1.5 },
  }, { seed: 42 });
  const cols = outcomeColumns(run);
  const sim = { p: Array.from(cols.p), y: Array.from(cols.y) };
  // every probability on an edge of 10 bins, each outcome twice
  const edgeP = Array.from({ length: 44 }, (_, i) => Math.floor(i / 4) / 10);
  const edgeY = edgeP.map((_, i) => (i % 4 < 2 ? 1 : 0));
  // distinct values, n = 1000 a multiple of B = 10
  const rng = seededPrng(7);
  const distinct = Array.from(
    { length: 1000 },
    (_, i) => (i + rng.next()) / 1000,
  );
  const distinctY = distinct.map((v) => (rng.next() < v ? 1 : 0));
  // heavy ties: probabilities on a 0.05 grid
  const tied = Array.from(
    { length: 600 },
    () => Math.round(rng.next() * 20) / 20,
  );
  const tiedY = tied.map((v) => (rng.next() < v ? 1 : 0));
  return [
    {
      name: "simulated run (6-decimal pCorrect), 10 equal-width bins",
      ...sim,
      bins: 10,
      strategy: "equal-width",
      expectSameBins: true,
    },
    {
      name: "simulated run, 15 equal-width bins",
      ...sim,
      bins: 15,
      strategy: "equal-width",
      expectSameBins: true,
    },
    {
      name: "every probability on an edge, 10 equal-width bins",
      p: edgeP,
      y: edgeY,
      bins: 10,
      strategy: "equal-width",
      expectSameBins: true,
    },
    {
      name: "distinct values, n = 1000, 10 equal-mass bins",
      p: distinct,
      y: distinctY,
      bins: 10,
      strategy: "equal-mass",
      expectSameBins: true,
    },
    {
      name: "simulated run, 10 equal-mass bins (ties)",
      ...sim,
      bins: 10,
      strategy: "equal-mass",
      expectSameBins: false,
    },
    {
      name: "probabilities on a 0.05 grid, 8 equal-mass bins (heavy ties)",
      p: tied,
      y: tiedY,
      bins: 8,
      strategy: "equal-mass",
      expectSameBins: false,
    },
  ];
}

/** The result of comparing one case. */
export interface CurveAgreement {
  readonly name: string;
  readonly strategy: BinStrategy;
  readonly sameBins: boolean;
  readonly expectSameBins: boolean;
  /** Largest absolute difference in per-bin accuracy and mean confidence, when the bins match. */
  readonly maxDifference: number | null;
  readonly lossbookCounts: number[];
  readonly sklearnCounts: number[];
}

/** One isotonic case: tied probabilities, fitted by both, evaluated on a grid. */
export interface IsotonicCase {
  readonly name: string;
  readonly p: number[];
  readonly y: number[];
  /** Where both fitted maps are evaluated. */
  readonly at: number[];
}

/**
 * Isotonic cases with heavy ties, the normal case for stated LLM
 * confidences: probabilities on a 0.1 and a 0.05 grid, rows in seeded
 * random order, and a small case whose tie groups straddle a violation.
 */
export function isotonicCases(): IsotonicCase[] {
  const rng = seededPrng(23);
  const grid = (step: number, n: number) => {
    const p = Array.from(
      { length: n },
      () => Math.round((0.5 + rng.next() * 0.5) / step) * step,
    );
    // over-confident: right with probability below the stated one, and noisy
    const y = p.map((v) => (rng.next() < v - 0.15 ? 1 : 0));
    return { p, y };
  };
  const at = Array.from({ length: 101 }, (_, i) => i / 100);
  return [
    { name: "0.1 grid, 400 decisions", ...grid(0.1, 400), at },
    { name: "0.05 grid, 2000 decisions", ...grid(0.05, 2000), at },
    {
      name: "tie groups straddling a violation",
      p: [0.6, 0.6, 0.7, 0.7, 0.7, 0.7, 0.8, 0.8],
      y: [0, 1, 0, 1, 1, 1, 0, 1],
      at,
    },
  ];
}

/** Everything compared against scikit-learn. */
export interface Agreement {
  readonly sklearnVersion: string;
  readonly curves: CurveAgreement[];
  /** Largest |lossbook − scikit-learn| of the fitted isotonic maps, per case. */
  readonly isotonic: {
    readonly name: string;
    readonly maxDifference: number;
  }[];
  /** Bin counts whose equal-width edges equal np.linspace's bit for bit, and those that do not. */
  readonly linspace: { readonly same: number[]; readonly different: number[] };
  readonly brier: { readonly lossbook: number; readonly sklearn: number }[];
  readonly kappa: { readonly lossbook: number; readonly sklearn: number }[];
}

/** Bin counts whose edges are compared with numpy's linspace. */
export const LINSPACE_BINS: readonly number[] = Array.from(
  { length: 100 },
  (_, i) => i + 1,
);

/** Run the cases through scikit-learn and lossbook. */
export async function compareWithSklearn(): Promise<Agreement> {
  const cases = agreementCases();
  const rng = seededPrng(11);
  const judge = Array.from(
    { length: 300 },
    () => (rng.next() < 0.6 ? "pass" : "fail"),
  );
  const gold = judge.map((
    j,
  ) => (rng.next() < 0.8 ? j : j === "pass" ? "fail" : "pass"));
  const three = Array.from(
    { length: 200 },
    () => ["a", "b", "c"][Math.floor(rng.next() * 3)],
  );
  const threeB = three.map((
    v,
  ) => (rng.next() < 0.7 ? v : ["a", "b", "c"][Math.floor(rng.next() * 3)]));
  const input = {
    curves: cases.map((c) => ({
      p: c.p,
      y: c.y,
      bins: c.bins,
      strategy: c.strategy === "equal-width" ? "uniform" : "quantile",
    })),
    brier: cases.map((c) => ({ p: c.p, y: c.y })),
    kappa: [{ a: judge, b: gold }, { a: three, b: threeB }],
    isotonic: isotonicCases().map((c) => ({ p: c.p, y: c.y, at: c.at })),
    linspace: LINSPACE_BINS,
  };
  const child = new Deno.Command(PYTHON, {
    args: [new URL("./sklearn_agreement.py", import.meta.url).pathname],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(input)));
  await writer.close();
  const out = await child.output();
  if (!out.success) {
    throw new Error(
      `scikit-learn reference failed: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
  const ref = JSON.parse(new TextDecoder().decode(out.stdout));
  const curves = cases.map((c, i): CurveAgreement => {
    const d = reliabilityDiagram(c.p, c.y, {
      bins: c.bins,
      strategy: c.strategy,
    });
    const ours = d.bins.filter((b) => b.n > 0);
    const theirs = ref.curves[i];
    const lossbookCounts = ours.map((b) => b.n);
    const sameBins =
      JSON.stringify(lossbookCounts) === JSON.stringify(theirs.counts);
    let maxDifference: number | null = null;
    if (sameBins) {
      maxDifference = 0;
      ours.forEach((b, j) => {
        maxDifference = Math.max(
          maxDifference!,
          Math.abs(b.accuracy! - theirs.prob_true[j]),
          Math.abs(b.meanConfidence! - theirs.prob_pred[j]),
        );
      });
    }
    return {
      name: c.name,
      strategy: c.strategy,
      sameBins,
      expectSameBins: c.expectSameBins,
      maxDifference,
      lossbookCounts,
      sklearnCounts: theirs.counts,
    };
  });
  return {
    sklearnVersion: ref.sklearn,
    curves,
    brier: cases.map((c, i) => ({
      lossbook: brierScore(c.p, c.y)!,
      sklearn: ref.brier[i],
    })),
    kappa: [
      { lossbook: cohensKappa(judge, gold).kappa!, sklearn: ref.kappa[0] },
      { lossbook: cohensKappa(three, threeB).kappa!, sklearn: ref.kappa[1] },
    ],
    isotonic: isotonicCases().map((c, i) => {
      const ours = applyCalibrator(fitIsotonic(c.p, c.y), c.at);
      const theirs: number[] = ref.isotonic[i];
      let d = 0;
      for (let j = 0; j < c.at.length; j++) {
        d = Math.max(d, Math.abs(ours[j] - theirs[j]));
      }
      return { name: c.name, maxDifference: d };
    }),
    linspace: (() => {
      const same: number[] = [];
      const different: number[] = [];
      LINSPACE_BINS.forEach((b, i) => {
        const ours = equalWidthEdges(b);
        const theirs: number[] = ref.linspace[i];
        (ours.length === theirs.length &&
            ours.every((e, j) => Object.is(e, theirs[j]))
          ? same
          : different).push(b);
      });
      return { same, different };
    })(),
  };
}

if (import.meta.main) {
  const why = sklearnUnavailable();
  if (why !== null) {
    console.error(`skipped: ${why}`);
    Deno.exit(0);
  }
  const a = await compareWithSklearn();
  console.log(`scikit-learn ${a.sklearnVersion} against lossbook, same data\n`);
  for (const c of a.curves) {
    console.log(
      `calibration_curve  ${c.name}: ${
        c.sameBins
          ? `same ${c.lossbookCounts.length} non-empty bins, max |difference| ${
            c.maxDifference!.toExponential(2)
          }`
          : `different bins (lossbook ${c.lossbookCounts.length} bins [${
            c.lossbookCounts.join(", ")
          }], scikit-learn ${c.sklearnCounts.length} bins [${
            c.sklearnCounts.join(", ")
          }])`
      }`,
    );
  }
  const maxBrier = Math.max(
    ...a.brier.map((b) => Math.abs(b.lossbook - b.sklearn)),
  );
  const maxKappa = Math.max(
    ...a.kappa.map((k) => Math.abs(k.lossbook - k.sklearn)),
  );
  console.log(
    `brier_score_loss   ${a.brier.length} cases, max |difference| ${
      maxBrier.toExponential(2)
    }`,
  );
  console.log(
    `cohen_kappa_score  ${a.kappa.length} cases, max |difference| ${
      maxKappa.toExponential(2)
    }`,
  );
  for (const c of a.isotonic) {
    console.log(
      `IsotonicRegression ${c.name}: max |difference| ${
        c.maxDifference.toExponential(2)
      }`,
    );
  }
  console.log(
    `np.linspace edges  ${a.linspace.same.length} of ${LINSPACE_BINS.length} bin counts identical bit for bit${
      a.linspace.different.length
        ? `; different at ${a.linspace.different.join(", ")}`
        : ""
    }`,
  );
}
