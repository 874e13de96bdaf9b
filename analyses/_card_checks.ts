// Private: the checks of the consequence card analysis. The card's figures
// are held to the documents of score, sweep and calibrate for the same
// inputs and to the board's cost evidence, leaf by leaf; the board is held to
// its own raw p-values. Each check counts the figures it compared and names
// those that differ.
import type { BoardDocument, BoardProfile } from "../api/board.ts";
import type { CalibrateDocument } from "../api/calibrate.ts";
import type { CardDocument } from "../api/card.ts";
import type { ScoreDocument } from "../api/score.ts";
import type { SweepDocument } from "../api/sweep.ts";

/** Figures compared, and where they differ. */
export interface Tally {
  /** Figures (or checks) compared. */
  compared: number;
  /** The paths of those that differ. */
  readonly differ: string[];
}

function tally(): Tally {
  return { compared: 0, differ: [] };
}

function isBranch(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object";
}

/**
 * Compare two values leaf by leaf (numbers, strings, booleans, nulls), path
 * by path; a key on one side only is a leaf that differs. With `cardKeys`,
 * only the keys of the card's side are compared, at every depth: the card
 * keeps part of a document (sweep's grid without its ratios).
 */
function compareLeaves(
  onCard: unknown,
  fromCommand: unknown,
  path: string,
  into: Tally,
  cardKeys = false,
): void {
  if (isBranch(onCard) && isBranch(fromCommand)) {
    const keys = new Set([
      ...Object.keys(onCard),
      ...(cardKeys ? [] : Object.keys(fromCommand)),
    ]);
    for (const k of keys) {
      compareLeaves(onCard[k], fromCommand[k], `${path}.${k}`, into, cardKeys);
    }
    return;
  }
  into.compared++;
  if (!Object.is(onCard, fromCommand) && onCard !== fromCommand) {
    into.differ.push(path);
  }
}

/** One check of a tally: true when it holds. */
function check(into: Tally, path: string, holds: boolean): void {
  into.compared++;
  if (!holds) into.differ.push(path);
}

/**
 * Holm's adjusted p-values from the definition (`holm-1979`): with the m
 * p-values sorted ascending as p(1) ≤ … ≤ p(m), a hypothesis with p-value p
 * gets the largest min(1, (m − j + 1) p(j)) over the j with p(j) ≤ p. Tied
 * p-values get the same value whatever their order. O(m²).
 */
export function holmByDefinition(pValues: readonly number[]): number[] {
  const sorted = [...pValues].sort((x, y) => x - y);
  const m = pValues.length;
  return pValues.map((p) => {
    let adjusted = 0;
    sorted.forEach((q, j) => {
      if (q <= p) adjusted = Math.max(adjusted, Math.min(1, (m - j) * q));
    });
    return adjusted;
  });
}

/** A pair's verdict, recomputed from its raw p-value. */
export interface Verdict {
  /** Its Holm-adjusted p-value ({@linkcode holmByDefinition}). */
  readonly holm: number;
  /** The level of each pair's loss interval: 1 − alpha / m, m the profile's pairs (Bonferroni). */
  readonly level: number;
  /**
   * Told apart: the adjusted p-value is at most alpha, the losses differ,
   * and the pair's loss interval lies wholly on the side of the difference.
   */
  readonly apart: boolean;
  /** When told apart, the model with the lower loss; else null. */
  readonly better: string | null;
}

/**
 * The verdict on each pair of a profile's ranking, from the raw p-values
 * and the pairs' loss intervals alone.
 *
 * @param p A profile's ranking on the board.
 * @param alpha The family-wise level.
 * @returns One verdict per pair, in the pairs' order.
 */
export function verdicts(p: BoardProfile, alpha: number): Verdict[] {
  const holm = holmByDefinition(p.pairs.map((q) => q.pValue));
  const level = 1 - alpha / p.pairs.length;
  return p.pairs.map((q, k) => {
    const { lo, hi } = q.lossInterval;
    const beyond = q.difference < 0
      ? hi !== null && hi < 0
      : lo !== null && lo > 0;
    const apart = holm[k] <= alpha && q.difference !== 0 && beyond;
    return {
      holm: holm[k],
      level,
      apart,
      better: !apart ? null : q.difference < 0 ? q.a : q.b,
    };
  });
}

/** What the analysis built for one run: the card, and the documents it is held to. */
export interface Built {
  /** The card. */
  readonly card: CardDocument;
  /** scoreRun's document for the same inputs and flags. */
  readonly score: ScoreDocument;
  /** sweepRun's. */
  readonly sweep: SweepDocument;
  /** calibrateRun's, or null where calibrate refuses (no probability stated). */
  readonly calibrate: CalibrateDocument | null;
  /** The board of the same inputs. */
  readonly board: BoardDocument;
}

