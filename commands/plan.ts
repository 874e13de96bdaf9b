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
  NORMAL_FROM,
  PLAN_OPTIONS,
  type PlanDocument,
  planRun,
  RESAMPLES,
  SIMULATIONS,
} from "../api/plan.ts";

function round4(v: number | null): string {
  return v === null ? "n/a" : v.toFixed(4);
}

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
    const { document, profile, nTasks } = await planRun(positionals, values);
    if (values.json) {
      console.log(JSON.stringify(document, null, 2));
      return 0;
    }
    const { file: path, alpha, power, maxTasks, mode, seed } = document;
    const pairs = document.pilotTasks;
    const loss = document;
    const acc = document.accuracy;
    const at = (p: Pick<PlanDocument, "powerAt">) =>
      nTasks === null
        ? null
        : p.powerAt.find((x) => x.tasks === nTasks)?.power ?? null;
    const line = (
      what: string,
      p: Pick<PlanDocument, "tasksNeeded" | "powerAt">,
    ) => {
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
      `${path}: ${document.a} (A) vs ${document.b} (B), pilot of ${pairs} shared tasks; ${profile.id}, ${mode} mode; ${SIMULATIONS} simulated suites per size, seed ${seed}`,
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
