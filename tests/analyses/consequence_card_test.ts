import assert from "node:assert/strict";
import fc from "fast-check";
import { roundNumbers } from "../_helpers.ts";
import {
  cardExampleRuns,
  consequenceCard,
} from "../../analyses/consequence_card.ts";
import {
  boardTallies,
  type Built,
  cardTallies,
  holmByDefinition,
  type Tally,
} from "../../analyses/_card_checks.ts";
import { holmAdjust } from "../../lib/board/ranking.ts";
import { board, calibrate, card, score, sweep } from "../../mod.ts";
import type { Decision } from "../../lib/decision/decision.ts";

const result = consequenceCard();
const rows = async (name: string) =>
  (await result).tables[name].objects() as Record<string, unknown>[];
/** The checks of a tally set that found a difference, with how many. */
const differing = (tallies: object) =>
  Object.fromEntries(
    Object.entries(tallies as Record<string, Tally>)
      .filter(([, t]) => t.differ.length > 0)
      .map(([k, t]) => [k, t.differ.length]),
  );

Deno.test("consequenceCard() on the README's examples: every claim holds, fourteen per run", async () => {
  const { claims } = await result;
  assert.deepEqual(claims.filter((c) => !c.holds).map((c) => c.id), []);
  const checks = [
    "card.document",
    "card.accuracy",
    "card.recall",
    "card.loss",
    "card.p_best",
    "card.k_span",
    "card.calibration",
    "card.cost",
    "board.holm",
    "board.interval_level",
    "board.verdicts",
    "board.letters.shared",
    "board.letters.apart",
    "board.rank_interval",
  ];
  assert.deepEqual(
    claims.map((c) => c.id),
    ["harness", "simulated"].flatMap((run) =>
      checks.map((c) => `consequence_card.${run}.${c}`)
    ),
  );
  // every card check compared something
  for (const c of claims.filter((c) => c.id.includes(".card."))) {
    assert.ok((c.expected as number) > 0, c.id);
  }
});

Deno.test("consequenceCard(): the simulated board has pairs told apart and pairs not; the card a winner change", async () => {
  const pairs = (await rows("board_pairs")).filter((r) =>
    r.run === "simulated"
  );
  assert.ok(pairs.some((r) => r.toldApart === true));
  assert.ok(pairs.some((r) => r.toldApart === false));
  // along the flat family, the most accurate model wins first and is overtaken
  const wins = (await rows("card_wins")).filter((r) => r.run === "simulated");
  assert.deepEqual(wins.map((r) => r.model), [
    "frontier_even",
    "small_severity_shaped",
  ]);
  assert.equal(wins[0].to, wins[1].from);
  const claims = (await result).claims;
  const apart = claims.find((c) =>
    c.id === "consequence_card.simulated.board.letters.apart"
  )!;
  assert.ok((apart.expected as number) > 0);
});

Deno.test("holmByDefinition() equals holmAdjust() on p-values with ties", () => {
  const seed = 20240611;
  const pValue = fc.oneof(
    fc.constantFrom(0, 1e-4, 0.01, 0.02, 0.25, 1),
    fc.double({ min: 0, max: 1, noNaN: true }),
  );
  fc.assert(
    fc.property(fc.array(pValue, { maxLength: 12 }), (ps) => {
      assert.deepEqual(holmByDefinition(ps), holmAdjust(ps));
    }),
    { seed, numRuns: 500 },
  );
});

const [, simulated] = cardExampleRuns();

