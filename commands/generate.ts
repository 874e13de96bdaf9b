// `lossbook generate`: write a seeded, verifier-admitted task suite as canonical JSONL.
import { SEVERITIES, type Severity } from "../lib/costs/severity.ts";
import { generateTasks, type GenerationStats } from "../lib/tasks/generate.ts";
import { taskClass } from "../lib/tasks/rules.ts";
import {
  type Domain,
  DOMAINS,
  isDomain,
  type Task,
} from "../lib/tasks/task.ts";
import { writeTasksJsonl } from "../lib/tasks/write_tasks.ts";
import {
  alignRows,
  type Command,
  parseFlags,
  UsageError,
  withUserValues,
} from "./_command.ts";
import { commandHelp } from "./_help.ts";
import { FORCE_OPTION, JSON_OPTION, outOption } from "./_options.ts";
import { formatQuantity } from "./_format.ts";

/** Suites at least this large get a progress bar on stderr. */
export const PROGRESS_MIN_TASKS = 10_000;

/** Parse `--mix HIGH=0.5,MEDIUM=0.3,LOW=0.2`. */
export function parseMix(text: string): Partial<Record<Severity, number>> {
  const out: Partial<Record<Severity, number>> = {};
  for (const part of text.split(",")) {
    const m = /^\s*([A-Za-z]+)\s*=\s*([0-9.]+)\s*$/.exec(part);
    if (m === null) {
      throw new UsageError(
        `--mix must look like HIGH=0.5,MEDIUM=0.3,LOW=0.2, got ${
          JSON.stringify(text)
        }`,
      );
    }
    const key = m[1].toUpperCase();
    if (!(SEVERITIES as readonly string[]).includes(key)) {
      throw new UsageError(
        `--mix: ${JSON.stringify(m[1])} is not a severity (${
          SEVERITIES.join(", ")
        })`,
      );
    }
    out[key as Severity] = Number(m[2]);
  }
  return out;
}

/** Parse `--difficulty 0.5` or `--difficulty 0.2,0.9`. */
export function parseDifficulty(text: string): number | [number, number] {
  const parts = text.split(",").map((p) => p.trim());
  const nums = parts.map(Number);
  if (
    parts.length > 2 || parts.some((p) => p === "") ||
    nums.some((x) => !Number.isFinite(x))
  ) {
    throw new UsageError(
      `--difficulty must be a number or LO,HI in [0, 1], got ${
        JSON.stringify(text)
      }`,
    );
  }
  return nums.length === 1 ? nums[0] : [nums[0], nums[1]];
}

function integerFlag(
  name: string,
  text: string | undefined,
  max: number,
): number {
  if (text === undefined) throw new UsageError(`--${name} is required`);
  const x = Number(text);
  if (!/^[0-9]+$/.test(text) || !(x <= max)) {
    throw new UsageError(
      `--${name} must be an integer in [0, ${max}], got ${
        JSON.stringify(text)
      }`,
    );
  }
  return x;
}

function progressBar(n: number): (done: number) => void {
  const start = performance.now();
  const tty = Deno.stderr.isTerminal();
  const enc = new TextEncoder();
  let lastTenth = -1;
  return (done) => {
    const frac = n === 0 ? 1 : done / n;
    const rate = done / Math.max(1e-3, (performance.now() - start) / 1000);
    const width = 30;
    const fill = Math.round(frac * width);
    const line = `[${"#".repeat(fill)}${".".repeat(width - fill)}] ${
      (frac * 100).toFixed(0).padStart(3)
    }% ${done.toLocaleString("en-US")}/${n.toLocaleString("en-US")} tasks, ${
      Math.round(rate).toLocaleString("en-US")
    } tasks/s`;
    if (tty) {
      Deno.stderr.writeSync(enc.encode(`\r${line}${done === n ? "\n" : ""}`));
    } else if (Math.floor(frac * 10) > lastTenth) {
      lastTenth = Math.floor(frac * 10);
      Deno.stderr.writeSync(enc.encode(`${line}\n`));
    }
  };
}

/** The options of `generate`, as `--help` lists them and `parseFlags` reads them. */
const GENERATE_OPTIONS = {
  domain: {
    type: "string",
    value: DOMAINS.join("|"),
    doc: "which rule table the tasks come from",
    required: true,
  },
  seed: {
    type: "string",
    value: "S",
    doc:
      "suite seed, an integer from 0 to 4,294,967,295; the same seed gives the same suite, byte for byte",
    required: true,
  },
  n: {
    type: "string",
    value: "N",
    doc: "number of tasks",
    required: true,
  },
  out: outOption("the suite (JSONL, one task a line)"),
  mix: {
    type: "string",
    value: "SEVERITY=SHARE[,...]",
    doc:
      "share of tasks per gold severity, e.g. HIGH=0.5,MEDIUM=0.3,LOW=0.2, summing to 1; absent severities get none",
    byDefault: "every class equally likely",
  },
  difficulty: {
    type: "string",
    value: "D|LO,HI",
    doc:
      "task difficulty in [0, 1]: one value, or a range drawn uniformly per task",
    byDefault: "0,1",
  },
  force: FORCE_OPTION,
  json: JSON_OPTION,
} as const;

