/**
 * The consequence card and the board, each held to what it stands on.
 *
 * `card` gathers, per model, what `score`, `sweep` and `calibrate` return for
 * the same inputs; `board` ranks the models on the tasks they all answered,
 * with tie groups from compare's paired test on every pair, Holm-adjusted.
 * This analysis builds both on two runs: the inspect logs of the README's
 * card example with their severity map, and the shipped reconciliation suite
 * answered by four simulated models (the README's `simulate` run with two
 * more models, so that the board has pairs told apart and pairs not).
 *
 * The checks come from outside the two commands. Each figure on the card is
 * compared with what `scoreRun`, `sweepRun` and `calibrateRun` return when
 * called again with the same inputs and flags; the span of K over which a
 * model wins is checked against sweep's winners at every grid point; the
 * cost evidence against the board's, on the same decisions. Each board is
 * checked against its own raw p-values: Holm's adjustment recomputed from
 * its definition (`holm-1979`), each pair's verdict, the compact letters
 * (`piepho-2004`: two models share a letter exactly when the pair is not
 * told apart, which is all a letter display promises; a letter need not be
 * a run of consecutive places) and each rank interval, [1 + the models
 * significantly better, n − the models significantly worse].
 *
 * @module
 */

import * as aq from "arquero";
import { flagValues } from "../api/_options.ts";
import { board, type BoardDocument } from "../api/board.ts";
import {
  CALIBRATE_OPTIONS,
  type CalibrateDocument,
  calibrateRun,
} from "../api/calibrate.ts";
import { card, type CardDocument } from "../api/card.ts";
import type { InputOptions } from "../api/options.ts";
import { SCORE_OPTIONS, scoreRun } from "../api/score.ts";
import { SWEEP_OPTIONS, sweepRun } from "../api/sweep.ts";
import { UsageError } from "../commands/_errors.ts";
import type { RunSource } from "../commands/_input.ts";
import { lossIntervalChart } from "../lib/charts/loss_interval_chart.ts";
import type {
  AnalysisResult,
  VegaLiteSpec,
} from "../lib/claims/analysis_result.ts";
import { type Claim, claimEqual } from "../lib/claims/claim.ts";
import { formatQuantity } from "../lib/format/numbers.ts";
import {
  boardTallies,
  type Built,
  cardTallies,
  shareLetter,
  type Tally,
  verdicts,
} from "./_card_checks.ts";
import { projectPath, shownPath } from "./_paths.ts";
import { suiteDecisions } from "./_suite.ts";
import { FLAT_COST_SUITE, THEOREM_MODELS } from "./flat_cost_theorem.ts";

const SOURCE =
  "lossbook card and board on the README's examples: inspect logs with their severity map, and simulated models on the shipped reconciliation suite; holm-1979, piepho-2004";

/** One run the analysis makes a card and a board of. */
export interface ConsequenceCardRun {
  /** Key of the run in claim ids, chart names and tables: lowercase letters, digits and `_`. */
  readonly id: string;
  /** What the run is, in words. */
  readonly label: string;
  /** The inputs, as `card` and `board` take them: paths, or arrays of decisions. */
  readonly inputs: readonly RunSource[];
  /** How every function reads them (format, severity map, …). Default: none. */
  readonly reading?: InputOptions;
}

/** Options for {@linkcode consequenceCard}. */
export interface ConsequenceCardOptions {
  /**
   * The runs. The card's cost evidence is checked against the board's, which
   * covers the tasks every model answered: a run whose models answered
   * different tasks fails that claim. Default: {@linkcode cardExampleRuns}.
   */
  runs?: readonly ConsequenceCardRun[];
  /** Profile ids (or files) of the card's losses and the board's rankings. Default: the four shipped profiles. */
  profiles?: readonly string[];
  /**
   * Base profile of sweep's family, along which each model's winning span of
   * K is found. Default: `"flat"`, so the family starts where every error
   * costs the same and the accuracy ranking holds.
   */
  base?: string;
  /** Seed of every random draw of card, score, sweep, calibrate and board. Default: 0. */
  seed?: number;
  /** Family-wise level of each profile's pairwise tests on the board. Default: 0.05. */
  alpha?: number;
  /** The board's sign assignments of a pair's Monte Carlo test. Default: 10,000. */
  resamples?: number;
}

