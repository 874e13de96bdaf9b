// `lossbook simulate`: a seeded model answering a task suite, as a run export.
import { readTasksJsonl } from "../lib/tasks/load_tasks.ts";
import {
  decisionsToJsonl,
  SIMULATED_MODELS,
  simulateRun,
} from "../lib/runs/simulate.ts";
import {
  alignRows,
  type Command,
  parseFlags,
  refuseInputAsOutput,
  seedFlag,
  UsageError,
} from "./_command.ts";

async function writeNew(
  path: string,
  text: string,
  force: boolean,
): Promise<void> {
  try {
    await Deno.writeTextFile(path, text, { createNew: !force });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw new Deno.errors.AlreadyExists(
        `Cannot write ${path}: the file exists; pass --force to overwrite it`,
      );
    }
    throw error;
  }
}

/** The `simulate` command. */
export const simulateCommand: Command = {
  summary:
    "Simulate models answering a task suite (seeded) and write the run export",
  usage:
    "lossbook simulate --tasks FILE --model ID [--model ID]... [--seed N] --out FILE [--force] | --list [--json]",
  example:
    "deno task lossbook simulate --tasks data/tasks/reconciliation_777_300.jsonl --model frontier_even --model small_severity_shaped --seed 1 --out run.jsonl",
  async run(args) {
    const { values, positionals } = parseFlags("simulate", args, {
      tasks: { type: "string" },
      model: { type: "string", multiple: true },
      seed: { type: "string" },
      out: { type: "string" },
      force: { type: "boolean" },
      list: { type: "boolean" },
      json: { type: "boolean" },
    });
    if (positionals.length > 0) {
      throw new UsageError(
        `unexpected argument ${JSON.stringify(positionals[0])}`,
      );
    }
    if (values.list) {
      if (values.json) {
        console.log(JSON.stringify({ models: SIMULATED_MODELS }, null, 2));
      } else {
        console.log(
          alignRows([
            ["model", "what it stands for"],
            ...Object.values(SIMULATED_MODELS).map((m) => [m.id, m.label]),
          ]),
        );
      }
      return 0;
    }
    if (
      values.tasks === undefined || values.out === undefined ||
      values.model === undefined
    ) {
      throw new UsageError(
        "give --tasks FILE, at least one --model ID and --out FILE (or --list)",
      );
    }
    const seed = seedFlag(values.seed);
    const models = values.model.map((id) => {
      const m = SIMULATED_MODELS[id];
      if (m === undefined) {
        throw new UsageError(
          `unknown model ${JSON.stringify(id)}; known models are ${
            Object.keys(SIMULATED_MODELS).join(", ")
          }`,
        );
      }
      return m;
    });
    await refuseInputAsOutput({ flag: "--out", path: values.out }, [
      { flag: "--tasks", path: values.tasks },
    ]);
    const tasks = await readTasksJsonl(values.tasks);
    const decisions = models.flatMap((m) => simulateRun(tasks, m, { seed }));
    await writeNew(
      values.out,
      decisionsToJsonl(decisions),
      values.force ?? false,
    );
    const summary = {
      out: values.out,
      tasks: tasks.length,
      models: models.map((m) => m.id),
      seed,
      decisions: decisions.length,
    };
    if (values.json) console.log(JSON.stringify(summary, null, 2));
    else {
      console.log(
        `wrote ${decisions.length} decisions (${
          models.map((m) => m.id).join(", ")
        } on ${tasks.length} tasks, seed ${seed}) to ${values.out}`,
      );
    }
    return 0;
  },
};
