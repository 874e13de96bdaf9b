// `lossbook contamination`: exact and near-duplicate overlap between a training and an evaluation split.
import {
  contamination,
  NEAR_DUPLICATE_THRESHOLD,
} from "../lib/tasks/contamination.ts";
import { readTasksJsonl } from "../lib/tasks/load_tasks.ts";
import { type Command, parseFlags, UsageError } from "./_command.ts";
import { InputRangeError } from "../lib/input_error.ts";
import { commandHelp } from "./_help.ts";
import { JSON_OPTION } from "./_options.ts";

/** Pairs listed in the human report. */
const SHOWN = 10;

function pct(x: number | null): string {
  return x === null ? "n/a" : `${(x * 100).toFixed(2)}%`;
}

/** The options of `contamination`, as `--help` lists them and `parseFlags` reads them. */
const CONTAMINATION_OPTIONS = {
  threshold: {
    type: "string",
    value: "T",
    doc:
      "similarity in (0, 1] from which a pair of tasks counts as a near duplicate",
    byDefault: String(NEAR_DUPLICATE_THRESHOLD),
  },
  json: JSON_OPTION,
} as const;

/** The `contamination` command. */
export const contaminationCommand: Command = {
  summary:
    "Check a training split against an evaluation split for exact and near-duplicate tasks",
  ...commandHelp({
    forms: [{
      command: "contamination",
      args: "<train.jsonl> <eval.jsonl>",
      options: CONTAMINATION_OPTIONS,
    }],
  }),
  example:
    "deno task lossbook contamination train.jsonl data/tasks/reconciliation_777_300.jsonl",
  async run(args) {
    const { values, positionals } = parseFlags(
      "contamination",
      args,
      CONTAMINATION_OPTIONS,
    );
    if (positionals.length !== 2) {
      throw new UsageError(
        `expected a training file and an evaluation file, got ${positionals.length} files`,
      );
    }
    const threshold = values.threshold === undefined
      ? NEAR_DUPLICATE_THRESHOLD
      : Number(values.threshold);
    if (!(threshold > 0 && threshold <= 1)) {
      throw new UsageError(
        `--threshold must be a number in (0, 1], got ${values.threshold}`,
      );
    }
    const [trainPath, evalPath] = positionals;
    const train = await readTasksJsonl(trainPath);
    const evalTasks = await readTasksJsonl(evalPath);
    // one empty file among the inputs is refused, as every empty input is
    for (
      const [path, tasks] of [[trainPath, train], [
        evalPath,
        evalTasks,
      ]] as const
    ) {
      if (tasks.length === 0) throw new InputRangeError(`no tasks in ${path}`);
    }
    const report = contamination(train, evalTasks, { threshold });
    if (values.json) {
      console.log(
        JSON.stringify(
          {
            trainFile: trainPath,
            evalFile: evalPath,
            similarity: "jaccard",
            ...report,
          },
          null,
          2,
        ),
      );
    } else {
      const lines = [
        `${evalPath} (${report.eval} tasks) against ${trainPath} (${report.train} tasks)`,
        `exact overlap (same signature): ${report.exact.count} (${
          pct(report.exact.share)
        })`,
        `near duplicates (Jaccard >= ${threshold} on normalised fields): ${report.near.count} (${
          pct(report.near.share)
        })`,
      ];
      for (
        const p of [...report.exact.pairs, ...report.near.pairs].slice(0, SHOWN)
      ) {
        lines.push(
          `  ${p.evalId} ~ ${p.trainId} similarity ${p.similarity.toFixed(3)}`,
        );
      }
      const total = report.exact.count + report.near.count;
      if (total > SHOWN) lines.push(`  ... and ${total - SHOWN} more`);
      console.log(lines.join("\n"));
    }
    return report.exact.count + report.near.count > 0 ? 1 : 0;
  },
};