/** The inspect logs of the README's card example and their severity map. */
const HARNESS_EXAMPLE = {
  logs: [
    "data/examples/harness/inspect_qwen.eval",
    "data/examples/harness/inspect_sonnet.json",
  ],
  severityMap: "data/examples/harness/inspect_severity.csv",
} as const;

/**
 * The two runs of the analysis: the inspect logs of the README's card
 * example (`inspect_qwen.eval`, `inspect_sonnet.json`, severities from
 * `inspect_severity.csv`), and the shipped reconciliation suite answered by
 * the simulated zoo without the oracle (right on every task, it would win
 * everywhere), seeded as the README's `simulate` example.
 *
 * @param seed Seed of the simulated models. Default: 1, the README's.
 * @returns The runs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cardExampleRuns } from "./consequence_card.ts";
 *
 * const [harness, simulated] = cardExampleRuns();
 * assert.equal(harness.inputs.length, 2);
 * assert.equal((simulated.inputs[0] as unknown[]).length, 4 * 300);
 * ```
 */
export function cardExampleRuns(seed = 1): ConsequenceCardRun[] {
  const decisions = suiteDecisions(FLAT_COST_SUITE, THEOREM_MODELS, seed);
  return [
    {
      id: "harness",
      label: `inspect logs ${
        HARNESS_EXAMPLE.logs.map((l) => l.replace(/^.*\//, "")).join(" and ")
      }, severities from ${HARNESS_EXAMPLE.severityMap.replace(/^.*\//, "")}`,
      inputs: HARNESS_EXAMPLE.logs.map(projectPath),
      reading: { severityMap: projectPath(HARNESS_EXAMPLE.severityMap) },
    },
    {
      id: "simulated",
      label: `${THEOREM_MODELS.length} simulated models on ${
        FLAT_COST_SUITE.replace(/^.*\//, "")
      } (${decisions.length / THEOREM_MODELS.length} tasks, seed ${seed})`,
      inputs: [decisions],
    },
  ];
}

/**
 * A claim that every figure of a tally agrees: the figures compared, and how
 * many agree. With none compared it does not hold, unless the check may be
 * empty.
 */
function agreementClaim(
  id: string,
  statement: string,
  t: Tally,
  source: string,
  mayBeEmpty = false,
): Claim {
  const where = t.differ.length === 0
    ? ""
    : `; differing: ${t.differ.slice(0, 3).join(", ")}${
      t.differ.length > 3 ? ", ..." : ""
    }`;
  return claimEqual(
    id,
    `${statement} (${t.compared} compared${where})`,
    t.compared,
    t.compared === 0 && !mayBeEmpty ? null : t.compared - t.differ.length,
    { kind: "property", source },
  );
}

// Reading the inputs says what it found on standard error (scorer, items set
// aside, probability sources), once per function that reads them; an
// analysis prints nothing, so those lines become a table instead.
async function keepingStderr<T>(
  lines: string[],
  run: () => Promise<T>,
): Promise<T> {
  const error = console.error;
  console.error = (...data: unknown[]) => {
    const line = data.map(String).join(" ").replaceAll(projectPath(""), "");
    if (!lines.includes(line)) lines.push(line);
  };
  try {
    return await run();
  } finally {
    console.error = error;
  }
}

/** The options with their defaults, but the profiles (absent: the commands' own default). */
interface Settings {
  readonly profiles: readonly string[] | undefined;
  readonly base: string;
  readonly seed: number;
  readonly alpha: number;
  readonly resamples: number;
}

async function build(
  run: ConsequenceCardRun,
  settings: Settings,
): Promise<Built & { readonly said: readonly string[] }> {
  const { profiles, base, seed, alpha, resamples } = settings;
  const shared = { ...run.reading, seed };
  const said: string[] = [];
  return await keepingStderr(said, async () => {
    const cardDoc = await card(run.inputs, { ...shared, profiles, base });
    const score = await scoreRun(
      run.inputs,
      flagValues("score", SCORE_OPTIONS, { ...shared, profiles }),
    );
    const sweep = await sweepRun(
      run.inputs,
      flagValues("sweep", SWEEP_OPTIONS, { ...shared, base }),
    );
    let calibrated: CalibrateDocument | null = null;
    try {
      calibrated = (await calibrateRun(
        run.inputs,
        flagValues("calibrate", CALIBRATE_OPTIONS, shared),
      )).document;
    } catch (error) {
      // calibrate refuses a run whose decisions state no probability; the
      // card then has no calibration, which the claim checks
      if (!(error instanceof UsageError)) throw error;
    }
    const boardDoc = await board(run.inputs, {
      ...shared,
      profiles,
      alpha,
      resamples,
    });
    return {
      card: cardDoc,
      score: score.document,
      sweep: sweep.document,
      calibrate: calibrated,
      board: boardDoc,
      said,
    };
  });
}