Deno.test("boardTallies() catches a tampered adjusted p-value, interval level, interval, shared letter and rank interval", async () => {
  // under flat some pairs are told apart (under principal_risk, none)
  const doc = await board(simulated.inputs, {
    profiles: ["flat"],
    resamples: 2000,
  });
  assert.deepEqual(differing(boardTallies(doc)), {});
  const tamper = (f: (d: typeof doc) => void) => {
    const copy = structuredClone(doc);
    f(copy);
    return differing(boardTallies(copy));
  };
  assert.deepEqual(
    tamper((d) => d.profiles[0].pairs[0].adjustedPValue += 1e-12),
    { holm: 1 },
  );
  // a pair told apart given a common letter
  const apart = doc.profiles[0].pairs.findIndex((q) => q.significant);
  assert.ok(apart >= 0);
  assert.deepEqual(
    tamper((d) => {
      const { a, b } = d.profiles[0].pairs[apart];
      for (const r of d.profiles[0].ranking) {
        if (r.modelId === a || r.modelId === b) r.groups.push("z");
      }
    }),
    { shared: 1 },
  );
  assert.deepEqual(
    tamper((d) => d.profiles[0].ranking[0].rankInterval[1] += 1),
    { rank_interval: 1 },
  );
  assert.deepEqual(
    tamper((d) => {
      const q = d.profiles[0].pairs[apart];
      q.significant = false;
      q.better = null;
    }),
    { verdicts: 1 },
  );
  assert.deepEqual(
    tamper((d) => d.profiles[0].pairs[0].lossInterval.level -= 0.01),
    { interval_level: 1 },
  );
  // an interval reaching zero withholds the verdict the test alone would give
  assert.deepEqual(
    tamper((d) => {
      const q = d.profiles[0].pairs[apart].lossInterval;
      if (q.hi! < 0) q.hi = 0;
      else q.lo = 0;
    }),
    { verdicts: 1, apart: 1, rank_interval: 2 },
  );
});

Deno.test("cardTallies() catches a card figure that is not score's, sweep's, calibrate's or the board's", async () => {
  const inputs = simulated.inputs;
  const b: Built = {
    card: await card(inputs, { profiles: ["flat"], base: "flat" }),
    score: await score(inputs, { profiles: ["flat"] }),
    sweep: await sweep(inputs, { base: "flat" }),
    calibrate: await calibrate(inputs, {}),
    board: await board(inputs, { profiles: ["flat"], resamples: 1000 }),
  };
  assert.deepEqual(differing(cardTallies(b)), {});
  // deno-lint-ignore no-explicit-any
  const tamper = (f: (c: any) => void) => {
    const copy = structuredClone(b.card);
    f(copy);
    return differing(cardTallies({ ...b, card: copy }));
  };
  assert.deepEqual(
    tamper((c) => c.models[0].lossIntervals.flat.method = "percentile"),
    { loss: 1 },
  );
  assert.deepEqual(
    tamper((c) => c.models[1].accuracyInterval!.hi! += 1e-12),
    { accuracy: 1 },
  );
  const winner = b.card.models.findIndex((m) => m.wins.length > 0);
  // a span that stops short of the next winner change leaves grid points
  // where sweep names the model a winner outside every span
  assert.ok(
    tamper((c) => c.models[winner].wins[0].to /= 2).k_span >= 1,
  );
  assert.deepEqual(
    tamper((c) => c.models[0].cost.successes += 1),
    { cost: 1 },
  );
  assert.deepEqual(
    tamper((c) => c.models[2].calibration!.brier! += 1e-9),
    { calibration: 1 },
  );
});

Deno.test("consequenceCard(): a run whose models answered different tasks fails the cost claim, and only it", async () => {
  const decisions = simulated.inputs[0] as Decision[];
  // frontier_even skips the suite's first ten tasks
  const skipped = new Set(decisions.slice(0, 10).map((d) => d.taskId));
  const cut = decisions.filter((d) =>
    !(d.modelId === "frontier_even" && skipped.has(d.taskId))
  );
  const r = await consequenceCard({
    runs: [{ id: "cut", label: "ten tasks short", inputs: [cut] }],
    profiles: ["flat"],
    resamples: 1000,
  });
  assert.deepEqual(r.claims.filter((c) => !c.holds).map((c) => c.id), [
    "consequence_card.cut.card.cost",
  ]);
});

Deno.test("consequenceCard() tables match the snapshot", async (t) => {
  const r = await result;
  const table = (name: string) =>
    roundNumbers(r.tables[name].objects() as Record<string, unknown>[], 6);
  await t.assertSnapshot({
    card: table("card"),
    card_wins: table("card_wins"),
    board: table("board"),
    reading: table("reading"),
  });
});
