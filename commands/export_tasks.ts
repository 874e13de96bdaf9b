// `lossbook export-tasks`: the seeded benchmark out to a harness.
import { inspectDatasetJsonl } from "../lib/tasks/export_inspect.ts";
import { readTasksJsonl } from "../lib/tasks/load_tasks.ts";
import { type Command, parseFlags, UsageError } from "./_command.ts";
import { checkOutPath, inputFiles } from "./_out_file.ts";
import { commandHelp } from "./_help.ts";
import { FORCE_OPTION, JSON_OPTION, outOption } from "./_options.ts";

/** The options of `export-tasks`, as `--help` lists them and `parseFlags` reads them. */
const EXPORT_TASKS_OPTIONS = {
  format: {
    type: "string",
    value: "inspect",
    doc:
      "dataset format; inspect (an inspect_ai JSONL dataset) is the one there is",
    required: true,
  },
  out: outOption("the dataset", "dataset.jsonl"),
  force: FORCE_OPTION,
  json: JSON_OPTION,
} as const;

/** The `export-tasks` command. */
export const exportTasksCommand: Command = {
  summary:
    "Write a seeded task suite as an inspect_ai dataset (input, target, id, metadata with severity and class)",
  ...commandHelp({
    forms: [{
      command: "export-tasks",
      args: "<suite.jsonl>",
      options: EXPORT_TASKS_OPTIONS,
    }],
  }),
  example:
    "deno task lossbook export-tasks data/tasks/reconciliation_777_300.jsonl --format inspect --out /tmp/recon_dataset.jsonl --force",
  async run(args) {
    const { values, positionals } = parseFlags(
      "export-tasks",
      args,
      EXPORT_TASKS_OPTIONS,
    );
    if (positionals.length !== 1) {
      throw new UsageError(
        `expected one task suite file, got ${positionals.length}`,
      );
    }
    if (values.format !== "inspect") {
      throw new UsageError(
        `--format must be inspect (the one harness dataset format written), got ${
          values.format === undefined
            ? "nothing"
            : JSON.stringify(values.format)
        }`,
      );
    }
    if (values.out === undefined) {
      throw new UsageError("say where to write the dataset with --out FILE");
    }
    const [suite] = positionals;
    const tasks = await readTasksJsonl(suite);
    await checkOutPath(
      values.out,
      inputFiles(EXPORT_TASKS_OPTIONS, values, positionals, "suite"),
      values.force === true,
    );
    const text = inspectDatasetJsonl(tasks);
    await Deno.writeTextFile(values.out, text);
    const severities: Record<string, number> = {};
    for (const t of tasks) {
      severities[t.gold.severity] = (severities[t.gold.severity] ?? 0) + 1;
    }
    if (values.json) {
      console.log(JSON.stringify(
        {
          file: suite,
          format: "inspect",
          out: values.out,
          samples: tasks.length,
          severities,
          fields: ["id", "input", "target", "metadata"],
        },
        null,
        2,
      ));
    } else {
      console.log(
        `wrote ${tasks.length} inspect_ai samples to ${values.out} (id, input, target = class, metadata.severity and metadata.class); score a log of them with --severity-field metadata.severity`,
      );
    }
    return 0;
  },
};
