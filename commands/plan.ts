// `lossbook plan`: how many tasks a suite needs to tell two models apart in
// loss (and in accuracy) under a profile, by seeded simulation of compare's
// paired sign-flip test from a pilot run.
import { planSampleSize } from "../lib/metrics/sample_size.ts";
import { pairedStats } from "../lib/decision/paired_stats.ts";
import {
  alignRows,
  type Command,
  formatNumber,
  intFlag,
  parseFlags,
  seedFlag,
  UsageError,
  withUserValues,
} from "./_command.ts";
import { readRun } from "./_input.ts";
import { commonOptions, matrixOf, resolveProfiles } from "../api/score.ts";
import { commandHelp } from "./_help.ts";
import {
  formatOption,
  JSON_OPTION,
  PROBABILITY_OPTION,
  SEED_OPTION,
} from "./_options.ts";

/** Simulated suites per size. */
const SIMULATIONS = 400;
/** Sign assignments of each Monte Carlo permutation test. */
const RESAMPLES = 400;
/** From this many tasks on, the permutation test is its normal approximation. */
const NORMAL_FROM = 5000;

function round4(v: number | null): string {
  return v === null ? "n/a" : v.toFixed(4);
}

function probability(name: string, raw: string | undefined, fallback: number) {
  if (raw === undefined) return fallback;
  const v = Number(raw);
  if (raw.trim() === "" || !(v > 0 && v < 1)) {
    throw new UsageError(
      `--${name} must be a number in (0, 1), got ${JSON.stringify(raw)}`,
    );
  }
  return v;
}

/** The options of `plan`, as `--help` lists them and `parseFlags` reads them. */
const PLAN_OPTIONS = {
  a: {
    type: "string",
    value: "MODEL",
    doc: "model A, as its modelId in the pilot",
    required: true,
  },
  b: {
    type: "string",
    value: "MODEL",
    doc: "model B, another modelId in the pilot",
    required: true,
  },
  profile: {
    type: "string",
    value: "ID|FILE",
    doc:
      "cost profile whose loss difference is to be detected: a shipped id (see 'lossbook profiles') or a profile file",
    required: true,
  },
  power: {
    type: "string",
    value: "P",
    doc: "wanted probability that compare's test detects the difference",
    byDefault: "0.8",
  },
  alpha: {
    type: "string",
    value: "P",
    doc: "significance level of compare's two-sided test",
    byDefault: "0.05",
  },
  "n-tasks": {
    type: "string",
    value: "N",
    doc: "also report the power of a suite of N tasks",
  },
  "max-tasks": {
    type: "string",
    value: "N",
    doc: "largest suite size searched; larger needs are reported as not found",
    byDefault: "1000000",
  },
  format: formatOption("decisions|reconforge|lossbench"),
  probability: PROBABILITY_OPTION,
  mode: {
    type: "string",
    value: "consequence|strict|reconforge",
    doc:
      "cost matrix, as in score: consequence charges a missed exception K(severity) and a wrong type or a false alarm one review; strict charges every wrong automatic answer K(severity); reconforge prices as consequence",
    byDefault: "consequence",
  },
  seed: SEED_OPTION,
  json: JSON_OPTION,
} as const;