/** The card's checks, by what they compare. */
export interface CardTallies {
  /** The document's settings and model list, against score's. */
  readonly document: Tally;
  /** Decisions, accuracy and its interval, against score's. */
  readonly accuracy: Tally;
  /** R_w and its interval, against score's. */
  readonly recall: Tally;
  /** Loss and its interval per profile, against score's. */
  readonly loss: Tally;
  /** P(best) and its shrinkage, against score's. */
  readonly p_best: Tally;
  /** The sweep and each model's winning spans, against sweep's. */
  readonly k_span: Tally;
  /** Binning and calibration, against calibrate's. */
  readonly calibration: Tally;
  /** Cost evidence, against the board's. */
  readonly cost: Tally;
}

/**
 * Hold the card's figures to score's, sweep's and calibrate's for the same
 * inputs and flags, and its cost evidence to the board's.
 *
 * @param b The card and the documents it is held to.
 * @returns The checks, by what they compare.
 */
export function cardTallies(b: Built): CardTallies {
  const t = {
    document: tally(),
    accuracy: tally(),
    recall: tally(),
    loss: tally(),
    p_best: tally(),
    k_span: tally(),
    calibration: tally(),
    cost: tally(),
  };
  const { card: doc, score, sweep } = b;
  // every key the card shares with score's document, the models aside
  const onCard = new Map(Object.entries(doc));
  for (const [k, v] of Object.entries(score)) {
    if (k !== "models" && onCard.has(k)) {
      compareLeaves(onCard.get(k), v, k, t.document);
    }
  }
  compareLeaves(
    doc.models.map((m) => m.modelId),
    score.models.map((m) => m.modelId),
    "models",
    t.document,
  );
  compareLeaves(doc.sweep, sweep, "sweep", t.k_span, true);
  const changes = new Map(sweep.winnerChanges.map((c) => [c.ratio, c.exact]));
  const calibrated = new Map(
    (b.calibrate?.models ?? []).map((m) => [m.modelId, m]),
  );
  compareLeaves(
    doc.calibration,
    b.calibrate === null ? null : {
      bins: b.calibrate.binsRequested,
      strategy: b.calibrate.strategy,
    },
    "calibration",
    t.calibration,
  );
  check(
    t.cost,
    "board covers the card's decisions",
    doc.sameTasks && b.board.decisions === doc.decisions,
  );
  for (const m of doc.models) {
    const s = score.models.find((x) => x.modelId === m.modelId);
    const at = m.modelId;
    compareLeaves(
      {
        decisions: m.decisions,
        accuracy: m.accuracy,
        interval: m.accuracyInterval,
      },
      s === undefined ? null : {
        decisions: s.n,
        accuracy: s.accuracy,
        interval: s.intervals.accuracy,
      },
      `${at}.accuracy`,
      t.accuracy,
    );
    compareLeaves(
      {
        value: m.severityWeightedRecall,
        interval: m.severityWeightedRecallInterval,
      },
      s === undefined ? null : {
        value: s.severityWeightedRecall,
        interval: s.intervals.severityWeightedRecall,
      },
      `${at}.severityWeightedRecall`,
      t.recall,
    );
    compareLeaves(
      { loss: m.loss, intervals: m.lossIntervals },
      s === undefined ? null : { loss: s.loss, intervals: s.intervals.loss },
      `${at}.loss`,
      t.loss,
    );
    compareLeaves(
      { pBest: m.pBest, shrinkage: m.pBestShrinkage },
      s === undefined ? null : { pBest: s.pBest, shrinkage: s.pBestShrinkage },
      `${at}.pBest`,
      t.p_best,
    );
    // the spans hold exactly the grid points sweep names the model a winner
    // at (a point on a span's end may go either way)
    sweep.grid.ratios.forEach((r, j) => {
      const wins = sweep.winners[j].includes(m.modelId);
      const inSpan = m.wins.some((w) => w.from <= r && r <= w.to);
      const inside = m.wins.some((w) => w.from < r && r < w.to);
      check(t.k_span, `${at}.wins at r = ${r}`, wins ? inSpan : !inside);
    });
    for (const [i, w] of m.wins.entries()) {
      // a span starts and ends at the grid's ends or at sweep's exact winner changes
      check(
        t.k_span,
        `${at}.wins[${i}].from`,
        w.fromExact === null
          ? w.from === sweep.grid.from
          : changes.get(w.from) === w.fromExact,
      );
      check(
        t.k_span,
        `${at}.wins[${i}].to`,
        w.toExact === null
          ? w.to === sweep.grid.to
          : changes.get(w.to) === w.toExact,
      );
      for (const sev of sweep.family.scaled) {
        const k = sweep.family.K[sev];
        check(
          t.k_span,
          `${at}.wins[${i}].K.from.${sev}`,
          w.K.from[sev] === k * w.from,
        );
        check(
          t.k_span,
          `${at}.wins[${i}].K.to.${sev}`,
          w.K.to[sev] === k * w.to,
        );
      }
    }
    const c = calibrated.get(m.modelId);
    compareLeaves(
      m.calibration === null ? null : {
        n: m.calibration.n,
        ece: m.calibration.ece,
        eceInterval: m.calibration.eceInterval,
        brier: m.calibration.brier,
      },
      c === undefined || c.n === 0
        ? null
        : { n: c.n, ece: c.ece, eceInterval: c.eceInterval, brier: c.brier },
      `${at}.calibration`,
      t.calibration,
    );
    if (m.calibration !== null) {
      // every decision calibrated has a probability whose source is counted
      const sourced = Object.values(m.calibration.pCorrectSources)
        .reduce((x, y) => x + y, 0);
      check(
        t.calibration,
        `${at}.calibration.pCorrectSources`,
        sourced === m.calibration.n,
      );
    }
    const e = b.board.costEvidence.find((x) => x.group === m.modelId);
    compareLeaves(
      m.cost,
      e === undefined ? null : {
        attempts: e.attempts,
        complete: e.completeCount,
        partial: e.partialCount,
        unavailable: e.unavailableCount,
        notApplicable: e.notApplicableCount,
        completeUsd: e.completeUsd,
        successes: e.successes,
        costPerSuccessUsd: e.costPerSuccessUsd,
        costPerSuccessLabel: e.costPerSuccessLabel,
      },
      `${at}.cost`,
      t.cost,
    );
  }
  return t;
}

