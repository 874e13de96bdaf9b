// `lossbook verify`: re-verify every task of a suite with the independent verifier.
import { SEVERITIES } from "../lib/costs/severity.ts";
import { streamTasksJsonl } from "../lib/tasks/load_tasks.ts";
import { InputRangeError } from "../lib/input_error.ts";
import { taskClass } from "../lib/tasks/rules.ts";
import { checkTask } from "../lib/tasks/verify.ts";
import { alignRows, type Command, parseFlags, UsageError } from "./_command.ts";
import { formatQuantity } from "./_format.ts";
import { noteUserStrings } from "./_terminal.ts";
import { commandHelp } from "./_help.ts";
import { JSON_OPTION } from "./_options.ts";

/** Disagreements listed in full; the rest are counted. */
const SHOWN = 20;

/** The options of `verify`, as `--help` lists them and `parseFlags` reads them. */
const VERIFY_OPTIONS = { json: JSON_OPTION } as const;

/** The `verify` command. */
export const verifyCommand: Command = {
  summary:
    "Re-verify a task suite: labels, signatures and prompts against the rule tables",
  ...commandHelp({
    forms: [{
      command: "verify",
      args: "<tasks.jsonl>",
      options: VERIFY_OPTIONS,
    }],
    notes: ["Exits 1 when a task fails verification."],
  }),
  example: "deno task lossbook verify data/tasks/reconciliation_777_300.jsonl",
  async run(args) {
    const { values, positionals } = parseFlags("verify", args, VERIFY_OPTIONS);
    if (positionals.length !== 1) {
      throw new UsageError(`expected one task file, got ${positionals.length}`);
    }
    const path = positionals[0];
    const it = streamTasksJsonl(path);
    const byClass: Record<string, number> = {};
    const bySeverity: Record<string, number> = {};
    const domains: Record<string, number> = {};
    const disagreements: { id: string; problems: string[] }[] = [];
    let bad = 0;
    let n = 0;
    // a suite holds each task once: a repeated id or signature is a disagreement
    const seenId = new Map<string, number>();
    const seenSignature = new Map<string, number>();
    let r = await it.next();
    while (!r.done) {
      const task = r.value;
      n++;
      const check = checkTask(task);
      const problems = [...check.problems];
      const sameId = seenId.get(task.id);
      if (sameId !== undefined) {
        problems.push(
          `task id ${JSON.stringify(task.id)} repeats task ${sameId}`,
        );
      } else seenId.set(task.id, n);
      const sameSig = seenSignature.get(task.signature);
      if (sameSig !== undefined && sameId === undefined) {
        problems.push(
          `the same task as task ${sameSig} (signature ${task.signature})`,
        );
      } else if (sameSig === undefined) seenSignature.set(task.signature, n);
      const cls = `${task.domain}/${taskClass(task)}`;
      byClass[cls] = (byClass[cls] ?? 0) + 1;
      bySeverity[task.gold.severity] = (bySeverity[task.gold.severity] ?? 0) +
        1;
      domains[task.domain] = (domains[task.domain] ?? 0) + 1;
      if (problems.length > 0) {
        bad++;
        if (disagreements.length < SHOWN) {
          disagreements.push({ id: task.id, problems });
        }
      }
      r = await it.next();
    }
    if (n === 0) throw new InputRangeError(`no tasks in ${path}`);
    const { sha256 } = r.value;
    const agreement = n === 0 ? null : (n - bad) / n;
    if (values.json) {
      console.log(JSON.stringify(
        {
          file: path,
          tasks: n,
          agree: n - bad,
          disagree: bad,
          agreement,
          sha256,
          domains,
          bySeverity,
          byClass,
          disagreements,
        },
        null,
        2,
      ));
    } else {
      const lines = [
        `${path}: ${n} tasks, ${n - bad} agree with the verifier (${
          agreement === null ? "n/a" : `${(agreement * 100).toFixed(2)}%`
        }), ${bad} disagree`,
        `suite sha256 ${sha256}`,
        alignRows([
          ["severity", "tasks"],
          ...SEVERITIES.filter((s) => bySeverity[s] !== undefined).map((
            s,
          ) => [s, String(bySeverity[s])]),
        ]).replace(/^/gm, "  "),
        alignRows([
          ["class", "tasks"],
          ...Object.entries(byClass).sort().map((
            [c, k],
          ) => [c, formatQuantity(k)]),
        ]).replace(/^/gm, "  "),
      ];
      noteUserStrings(disagreements.map((d) => d.id));
      for (const d of disagreements) {
        lines.push(`  DISAGREE ${d.id}: ${d.problems.join("; ")}`);
      }
      if (bad > disagreements.length) {
        lines.push(`  ... and ${bad - disagreements.length} more`);
      }
      console.log(lines.join("\n"));
    }
    if (bad > 0) {
      const first = disagreements[0];
      console.error(
        `lossbook verify: ${bad} of ${n} tasks disagree with the verifier; first ${first.id}: ${
          first.problems[0]
        }`,
      );
      return 1;
    }
    return 0;
  },
};