function runClaims(run: ConsequenceCardRun, b: Built): Claim[] {
  const c = cardTallies(b);
  const d = boardTallies(b.board);
  const each = `for each of its ${b.card.models.length} models`;
  const pairs = b.board.profiles.reduce((s, p) => s + p.pairs.length, 0);
  const card = "lossbook: docs/cli.md, card";
  const holm = "holm-1979: step-down adjustment";
  const letters = "piepho-2004: compact letter display";
  const ranking = "lossbook: docs/method.md, Ranking on a board";
  const checks: [string, Tally, string, string][] = [
    [
      "card.document",
      c.document,
      card,
      "every setting the card shares with scoreRun's document (format, decisions, mode, matrix, level, seed, resamples, interval method, profiles, reading notes, probability sources, items set aside) and its model list are scoreRun's for the same inputs and flags",
    ],
    [
      "card.accuracy",
      c.accuracy,
      card,
      `${each}, the card's decisions, accuracy and accuracy interval (bounds, level, method, effective n) are scoreRun's`,
    ],
    [
      "card.recall",
      c.recall,
      card,
      `${each}, the card's severity-weighted recall and its interval are scoreRun's`,
    ],
    [
      "card.loss",
      c.loss,
      card,
      `${each}, the card's loss per profile and its interval with its method are scoreRun's`,
    ],
    [
      "card.p_best",
      c.p_best,
      card,
      `${each}, the card's P(best) and its shrinkage per profile are scoreRun's`,
    ],
    [
      "card.k_span",
      c.k_span,
      card,
      "the card's sweep is sweepRun's, each model's winning spans hold exactly the grid points where sweepRun names it a winner, start and end at the grid's ends or sweepRun's exact winner changes, and give K = base K × r at both ends",
    ],
    [
      "card.calibration",
      c.calibration,
      card,
      `the card's binning and, ${each}, its calibration (n, ECE and its interval, Brier) are calibrateRun's, none where calibrateRun has none, with a source counted for every probability`,
    ],
    [
      "card.cost",
      c.cost,
      card,
      `the board covers the card's decisions, and ${each} the card's cost evidence is the board's`,
    ],
    [
      "board.holm",
      d.holm,
      holm,
      `every pair's adjusted p-value on the board (${pairs} pairs over ${b.board.profiles.length} profiles) is Holm's step-down adjustment of the profile's raw p-values, recomputed from its definition`,
    ],
    [
      "board.interval_level",
      d.interval_level,
      ranking,
      `every pair's loss-difference interval on the board has level 1 − alpha / m, alpha = ${b.board.alpha} and m the profile's pairs (Bonferroni)`,
    ],
    [
      "board.verdicts",
      d.verdicts,
      holm,
      `a pair is told apart exactly when its recomputed adjusted p-value is at most alpha = ${b.board.alpha}, the losses differ and its loss-difference interval lies wholly on the side of the difference, and the model declared better is the one with the lower loss`,
    ],
    [
      "board.letters.shared",
      d.shared,
      letters,
      "every pair of models sharing a letter is not told apart at alpha",
    ],
    [
      "board.letters.apart",
      d.apart,
      letters,
      "every pair of models sharing no letter is told apart at alpha",
    ],
    [
      "board.rank_interval",
      d.rank_interval,
      ranking,
      "each model's rank interval is [1 + the models significantly better, n − the models significantly worse], counted from the recomputed verdicts",
    ],
  ];
  return checks.map(([key, t, source, statement]) =>
    agreementClaim(
      `consequence_card.${run.id}.${key}`,
      `${run.label}: ${statement}`,
      t,
      source,
      // a board may tell no pair apart, or every pair
      key.startsWith("board.letters."),
    )
  );
}