/** The board's checks, by what they compare. */
export interface BoardTallies {
  /** Adjusted p-values, against Holm recomputed. */
  readonly holm: Tally;
  /** Each pair's loss-interval level, against 1 − alpha / m. */
  readonly interval_level: Tally;
  /** Each pair's `significant` and `better`, against the verdict recomputed. */
  readonly verdicts: Tally;
  /** Pairs sharing a letter: not told apart. */
  readonly shared: Tally;
  /** Pairs sharing no letter: told apart. */
  readonly apart: Tally;
  /** Rank intervals, against the verdicts' counts. */
  readonly rank_interval: Tally;
}

/**
 * Whether two models of a profile's ranking share a letter.
 *
 * @param p The profile's ranking.
 * @param a One model.
 * @param b The other.
 * @returns True when some letter holds both.
 */
export function shareLetter(p: BoardProfile, a: string, b: string): boolean {
  const of = (m: string) => p.ranking.find((r) => r.modelId === m)!.groups;
  return of(a).some((g) => of(b).includes(g));
}

/**
 * Hold a board to its own raw p-values and loss intervals: Holm's
 * adjustment, each interval's level, each pair's verdict, the letters (two models share one exactly when the pair is not
 * told apart) and each rank interval.
 *
 * @param doc The board.
 * @returns The checks, by what they compare.
 */
export function boardTallies(doc: BoardDocument): BoardTallies {
  const t = {
    holm: tally(),
    interval_level: tally(),
    verdicts: tally(),
    shared: tally(),
    apart: tally(),
    rank_interval: tally(),
  };
  for (const p of doc.profiles) {
    const v = verdicts(p, doc.alpha);
    p.pairs.forEach((q, k) => {
      const at = `${p.id}.${q.a}/${q.b}`;
      check(t.holm, at, q.adjustedPValue === v[k].holm);
      check(
        t.interval_level,
        at,
        Math.abs(q.lossInterval.level - v[k].level) <= 1e-12,
      );
      check(
        t.verdicts,
        at,
        q.significant === v[k].apart && q.better === v[k].better,
      );
      if (shareLetter(p, q.a, q.b)) check(t.shared, at, !v[k].apart);
      else check(t.apart, at, v[k].apart);
    });
    const n = p.ranking.length;
    for (const r of p.ranking) {
      const better = v.filter((x, k) =>
        x.apart && x.better !== r.modelId &&
        (p.pairs[k].a === r.modelId || p.pairs[k].b === r.modelId)
      ).length;
      const worse = v.filter((x) => x.better === r.modelId).length;
      check(
        t.rank_interval,
        `${p.id}.${r.modelId}`,
        r.rankInterval[0] === 1 + better && r.rankInterval[1] === n - worse,
      );
    }
  }
  return t;
}