/** The `generate` command. */
export const generateCommand: Command = {
  summary:
    "Generate a seeded task suite (every task admitted by the independent verifier)",
  ...commandHelp({
    forms: [{ command: "generate", options: GENERATE_OPTIONS }],
    notes: [
      "Every task is admitted by the independent verifier before it is written (see 'lossbook verify').",
    ],
  }),
  example:
    "deno task lossbook generate --domain reconciliation --seed 7 --n 1000 --out tasks.jsonl",
  async run(args) {
    const { values, positionals } = parseFlags(
      "generate",
      args,
      GENERATE_OPTIONS,
    );
    if (positionals.length > 0) {
      throw new UsageError(
        `unexpected argument ${JSON.stringify(positionals[0])}`,
      );
    }
    if (!isDomain(values.domain)) {
      throw new UsageError(
        `--domain must be one of ${DOMAINS.join(", ")}, got ${
          JSON.stringify(values.domain ?? null)
        }`,
      );
    }
    const domain: Domain = values.domain;
    const seed = integerFlag("seed", values.seed, 0xffff_ffff);
    const n = integerFlag("n", values.n, 1e9);
    if (values.out === undefined) throw new UsageError("--out is required");
    const out = values.out;
    const options = {
      seed,
      n,
      mix: values.mix === undefined ? undefined : parseMix(values.mix),
      difficulty: values.difficulty === undefined
        ? undefined
        : parseDifficulty(values.difficulty),
    };
    const it = generateTasks(domain, options);
    // the first step validates the options, before any file is touched
    let pending: IteratorResult<Task, GenerationStats> | null = withUserValues(
      () => it.next(),
    );
    let stats: GenerationStats = { tasks: 0, candidates: 0, rejections: {} };
    const bySeverity: Record<string, number> = {};
    const byClass: Record<string, number> = {};
    function* counted(): Generator<Task> {
      while (true) {
        const r = pending ?? it.next();
        pending = null;
        if (r.done) {
          stats = r.value;
          return;
        }
        bySeverity[r.value.gold.severity] =
          (bySeverity[r.value.gold.severity] ?? 0) + 1;
        const c = taskClass(r.value);
        byClass[c] = (byClass[c] ?? 0) + 1;
        yield r.value;
      }
    }
    const bar = n >= PROGRESS_MIN_TASKS ? progressBar(n) : undefined;
    const written = await writeTasksJsonl(out, counted(), {
      force: values.force,
      onProgress: bar,
      progressEvery: Math.max(1000, Math.floor(n / 100)),
    });
    if (bar !== undefined && n % Math.max(1000, Math.floor(n / 100)) !== 0) {
      bar(n);
    }
    const rejected = stats.candidates - stats.tasks;
    const report = {
      file: out,
      domain,
      seed,
      n: written.tasks,
      difficulty: options.difficulty ?? [0, 1],
      mix: options.mix ?? null,
      bytes: written.bytes,
      sha256: written.sha256,
      candidates: stats.candidates,
      rejected,
      rejections: stats.rejections,
      bySeverity,
      byClass,
    };
    if (values.json) {
      console.log(JSON.stringify(report, null, 2));
      return 0;
    }
    const lines = [
      `wrote ${written.tasks} ${domain} tasks (seed ${seed}) to ${out}, ${
        written.bytes.toLocaleString("en-US")
      } bytes`,
      `suite sha256 ${written.sha256}`,
      `candidates ${stats.candidates}, admitted ${stats.tasks}, rejected by the verifier ${rejected}`,
    ];
    const reasons = Object.entries(stats.rejections).sort((a, b) =>
      b[1] - a[1]
    );
    if (reasons.length > 0) {
      lines.push(
        alignRows([
          ["rejection reason", "count"],
          ...reasons.map(([r, c]) => [r, formatQuantity(c)]),
        ]).replace(/^/gm, "  "),
      );
    }
    lines.push(
      alignRows([
        ["severity", "tasks"],
        ...SEVERITIES.filter((s) => bySeverity[s] !== undefined).map((
          s,
        ) => [s, String(bySeverity[s])]),
      ]).replace(/^/gm, "  "),
    );
    console.log(lines.join("\n"));
    return 0;
  },
};