// the card counts decisions whose input names no source under "null"
function sourceCounts(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts).map(([k, n]) =>
    `${k === "null" ? "source not named" : k} ${n}`
  ).join(", ");
}

function kText(K: Readonly<Record<string, number | undefined>>): string {
  return Object.entries(K).map(([s, k]) => `${s} ${formatQuantity(k ?? null)}`)
    .join(", ");
}

/** The rows of the analysis's tables, by table. */
type Rows = Record<
  | "card"
  | "card_loss"
  | "card_wins"
  | "card_evidence"
  | "board"
  | "board_pairs"
  | "reading",
  Record<string, unknown>[]
>;

/** The card's rows: per model, then per model and profile, per winning span. */
function cardRows(
  run: ConsequenceCardRun,
  doc: CardDocument,
  rows: Rows,
): void {
  const units = new Map(doc.profiles.map((p) => [p.id, p.unit]));
  for (const m of doc.models) {
    const model = { run: run.id, model: m.modelId };
    rows.card.push({
      ...model,
      decisions: m.decisions,
      tasks: m.tasks,
      accuracy: m.accuracy,
      accuracyLo: m.accuracyInterval?.lo ?? null,
      accuracyHi: m.accuracyInterval?.hi ?? null,
      accuracyMethod: m.accuracyInterval?.method ?? null,
      severityWeightedRecall: m.severityWeightedRecall,
      severityWeightedRecallLo: m.severityWeightedRecallInterval?.lo ?? null,
      severityWeightedRecallHi: m.severityWeightedRecallInterval?.hi ?? null,
    });
    for (const [profile, loss] of Object.entries(m.loss)) {
      const interval = m.lossIntervals[profile];
      rows.card_loss.push({
        ...model,
        profile,
        unit: units.get(profile) ?? null,
        loss,
        lossLo: interval.lo,
        lossHi: interval.hi,
        lossMethod: interval.method,
        pBest: m.pBest?.[profile] ?? null,
        pBestShrinkage: m.pBestShrinkage?.[profile] ?? null,
      });
    }
    for (const w of m.wins) {
      rows.card_wins.push({
        ...model,
        base: doc.sweep.family.base,
        from: w.from,
        to: w.to,
        fromExact: w.fromExact,
        toExact: w.toExact,
        KFrom: kText(w.K.from),
        KTo: kText(w.K.to),
        tiedWith: w.tiedWith.length === 0 ? "none" : w.tiedWith.join(", "),
      });
    }
    const cal = m.calibration;
    rows.card_evidence.push({
      ...model,
      pCorrectStated: cal?.n ?? 0,
      pCorrectSources: cal === null
        ? "none"
        : sourceCounts(cal.pCorrectSources),
      ece: cal?.ece ?? null,
      eceLo: cal?.eceInterval?.lo ?? null,
      eceHi: cal?.eceInterval?.hi ?? null,
      brier: cal?.brier ?? null,
      attempts: m.cost.attempts,
      completeCount: m.cost.complete,
      partialCount: m.cost.partial,
      unavailableCount: m.cost.unavailable,
      notApplicableCount: m.cost.notApplicable,
      completeUsd: m.cost.completeUsd,
      successes: m.cost.successes,
      costPerSuccessUsd: m.cost.costPerSuccessUsd,
      costPerSuccessLabel: m.cost.costPerSuccessLabel,
    });
  }
}

/** The board's rows: per profile and model, and per profile and pair with Holm recomputed. */
function boardRows(
  run: ConsequenceCardRun,
  doc: BoardDocument,
  rows: Rows,
): void {
  for (const p of doc.profiles) {
    for (const r of p.ranking) {
      rows.board.push({
        run: run.id,
        profile: p.id,
        position: r.position,
        model: r.modelId,
        loss: r.loss,
        letters: r.groups.join(""),
        rankLo: r.rankInterval[0],
        rankHi: r.rankInterval[1],
        significantlyBetter: r.worseThan.length,
        significantlyWorse: r.betterThan.length,
      });
    }
    const v = verdicts(p, doc.alpha);
    p.pairs.forEach((q, k) => {
      rows.board_pairs.push({
        run: run.id,
        profile: p.id,
        a: q.a,
        b: q.b,
        difference: q.difference,
        pValue: q.pValue,
        adjustedPValue: q.adjustedPValue,
        holmRecomputed: v[k].holm,
        lossLo: q.lossInterval.lo,
        lossHi: q.lossInterval.hi,
        intervalLevel: q.lossInterval.level,
        toldApart: q.significant,
        better: q.better,
        shareLetter: shareLetter(p, q.a, q.b),
        test: q.test,
      });
    });
  }
}