/** The `plan` command. */
export const planCommand: Command = {
  summary:
    "Plan a suite's size: tasks needed to tell two models apart in loss (and accuracy), by seeded simulation of compare's test",
  ...commandHelp({
    forms: [{ command: "plan", args: "<file>", options: PLAN_OPTIONS }],
    notes: [
      `The pilot's tasks are grouped by severity and gold class; each group's joint outcomes of A and B get a Dirichlet posterior (pilot counts plus 1/2 per outcome of each model), so a costly outcome the pilot never showed is still simulated. Each of ${SIMULATIONS} simulated suites per size draws from it, keeps the pilot's mix, and runs compare's two-sided sign-flip permutation test on per-task differences (${RESAMPLES} sign assignments; its normal approximation from ${NORMAL_FROM} tasks). The size is doubled from 16, then bisected to within 2%. --n-tasks N also reports the power at N.`,
    ],
  }),
  example:
    "deno task lossbook plan data/examples/model_ab.jsonl --a A --b B --profile reconciliation --json",
  async run(args) {
    const { values, positionals } = parseFlags("plan", args, PLAN_OPTIONS);
    if (positionals.length !== 1) {
      throw new UsageError(`expected one run file, got ${positionals.length}`);
    }
    if (values.a === undefined || values.b === undefined) {
      throw new UsageError("name the two models with --a MODEL --b MODEL");
    }
    if (values.a === values.b) {
      throw new UsageError(`--a and --b name the same model, ${values.a}`);
    }
    if (values.profile === undefined) {
      throw new UsageError("name the cost profile with --profile ID|FILE");
    }
    const power = probability("power", values.power, 0.8);
    const alpha = probability("alpha", values.alpha, 0.05);
    const maxTasks = intFlag("max-tasks", values["max-tasks"], {
      min: 2,
      fallback: 1_000_000,
    });
    const nTasks = values["n-tasks"] === undefined
      ? null
      : intFlag("n-tasks", values["n-tasks"], { min: 1, fallback: 1 });
    const seed = seedFlag(values.seed);
    const { mode } = commonOptions({ mode: values.mode });
    const [profile] = await resolveProfiles([values.profile]);
    const path = positionals[0];
    const run = await readRun(path, values, true);
    // The simulated suites have one trial per task, as the test's unit is
    // the task; a pilot with repeated trials would pass trials off as tasks.
    const trials = run.table!.array("trial") as ArrayLike<number>;
    for (let i = 0; i < trials.length; i++) {
      if (trials[i] !== 0) {
        throw new UsageError(
          `${path}: plan reads one trial per task, but the run has trial ${
            trials[i]
          }; pass a pilot with one trial per task`,
        );
      }
    }
    const paired = withUserValues(() =>
      pairedStats(run.table!, values.a!, values.b!)
    );
    const pairs = paired.rows.reduce((s, r) => s + r.n, 0);
    if (pairs === 0) {
      throw new UsageError(
        `${path}: models ${JSON.stringify(values.a)} and ${
          JSON.stringify(values.b)
        } share no task`,
      );
    }
    const options = {
      alpha,
      power,
      maxTasks,
      at: nTasks === null ? [] : [nTasks],
      simulations: SIMULATIONS,
      resamples: RESAMPLES,
      normalFrom: NORMAL_FROM,
      matrix: matrixOf(mode),
      seed,
    };
    const loss = planSampleSize(paired.rows, profile, options);
    const acc = planSampleSize(paired.rows, profile, {
      ...options,
      statistic: "accuracy",
    });
    const method =
      `seeded simulation of the paired sign-flip permutation test on per-task loss differences (${RESAMPLES} sign assignments; normal approximation |sum d| / sqrt(sum d^2) > z from ${NORMAL_FROM} tasks), joint outcomes per severity and gold class drawn from Dirichlet posteriors of the pilot (prior 1/2 per outcome of each model), pilot's mix of severities, common random numbers across sizes, doubling from 16 then log bisection to 2%`;
    const at = (p: typeof loss) =>
      nTasks === null
        ? null
        : p.powerAt.find((x) => x.tasks === nTasks)?.power ?? null;
    if (values.json) {
      console.log(JSON.stringify(
        {
          file: path,
          a: values.a,
          b: values.b,
          profile: `${profile.id}@${profile.version}`,
          mode,
          matrix: matrixOf(mode).id,
          pilotTasks: pairs,
          alpha,
          power,
          maxTasks,
          tasksNeeded: loss.tasksNeeded,
          powerAt: loss.powerAt,
          accuracy: {
            tasksNeeded: acc.tasksNeeded,
            powerAt: acc.powerAt,
          },
          simulations: SIMULATIONS,
          seed,
          method,
        },
        null,
        2,
      ));
      return 0;
    }
    const line = (what: string, p: typeof loss) => {
      if (p.tasksNeeded === null) {
        const last = p.powerAt[p.powerAt.length - 1];
        return `${what}: no size up to ${
          formatNumber(maxTasks, 21)
        } tasks reaches power ${power}; at ${
          formatNumber(last.tasks, 21)
        } tasks it is ${round4(last.power)}`;
      }
      const got = p.powerAt.find((x) => x.tasks === p.tasksNeeded)!.power;
      return `${what}: ${
        formatNumber(p.tasksNeeded, 21)
      } tasks (simulated power ${round4(got)} at alpha ${alpha})`;
    };
    const lines = [
      `${path}: ${values.a} (A) vs ${values.b} (B), pilot of ${pairs} shared tasks; ${profile.id}, ${mode} mode; ${SIMULATIONS} simulated suites per size, seed ${seed}`,
      line(`tasks to tell A from B in loss with power ${power}`, loss),
      line(`tasks to tell A from B in accuracy with power ${power}`, acc),
    ];
    if (nTasks !== null) {
      lines.push(
        `at ${formatNumber(nTasks, 21)} tasks: power ${
          round4(at(loss))
        } in loss, ${round4(at(acc))} in accuracy`,
      );
    }
    lines.push(
      "",
      alignRows([
        ["tasks", "power (loss)"],
        ...loss.powerAt.map((
          p,
        ) => [formatNumber(p.tasks, 21), formatNumber(p.power, 4)]),
      ]),
    );
    console.log(lines.join("\n"));
    return 0;
  },
};
