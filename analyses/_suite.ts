// Private: simulated models answering a shipped task suite, the run several
// analyses study.
import type { Decision } from "../lib/decision/decision.ts";
import { parseTasksJsonl } from "../lib/tasks/load_tasks.ts";
import { SIMULATED_MODELS, simulateRun } from "../lib/tasks/simulate.ts";
import { projectPath } from "./_paths.ts";

/**
 * The decisions of simulated models answering a task suite of the project,
 * each model with the same seed (as `lossbook simulate --seed`).
 *
 * @param path The suite's path from the project's root.
 * @param models Ids of simulated models (`SIMULATED_MODELS`), in order.
 * @param seed The seed.
 * @returns Every model's decisions, model after model.
 */
export function suiteDecisions(
  path: string,
  models: readonly string[],
  seed: number,
): Decision[] {
  const tasks = parseTasksJsonl(Deno.readTextFileSync(projectPath(path)), {
    path,
  });
  return models.flatMap((id) =>
    simulateRun(tasks, SIMULATED_MODELS[id], { seed })
  );
}