/**
 * Build the consequence card and the board of each run, and check them from
 * outside: the card's figures against `scoreRun`, `sweepRun` and
 * `calibrateRun` called again with the same inputs and flags, and against
 * the board's cost evidence; the board's adjusted p-values, verdicts, letters
 * and rank intervals against its raw p-values.
 *
 * The lines the inputs' readers say on standard error (scorer, items set
 * aside, probability sources) are kept in the table `reading`, not printed.
 *
 * @param options Runs, profiles, the family's base, seed, alpha and resamples.
 * @returns Tables `card`, `card_loss`, `card_wins`, `card_evidence`,
 *   `board`, `board_pairs` and `reading`; a chart `card_loss_<run id>` per
 *   run; thirteen claims per run.
 * @throws As `card` and `board`: an input that cannot be read, an option
 *   they refuse, a run of fewer than two models.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { consequenceCard } from "./consequence_card.ts";
 *
 * const result = await consequenceCard({ profiles: ["flat", "principal_risk"], resamples: 2000 });
 * assert.ok(result.claims.every((c) => c.holds));
 * assert.ok(result.tables.board_pairs.numRows() > 0);
 * ```
 */
export async function consequenceCard(
  options: ConsequenceCardOptions = {},
): Promise<AnalysisResult> {
  const runs = options.runs ?? cardExampleRuns();
  const settings: Settings = {
    profiles: options.profiles,
    base: options.base ?? "flat",
    seed: options.seed ?? 0,
    alpha: options.alpha ?? 0.05,
    resamples: options.resamples ?? 10_000,
  };
  const claims: Claim[] = [];
  const rows: Rows = {
    card: [],
    card_loss: [],
    card_wins: [],
    card_evidence: [],
    board: [],
    board_pairs: [],
    reading: [],
  };
  const charts: Record<string, VegaLiteSpec> = {};
  for (const run of runs) {
    const b = await build(run, settings);
    claims.push(...runClaims(run, b));
    for (const line of b.said) rows.reading.push({ run: run.id, line });
    cardRows(run, b.card, rows);
    boardRows(run, b.board, rows);
    charts[`card_loss_${run.id}`] = lossIntervalChart(
      rows.card_loss.filter((r) => r.run === run.id).map((r) => ({
        model: r.model as string,
        profile: r.profile as string,
        unit: r.unit as string | null,
        loss: r.loss as number | null,
        lossLo: r.lossLo as number | null,
        lossHi: r.lossHi as number | null,
      })),
      {
        title: `Loss per profile on the card, with its interval: ${run.label}`,
      },
    );
  }
  const table = (r: Record<string, unknown>[], empty: string[]) =>
    r.length > 0
      ? aq.from(r)
      : aq.table(Object.fromEntries(empty.map((c) => [c, []])));
  return {
    id: "consequence_card",
    title:
      "The consequence card and the board, held to score, sweep, calibrate and their own p-values",
    source: SOURCE,
    parameters: {
      runs: runs.map((r) => `${r.id}: ${r.label}`),
      inputs: runs.map((r) =>
        r.inputs.map((i) =>
          typeof i === "string" ? shownPath(i) : "decisions in memory"
        ).join(", ")
      ),
      profiles: settings.profiles ?? "the four shipped profiles",
      base: settings.base,
      seed: settings.seed,
      alpha: settings.alpha,
      resamples: settings.resamples,
    },
    tables: {
      card: aq.from(rows.card),
      card_loss: aq.from(rows.card_loss),
      card_wins: table(rows.card_wins, ["run", "model", "from", "to"]),
      card_evidence: aq.from(rows.card_evidence),
      board: aq.from(rows.board),
      board_pairs: aq.from(rows.board_pairs),
      reading: table(rows.reading, ["run", "line"]),
    },
    charts,
    claims,
  };
}
