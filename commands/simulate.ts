// `lossbook simulate`: a seeded model answering a task suite, as a run export.
import { readTasksJsonl } from "../lib/tasks/load_tasks.ts";
import {
  decisionsToJsonl,
  SIMULATED_MODELS,
  simulateRun,
} from "../lib/tasks/simulate.ts";
import {
  alignRows,
  type Command,
  parseFlags,
  seedFlag,
  UsageError,
} from "./_command.ts";
import { commandHelp } from "./_help.ts";
import { inputFiles, refuseInputAsOutput } from "./_out_file.ts";
import { FORCE_OPTION, JSON_OPTION, SEED_OPTION } from "./_options.ts";

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

/** The options of `simulate`, as `--help` lists them and `parseFlags` reads them. */
const SIMULATE_OPTIONS = {
  tasks: {
    type: "string",
    value: "FILE",
    doc:
      "the task suite the models answer (JSONL, as 'lossbook generate' writes); required unless --list",
  },
  model: {
    type: "string",
    multiple: true,
    value: "ID",
    doc:
      "a simulated model to run, by id (see --list); give it once per model; required unless --list",
  },
  seed: SEED_OPTION,
  out: {
    type: "string",
    value: "FILE",
    doc:
      "file to write the run export (decisions JSONL) to; refused if it exists, unless --force; required unless --list",
  },
  force: FORCE_OPTION,
  list: {
    type: "boolean",
    doc: "list the simulated models and what each stands for, then exit",
  },
  json: JSON_OPTION,
} as const;

/** The `simulate` command. */
export const simulateCommand: Command = {
  summary:
    "Simulate models answering a task suite (seeded) and write the run export",
  ...commandHelp({
    forms: [{ command: "simulate", options: SIMULATE_OPTIONS }],
  }),
  example:
    "deno task lossbook simulate --tasks data/tasks/reconciliation_777_300.jsonl --model frontier_even --model small_severity_shaped --seed 1 --out run.jsonl",
  async run(args) {
    const { values, positionals } = parseFlags(
      "simulate",
      args,
      SIMULATE_OPTIONS,
    );
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
    await refuseInputAsOutput(
      { flag: "--out", path: values.out },
      inputFiles(SIMULATE_OPTIONS, values, positionals, "argument"),
    );
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
