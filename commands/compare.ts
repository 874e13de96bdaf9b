// `lossbook compare`: paired differences between two models on the same tasks.
import type { CostProfile } from "../lib/costs/profile.ts";
import { accuracy } from "../lib/metrics/accuracy.ts";
import {
  pairedBootstrap,
  type PairedComparison,
} from "../lib/metrics/bootstrap.ts";
import { realisedLoss } from "../lib/metrics/loss.ts";
import {
  AUTO_DIFFERENCE_INTERVAL,
  LOSS_DIFFERENCE_ESTIMAND,
  lossDifferenceInterval,
  METHOD_LABELS,
  resolveIntervalMethod,
} from "../lib/metrics/loss_interval.ts";
import {
  pairedLossTest,
  type PairedTaskGroup,
  pairedTaskStats,
} from "../lib/metrics/paired_loss_test.ts";
import {
  newcombePairedInterval,
  pairedAccuracyTable,
} from "../lib/metrics/paired_proportion.ts";
import { signFlipTest } from "../lib/metrics/sign_flip.ts";
import { seededPrng, seedFor } from "../lib/math/sampling.ts";
import { pairedStats } from "../lib/decision/paired_stats.ts";
import { pairedTasks } from "../lib/decision/paired_tasks.ts";
import {
  alignRows,
  type Command,
  formatNumber,
  parseFlags,
  UsageError,
  withUserValues,
} from "./_command.ts";
import { fileKeys, fileLabel, importKeys, readRun } from "./_input.ts";
import { formatLevel } from "./_format.ts";
import {
  commonOptions,
  matrixOf,
  resolveProfiles,
  SCORING_FLAGS,
} from "../api/score.ts";
import { commandHelp } from "./_help.ts";

/** One difference of `compare --json`: the bootstrap keys, plus what computed them. */
export interface CompareDifference extends Omit<PairedComparison, "method"> {
  /** How the interval was computed, in words. */
  method: string;
  /** Interval method id, as `--interval` takes it. */
  interval: string;
  /** The test behind `pValue`. */
  test: string;
  /** What the interval is for. */
  estimand: string;
  /** Tasks paired (the unit of the test); null for the bootstrap. */
  tasks: number | null;
  /** Monte Carlo sign assignments of the test; 0 when exact or bootstrap. */
  testResamples: number;
}

/** The caveat every loss test carries, in `notes` and the human output. */
export const SYMMETRY_NOTE =
  "The sign-flip test holds its level when the two models are exchangeable on each task (heavy tails included). When they have equal expected loss but err at different severities, per-task differences need not be symmetric and no size is claimed for that case.";

function row(
  label: string,
  c: PairedComparison | CompareDifference,
  digits = 6,
): string[] {
  const f = (
    v: number | null,
  ) => (v === null ? "n/a" : formatNumber(v, digits));
  const boot = (c as Partial<CompareDifference>).test === undefined ||
    (c as CompareDifference).test === "paired bootstrap";
  return [
    label,
    f(c.estimate),
    c.lo === null ? "n/a" : `[${f(c.lo)}, ${f(c.hi)}]`,
    c.pValue === null
      ? "n/a"
      : boot && c.pValue < 1 / c.resamples + 1e-12
      ? `<= ${f(c.pValue)}`
      : f(c.pValue),
    (c as Partial<CompareDifference>).test ?? "paired bootstrap",
  ];
}

/**
 * The accuracy difference of `compare`'s default: Newcombe's paired score
 * interval on the per-task 2×2 table, and a sign-flip test on the per-task
 * accuracy differences (with one trial per task, the exact McNemar test).
 */
function accuracyDifference(
  groups: readonly PairedTaskGroup[],
  o: { level: number; resamples: number; seed: number; pairs: number },
): CompareDifference {
  const { table, differences, weights } = pairedAccuracyTable(groups);
  const ci = newcombePairedInterval(table, { level: o.level });
  const tasks = weights.reduce((a, b) => a + b, 0);
  const t = signFlipTest(differences, {
    weights,
    resamples: o.resamples,
    seed: o.seed,
  });
  return {
    estimate: ci.estimate,
    lo: ci.lo,
    hi: ci.hi,
    level: o.level,
    resamples: 0,
    undefinedResamples: 0,
    seed: o.seed,
    method: ci.method,
    pValue: tasks === 0 ? null : t.pValue,
    pairs: o.pairs,
    interval: "newcombe",
    test: `sign-flip permutation, ${t.mode}`,
    estimand:
      "difference of the two models' expected accuracies on these tasks (A - B), each task's trials averaged",
    tasks,
    testResamples: t.resamples,
  };
}

