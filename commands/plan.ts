// `lossbook plan`: the command over `plan` (api/plan.ts), with its help and
// the human report.
import {
  alignRows,
  type Command,
  formatNumber,
  parseFlags,
} from "./_command.ts";
import { commandHelp } from "./_help.ts";
import {
  MIN_CLUSTERS,
  NORMAL_FROM,
  PLAN_OPTIONS,
  type PlanDocument,
  planRun,
  POWER_SIMULATIONS,
  type PowerAt,
  RESAMPLES,
  SIMULATIONS,
} from "../api/plan.ts";

function round4(v: number | null): string {
  return v === null ? "n/a" : v.toFixed(4);
}

/** The `plan` command. */
export const planCommand: Command = {
  summary:
    "Plan a suite's size: tasks needed to tell two models apart in loss (and accuracy), by seeded simulation of compare's test (power at the pilot's estimates, and the assurance over its uncertainty)",
  ...commandHelp({
    forms: [{ command: "plan", args: "<file>", options: PLAN_OPTIONS }],
    notes: [
      `The pilot's tasks are grouped by severity and gold class, and every simulated suite keeps the pilot's mix and runs compare's two-sided sign-flip permutation test on per-task differences (${RESAMPLES} sign assignments; its normal approximation from ${NORMAL_FROM} tasks). The power at a size is the test's power when the truth equals the pilot's estimates: ${POWER_SIMULATIONS} suites per size draw each group's joint outcomes of A and B from the pilot's shares. The assurance beside it averages that power over the pilot's uncertainty: each group's joint outcomes get a Dirichlet posterior (pilot counts plus 1/2 per outcome of each model), so a costly outcome the pilot never showed is still simulated, and each of ${SIMULATIONS} suites per size draws from it. The tasks needed are where the power reaches --power: the size is doubled from 16, then bisected to within 2%. --n-tasks N also reports the power and assurance at N.`,
      `When the pilot's decisions name clusters that hold several tasks, a suite is made of clusters: each simulated suite draws that many of the pilot's clusters with replacement, whole (their tasks and both models' answers), without strata, and runs compare's test with a cluster's tasks flipped together (its normal approximation from ${NORMAL_FROM} clusters). The power is at the pilot's clusters; the assurance averages it over the Bayesian bootstrap (Dirichlet(1) weights over the pilot's clusters), which never simulates a cluster unlike the pilot's. Sizes are counted in clusters (clustersNeeded), with tasks as clusters times the pilot's mean tasks per cluster; --n-tasks N stands for N over that mean, rounded; a pilot of fewer than ${MIN_CLUSTERS} clusters is refused.`,
    ],
  }),
  example:
    "deno task lossbook plan data/examples/model_ab.jsonl --a A --b B --profile reconciliation --json",
  async run(args) {
    const { values, positionals } = parseFlags("plan", args, PLAN_OPTIONS);
    const { document, profile, nTasks, nClusters } = await planRun(
      positionals,
      values,
    );
    if (values.json) {
      console.log(JSON.stringify(document, null, 2));
      return 0;
    }
    const { file: path, alpha, power, maxTasks, mode, seed } = document;
    const pairs = document.pilotTasks;
    const loss = document;
    const acc = document.accuracy;
    const clustered = document.pilotClusters !== undefined;
    const manyPerCluster = clustered &&
      document.pilotClusters !== document.pilotTasks;
    const units = manyPerCluster ? "clusters" : "tasks";
    const at = (p: Pick<PlanDocument, "powerAt">): PowerAt | null =>
      nTasks === null
        ? null
        : p.powerAt.find((x) =>
          clustered ? x.clusters === nClusters : x.tasks === nTasks
        ) ?? null;
    // a size in tasks, and with clusters in clusters too
    const size = (x: Pick<PowerAt, "tasks" | "clusters">) =>
      manyPerCluster && x.clusters !== undefined
        ? `${formatNumber(x.clusters, 21)} clusters (about ${
          formatNumber(x.tasks, 21)
        } tasks)`
        : `${formatNumber(x.tasks, 21)} tasks`;
    const line = (
      what: string,
      p: Pick<PlanDocument, "tasksNeeded" | "clustersNeeded" | "powerAt">,
    ) => {
      if (p.tasksNeeded === null) {
        const last = p.powerAt[p.powerAt.length - 1];
        return `${what}: no size up to ${
          formatNumber(maxTasks, 21)
        } tasks reaches power ${power}; at ${size(last)} it is ${
          round4(last.power)
        } (assurance ${round4(last.assurance)})`;
      }
      const got = p.powerAt.find((x) =>
        clustered ? x.clusters === p.clustersNeeded : x.tasks === p.tasksNeeded
      )!;
      return `${what}: ${size(got)} (simulated power ${
        round4(got.power)
      } at the pilot's estimates, assurance ${
        round4(got.assurance)
      } over its uncertainty, at alpha ${alpha})`;
    };
    const lines = [
      `${path}: ${document.a} (A) vs ${document.b} (B), pilot of ${pairs} shared tasks${
        manyPerCluster ? ` in ${document.pilotClusters} clusters` : ""
      }; ${profile.id}, ${mode} mode; ${
        formatNumber(POWER_SIMULATIONS, 21)
      } simulated suites per size for the power, ${SIMULATIONS} for the assurance, seed ${seed}`,
      line(`${units} to tell A from B in loss with power ${power}`, loss),
      line(`${units} to tell A from B in accuracy with power ${power}`, acc),
    ];
    if (nTasks !== null) {
      const l = at(loss);
      const c = at(acc);
      lines.push(
        `at ${
          manyPerCluster && l !== null
            ? size(l)
            : `${formatNumber(nTasks, 21)} tasks`
        }: power ${round4(l?.power ?? null)} in loss (assurance ${
          round4(l?.assurance ?? null)
        }), ${round4(c?.power ?? null)} in accuracy (assurance ${
          round4(c?.assurance ?? null)
        })`,
      );
    }
    lines.push(
      "",
      alignRows([
        [
          ...(manyPerCluster ? ["clusters"] : []),
          "tasks",
          "power (loss)",
          "assurance (loss)",
        ],
        ...loss.powerAt.map((p) => [
          ...(manyPerCluster ? [formatNumber(p.clusters!, 21)] : []),
          formatNumber(p.tasks, 21),
          formatNumber(p.power, 4),
          formatNumber(p.assurance, 4),
        ]),
      ]),
    );
    console.log(lines.join("\n"));
    return 0;
  },
};
