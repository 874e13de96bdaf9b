// Seeds keep their numbers: the generator, gamma draws (shapes below 1, at 1,
// above and large), binomials (by inversion and by BTRS, p on both sides of
// 1/2), multinomial resamples, lossPosterior's Dirichlet draws and the
// bootstrap's count ratios, pinned to the values they have had since the
// sampler was written (the WebAssembly copy that was removed drew these same
// doubles).
import assert from "node:assert/strict";
import {
  beta,
  binomial,
  gamma,
  multinomial,
  normal,
  seededPrng,
} from "../../../lib/math/sampling.ts";
import { lossPosterior } from "../../../lib/metrics/loss_posterior.ts";
import { bootstrapRatioIntervals } from "../../../lib/metrics/bootstrap.ts";

async function sha256(values: Float64Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", values.slice().buffer);
  return Array.from(
    new Uint8Array(digest),
    (b) => b.toString(16).padStart(2, "0"),
  ).join("");
}

Deno.test("seeded draws keep their values: generator, gamma, binomial, normal, beta, multinomial", () => {
  const r = seededPrng(11);
  assert.deepEqual([r.next(), r.next(), r.next()], [
    0.999999830411942,
    0.9377128507862856,
    0.9572195677198673,
  ]);
  const g = seededPrng(12);
  assert.deepEqual(
    [gamma(g, 0.5), gamma(g, 1), gamma(g, 2.5), gamma(g, 1e5)],
    [
      0.7771057723617736,
      1.3498998055583493,
      1.3952499252338522,
      100016.72020977657,
    ],
  );
  const b = seededPrng(13);
  assert.deepEqual(
    [
      binomial(b, 20, 0.2),
      binomial(b, 1000, 0.3),
      binomial(b, 1e9, 0.37),
      binomial(b, 50, 0.9),
    ],
    [14, 272, 369990481, 43],
  );
  assert.equal(normal(seededPrng(14)), 0.00046810885659682696);
  assert.equal(beta(seededPrng(15), 2, 3), 0.5350288668441188);
  assert.deepEqual(
    multinomial(seededPrng(16), 1_000_000, [500, 300, 150, 49, 1]),
    [500226, 300313, 149630, 48849, 982],
  );
});

const base = {
  modelId: "m",
  action: "auto",
  pErrorSum: 0,
  pMissing: 0,
  parseFailures: 0,
} as const;
const stats = [
  { ...base, severity: "HIGH", trueClass: "X", predClass: "X", n: 90 },
  { ...base, severity: "HIGH", trueClass: "X", predClass: "MATCH", n: 4 },
  { ...base, severity: "LOW", trueClass: "MATCH", predClass: "MATCH", n: 500 },
  { ...base, severity: "LOW", trueClass: "MATCH", predClass: "Y", n: 7 },
  {
    ...base,
    severity: "CRITICAL",
    trueClass: "Z",
    predClass: "Z",
    n: 6,
    action: "escalate",
  },
] as const;

Deno.test("lossPosterior() draws keep their values (seed 7)", async () => {
  const post = lossPosterior(stats, { draws: 1000, seed: 7 });
  assert.deepEqual(post.shares.map((s) => [s.length, s[0], s[1]]), [
    [4000, 0.9825556138752775, 0.01603467921536476],
    [6000, 0.9237754499305724, 0.05467170755013674],
    [6000, 0.02576862241527244, 0.035168690844545256],
  ]);
  const all = new Float64Array(post.shares.reduce((a, s) => a + s.length, 0));
  let at = 0;
  for (const s of post.shares) {
    all.set(s, at);
    at += s.length;
  }
  assert.equal(
    await sha256(all),
    "335bb7eee95635e617e931e293166dc62b384581df917c7076b0b245779360ce",
  );
});

Deno.test("bootstrapRatioIntervals() keeps its values (seed 9), a ratio over 0 left out of every resample", () => {
  const right = (c: { trueClass: string; predClass: string }) =>
    c.trueClass === c.predClass ? 1 : 0;
  const got = bootstrapRatioIntervals(stats, {
    accuracy: { numerator: right, denominator: () => 1 },
    recallX: {
      numerator: (c) => c.trueClass === "X" && right(c) ? 1 : 0,
      denominator: (c) => c.trueClass === "X" ? 1 : 0,
    },
    none: { numerator: () => 0, denominator: () => 0 },
  }, { seed: 9 });
  const common = {
    level: 0.95,
    resamples: 1000,
    seed: 9,
    method: "percentile bootstrap",
  } as const;
  assert.deepEqual(got, {
    accuracy: {
      estimate: 0.9818780889621087,
      lo: 0.9703459637561779,
      hi: 0.9917627677100495,
      undefinedResamples: 0,
      ...common,
    },
    recallX: {
      estimate: 0.9574468085106383,
      lo: 0.9101095505617978,
      hi: 0.9905660377358491,
      undefinedResamples: 0,
      ...common,
    },
    none: {
      estimate: null,
      lo: null,
      hi: null,
      undefinedResamples: 1000,
      ...common,
    },
  });
});