/** The options of `compare`: the scoring flags with its own --interval, and the two models. */
const COMPARE_OPTIONS = {
  a: {
    type: "string",
    value: "MODEL",
    doc: "model A, as its modelId in the run; differences are A - B",
    required: true,
  },
  b: {
    type: "string",
    value: "MODEL",
    doc: "model B, another modelId on the same tasks",
    required: true,
  },
  ...SCORING_FLAGS,
  engine: {
    ...SCORING_FLAGS.engine,
    doc:
      "shared with score: compare pairs decisions task by task in process, so only memory is taken here (duckdb and postgres compute statistics only)",
  },
  interval: {
    type: "string",
    value: "auto|jeffreys|bootstrap",
    doc: "method of the loss and accuracy differences (see below)",
    byDefault: "auto (jeffreys)",
  },
} as const;

/** The `compare` command. */
export const compareCommand: Command = {
  summary:
    "Compare two models on the same tasks: paired differences in accuracy and loss, with a sign-flip test on per-task loss differences",
  ...commandHelp({
    forms: [{
      command: "compare",
      args: "<file>...",
      options: COMPARE_OPTIONS,
    }],
    notes: [
      "--interval auto|jeffreys|bootstrap: method of loss differences (and of the accuracy difference). The accuracy difference is Newcombe's hybrid score interval for paired proportions (newcombe-1998) on the per-task 2x2 table, with a sign-flip (exact McNemar) test; under bootstrap it is the paired bootstrap of earlier versions. auto (default) is jeffreys for the loss: per-cell Jeffreys-Dirichlet posteriors of each model, drawn by seeded Monte Carlo (--resamples draws), for the interval, and a paired sign-flip permutation test on per-task loss differences (exact up to 16 non-zero tasks, else --resamples seeded sign assignments) for the p-value; the task, not the trial, is the unit. bootstrap is the paired percentile bootstrap of earlier versions (interval and p-value), which over-rejects under heavy tails. fay-feuer is for one model's loss (score), not a difference.",
    ],
  }),
  example:
    "deno task lossbook compare data/examples/model_ab.jsonl --a A --b B",
  async run(args) {
    const { values, positionals } = parseFlags(
      "compare",
      args,
      COMPARE_OPTIONS,
    );
    if (positionals.length === 0) {
      throw new UsageError("expected one or more run files, got none");
    }
    if (values.a === undefined || values.b === undefined) {
      throw new UsageError("name the two models with --a MODEL --b MODEL");
    }
    const { level, seed, resamples, mode, interval } = commonOptions(values);
    const method = resolveIntervalMethod(interval, AUTO_DIFFERENCE_INTERVAL);
    if (method === "fay-feuer") {
      throw new UsageError(
        "--interval fay-feuer gives one model's loss interval (score); for a difference use auto, jeffreys or bootstrap",
      );
    }
    const profiles: CostProfile[] = await resolveProfiles(values.profile, {
      lenient: values.lenient,
    });
    const run = await readRun(positionals, values, true);
    const paired = withUserValues(() =>
      pairedStats(run.table!, values.a!, values.b!)
    );
    const matrix = matrixOf(mode);
    // Each difference draws from its own stream (seedFor), so adding a
    // profile never moves another profile's interval.
    const opts = (label: string) => ({
      level,
      resamples,
      prng: seededPrng(seedFor(seed, label)),
    });
    const accuracyBoot = pairedBootstrap(
      paired.rows,
      (s) => accuracy(s).value,
      opts("accuracy"),
    );
    const byTask = method === "bootstrap"
      ? null
      : pairedTasks(run.table!, values.a, values.b);
    const accuracyDiff: PairedComparison | CompareDifference = byTask === null
      ? accuracyBoot
      : accuracyDifference(byTask.groups, {
        level,
        resamples,
        seed: seedFor(seed, "test/accuracy"),
        pairs: accuracyBoot.pairs,
      });
    const [statsA, statsB] = byTask === null
      ? [[], []]
      : pairedTaskStats(byTask.groups, [values.a, values.b]);
    const loss: Record<string, CompareDifference> = Object.fromEntries(
      profiles.map((p): [string, CompareDifference] => {
        if (byTask === null) {
          return [p.id, {
            ...pairedBootstrap(
              paired.rows,
              (s) => realisedLoss(s, p, { matrix }),
              opts(`loss/${p.id}`),
            ),
            interval: "bootstrap",
            test: "paired bootstrap",
            estimand: LOSS_DIFFERENCE_ESTIMAND,
            tasks: null,
            testResamples: 0,
          }];
        }
        const ci = lossDifferenceInterval(statsA, statsB, p, {
          ...opts(`loss/${p.id}`),
          draws: resamples,
          matrix,
          unit: "task",
        });
        const t = pairedLossTest(byTask.groups, p, {
          matrix,
          resamples,
          prng: seededPrng(seedFor(seed, `test/loss/${p.id}`)),
        });
        return [p.id, {
          estimate: ci.estimate,
          lo: ci.lo,
          hi: ci.hi,
          level,
          resamples: ci.resamples,
          undefinedResamples: 0,
          seed: ci.seed,
          method: METHOD_LABELS.jeffreys,
          pValue: byTask.tasks === 0 ? null : t.pValue,
          pairs: accuracyDiff.pairs,
          interval: "jeffreys",
          test: `sign-flip permutation, ${t.mode}`,
          estimand: ci.estimand,
          tasks: byTask.tasks,
          testResamples: t.resamples,
        }];
      }),
    );
    const notes = method === "bootstrap"
      ? [
        "The paired bootstrap p-value is kept for comparison; it over-rejects under heavy-tailed losses (see docs/method.md).",
      ]
      : [SYMMETRY_NOTE];
    if (values.json) {
      console.log(JSON.stringify(
        {
          ...fileKeys(run.files),
          format: run.format,
          matrix: matrix.id,
          a: values.a,
          b: values.b,
          mode,
          level,
          seed,
          resamples,
          interval,
          pairs: accuracyDiff.pairs,
          onlyA: paired.onlyA,
          onlyB: paired.onlyB,
          tasks: byTask?.tasks ?? null,
          onlyATasks: byTask?.onlyA ?? null,
          onlyBTasks: byTask?.onlyB ?? null,
          notes,
          differences: { accuracy: accuracyDiff, loss },
          ...importKeys(run),
        },
        null,
        2,
      ));
      return 0;
    }
    const lv = formatLevel(level);
    const rows = [
      ["difference (A - B)", "estimate", `${lv} CI`, "p-value", "test"],
      row("accuracy", accuracyDiff),
    ];
    for (const p of profiles) rows.push(row(`loss, ${p.id}`, loss[p.id]));
    console.log(
      `${
        fileLabel(run.files)
      }: ${values.a} (A) vs ${values.b} (B) on ${accuracyDiff.pairs} shared decisions${
        byTask !== null && byTask.tasks !== accuracyDiff.pairs
          ? ` of ${byTask.tasks} tasks (a task's trials averaged for loss)`
          : ""
      }${
        paired.onlyA + paired.onlyB > 0
          ? ` (unpaired: ${paired.onlyA} only A, ${paired.onlyB} only B)`
          : ""
      }; ${mode} mode, ${matrix.id} matrix; loss intervals: ${
        METHOD_LABELS[method]
      } (--interval ${interval}); accuracy: ${
        byTask === null
          ? "paired bootstrap"
          : "Newcombe's paired score interval, sign-flip (McNemar) test"
      }; seed ${seed}, ${resamples} resamples\n${alignRows(rows)}\n${
        notes.map((n) => `note: ${n}`).join("\n")
      }`,
    );
    return 0;
  },
};
