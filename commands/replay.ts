// `lossbook replay`: re-run a recorded ledger under another threshold, cost
// profile or routing, with zero model calls; or draw the cost curve.
import { intervalWarnings } from "../lib/metrics/interval_warnings.ts";
import { SEVERITIES, type Severity } from "../lib/costs/severity.ts";
import {
  costCurve,
  linearThresholds,
  replay,
  type ReplayPolicy,
} from "../lib/ledger/replay.ts";
import {
  CONSEQUENCE_MATRIX,
  type CostMatrix,
  STRICT_MATRIX,
} from "../lib/metrics/loss.ts";
import {
  alignRows,
  type Command,
  formatNumber,
  intFlag,
  MAX_RESAMPLES,
  parseFlags,
  seedFlag,
  UsageError,
} from "./_command.ts";
import { parseUnit } from "../lib/decision/cluster.ts";
import { oneProfile, readVerifiedLedger } from "./ledger.ts";
import { formatLevel, formatRule } from "./_format.ts";
import { commandHelp } from "./_help.ts";
import {
  CI_OPTION,
  CLUSTER_OPTION,
  JSON_OPTION,
  MATRIX_MODE_OPTION,
  profileOption,
  resamplesOption,
  SEED_OPTION,
} from "./_options.ts";

function parseThreshold(spec: string): ReplayPolicy["threshold"] {
  if (spec === "chow" || spec === "recorded") return spec;
  if (spec.includes("=")) {
    const out: Partial<Record<Severity, number>> = {};
    for (const part of spec.split(",")) {
      const [k, v] = part.split("=");
      if (!(SEVERITIES as readonly string[]).includes(k)) {
        throw new UsageError(
          `--threshold: unknown severity ${
            JSON.stringify(k)
          }; give LOW=..,MEDIUM=..,HIGH=..,CRITICAL=..`,
        );
      }
      out[k as Severity] = number01("--threshold", v);
    }
    for (const s of SEVERITIES) {
      if (out[s] === undefined) {
        throw new UsageError(
          `--threshold: ${s} is missing; give all four severities`,
        );
      }
    }
    return out as Record<Severity, number>;
  }
  return number01("--threshold", spec);
}

function number01(flag: string, text: string | undefined): number {
  const v = Number(text);
  if (text === undefined || text.trim() === "" || !(v >= 0 && v <= 1)) {
    throw new UsageError(
      `${flag} must be a number in [0, 1], got ${JSON.stringify(text)}`,
    );
  }
  return v;
}

function parseRoute(specs: string[] | undefined): ReplayPolicy["route"] {
  if (specs === undefined || specs.length === 0) return "recorded";
  if (specs.length === 1 && !specs[0].includes("=")) return specs[0];
  const out: Partial<Record<Severity, string>> = {};
  for (const spec of specs) {
    const [k, m] = spec.split("=");
    if (!(SEVERITIES as readonly string[]).includes(k) || !m) {
      throw new UsageError(
        `--route takes MODEL, or SEVERITY=MODEL (repeatable), got ${
          JSON.stringify(spec)
        }`,
      );
    }
    out[k as Severity] = m;
  }
  return out;
}

/** Most points `--thresholds` takes. */
const MAX_THRESHOLDS = 1_000_000;

function parseGrid(spec: string): Float64Array {
  const m = /^([0-9.]+):([0-9.]+):([0-9]+)$/.exec(spec);
  if (m === null) {
    throw new UsageError(
      `--thresholds takes FROM:TO:COUNT, for example 0:1:1000, got ${
        JSON.stringify(spec)
      }`,
    );
  }
  const count = Number(m[3]);
  if (count > MAX_THRESHOLDS) {
    throw new UsageError(
      `--thresholds takes at most ${
        MAX_THRESHOLDS.toLocaleString("en-US")
      } points, got ${m[3]}`,
    );
  }
  try {
    return linearThresholds(Number(m[1]), Number(m[2]), { count });
  } catch (error) {
    throw new UsageError(`--thresholds: ${(error as Error).message}`);
  }
}

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** The options of `replay`, as `--help` lists them and `parseFlags` reads them. */
const REPLAY_OPTIONS = {
  threshold: {
    type: "string",
    value: "T|chow|recorded|LOW=T,MEDIUM=T,HIGH=T,CRITICAL=T",
    doc:
      "the counterfactual rule: escalate every answer whose risk P(error) is above T in [0, 1]; per severity with all four LOW=..,MEDIUM=..,HIGH=..,CRITICAL=..; chow escalates when risk x cost if wrong > review cost under --profile and --mode; recorded keeps each recorded action. Give this or --thresholds",
  },
  thresholds: {
    type: "string",
    value: "FROM:TO:COUNT",
    doc:
      "instead of one rule, draw the cost curve: loss, reviews and automatic errors at COUNT evenly spaced thresholds from FROM to TO (at most 1,000,000), e.g. 0:1:1000",
  },
  profile: {
    ...profileOption(),
    doc:
      "cost profile the replay prices with: a shipped id (see 'lossbook profiles') or a profile file",
  },
  route: {
    type: "string",
    multiple: true,
    value: "MODEL|SEVERITY=MODEL",
    doc:
      "act on another model's recorded (shadow) answer: MODEL for every case, or SEVERITY=MODEL, once per severity, for the severities named (the served answer elsewhere)",
    byDefault: "the served answers",
  },
  "missing-risk": {
    type: "string",
    value: "escalate|auto",
    doc:
      "what a threshold does with an answer that states no risk (no pCorrect): escalate treats it as risk 1 and sends it to review; auto treats it as risk 0 and acts on it",
    byDefault: "escalate",
  },
  mode: MATRIX_MODE_OPTION,
  support: {
    type: "string",
    value: "common|each",
    doc:
      "with --thresholds: common computes every point over the cases evaluable at every threshold (so points compare), leaving the others out and counting them; each computes each point over the cases evaluable there",
    byDefault: "common",
  },
  seed: {
    ...SEED_OPTION,
    doc:
      "seed of the interval's posterior draws and of the permutation test; the same seed gives byte-identical output",
  },
  resamples: resamplesOption("posterior draws or bootstrap resamples"),
  ci: CI_OPTION,
  interval: {
    type: "string",
    value: "auto|bootstrap",
    doc: "method of the paired difference's interval (see below)",
    byDefault: "auto",
  },
  diff: {
    type: "boolean",
    doc:
      "list every case whose outcome changes (the human report shows the first 10 without it; --json adds the list only with it)",
  },
  cluster: {
    ...CLUSTER_OPTION,
    value: "taskId|cluster",
    doc:
      "the unit of the paired difference's interval and test: cluster (the ledger's decisions name it: a cluster's changed cases count as one unit and flip together) or taskId (each case counts alone, as before clusters existed)",
  },
  json: JSON_OPTION,
} as const;

/** The `replay` command. */
export const replayCommand: Command = {
  summary:
    "Replay a recorded ledger under another threshold, profile or routing (zero model calls), or draw the cost curve",
  ...commandHelp({
    forms: [{
      command: "replay",
      args: "<ledger.jsonl>",
      options: REPLAY_OPTIONS,
    }],
    notes: [
      "Zero model calls: every answer replayed is one the ledger recorded. The ledger is verified first; one that does not verify is not replayed (exit 1).",
      "--interval auto|bootstrap: method of the paired difference. auto (default) models the changed cases per cell (severity, gold class, models, actions), every possible outcome included: a Fay-Feuer gamma interval where one side's cost is fixed (an escalation), Jeffreys-Dirichlet posterior draws (--resamples) where both sides vary, Bonferroni across the parts; the p-value is a sign-flip permutation test on the per-case differences. bootstrap is the paired percentile bootstrap over cases of earlier versions, which cannot see a costly outcome that no changed case showed. It fell below 0.93 in the coverage study, so choosing it prints a warning naming its measured coverage (stderr, and warnings in --json).",
    ],
  }),
  example:
    "deno task lossbook replay month.jsonl --threshold 0.3 --profile principal_risk --json",
  async run(args) {
    const { values, positionals } = parseFlags("replay", args, REPLAY_OPTIONS);
    if (positionals.length !== 1) {
      throw new UsageError(
        `replay takes one ledger file, got ${positionals.length} arguments`,
      );
    }
    if (
      (values.threshold === undefined) === (values.thresholds === undefined)
    ) {
      throw new UsageError("give either --threshold or --thresholds");
    }
    const missing = values["missing-risk"] ?? "escalate";
    if (missing !== "escalate" && missing !== "auto") {
      throw new UsageError(
        `--missing-risk must be escalate or auto, got ${
          JSON.stringify(missing)
        }`,
      );
    }
    const mode = values.mode ?? "consequence";
    if (mode !== "consequence" && mode !== "strict") {
      throw new UsageError(
        `--mode must be consequence or strict, got ${JSON.stringify(mode)}`,
      );
    }
    const matrix: CostMatrix = mode === "strict"
      ? STRICT_MATRIX
      : CONSEQUENCE_MATRIX;
    const route = parseRoute(values.route);
    const profile = await oneProfile(values.profile);
    const path = positionals[0];
    const { verification, columns } = await readVerifiedLedger(path);
    if (columns === null) {
      console.error(
        `lossbook replay: ${verification.reason}; a ledger that does not verify is not replayed`,
      );
      return 1;
    }
    const ledger = {
      path,
      records: verification.records,
      head: verification.head,
    };

    if (values.thresholds !== undefined) {
      const support = values.support ?? "common";
      if (support !== "common" && support !== "each") {
        throw new UsageError(
          `--support must be common or each, got ${JSON.stringify(support)}`,
        );
      }
      const grid = parseGrid(values.thresholds);
      const curve = costCurve(columns, grid, {
        profile,
        matrix,
        route,
        missingRisk: missing,
        support,
      });
      let best = 0;
      for (let i = 1; i < grid.length; i++) {
        if (curve.loss[i] < curve.loss[best]) best = i;
      }
      const point = (i: number) => ({
        threshold: r6(grid[i]),
        loss: r6(curve.loss[i]),
        reviews: curve.reviews[i],
        autoErrors: curve.autoErrors[i],
        evaluable: curve.evaluable[i],
        unevaluable: curve.unevaluable[i],
      });
      if (values.json) {
        console.log(JSON.stringify(
          {
            ledger,
            profile: curve.profile,
            matrix: curve.matrix,
            route,
            missingRisk: missing,
            support,
            cases: curve.cases,
            excluded: curve.excluded,
            best: point(best),
            points: [...grid].map((_, i) => point(i)),
          },
          null,
          2,
        ));
        return 0;
      }
      const shown = Array.from(
        { length: 11 },
        (_, k) => Math.round((k * (grid.length - 1)) / 10),
      );
      console.log(
        `${path}: ${columns.cases} cases, head ${verification.head}\ncost curve under ${curve.profile} (${curve.matrix} matrix) over ${grid.length} thresholds; ${
          support === "common"
            ? `${curve.excluded} cases not evaluable at every threshold left out`
            : "each point over the cases evaluable there"
        }`,
      );
      console.log(alignRows([
        ["threshold", "loss", "reviews", "auto errors", "unevaluable"],
        ...[...new Set([...shown, best])].sort((a, b) => a - b).map((i) => [
          `${formatRule(grid[i])}${i === best ? " (best)" : ""}`,
          formatNumber(curve.loss[i]),
          String(curve.reviews[i]),
          String(curve.autoErrors[i]),
          String(curve.unevaluable[i]),
        ]),
      ]));
      return 0;
    }

    const seed = seedFlag(values.seed);
    const resamples = intFlag("resamples", values.resamples, {
      min: 1,
      max: MAX_RESAMPLES,
      fallback: 1000,
    });
    const level = values.ci === undefined ? 0.95 : Number(values.ci);
    if (!(level > 0 && level < 1)) {
      throw new UsageError(`--ci must be in (0, 1), got ${values.ci}`);
    }
    const policy: ReplayPolicy = {
      threshold: parseThreshold(values.threshold!),
      route,
      missingRisk: missing,
    };
    const interval = values.interval ?? "auto";
    if (interval !== "auto" && interval !== "bootstrap") {
      throw new UsageError(
        `--interval must be auto or bootstrap, got ${JSON.stringify(interval)}`,
      );
    }
    let unit;
    try {
      unit = parseUnit(values.cluster);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const r = replay(columns, policy, {
      profile,
      matrix,
      seed,
      resamples,
      level,
      interval,
      diff: values.diff ?? !values.json,
      ...(unit === undefined ? {} : { unit }),
    });
    const warnings = intervalWarnings("replay", interval);
    for (const w of warnings) console.error(`warning: ${w}`);
    if (values.json) {
      const { diff, ...rest } = r;
      console.log(
        JSON.stringify(
          {
            ledger,
            ...(warnings.length === 0 ? {} : { warnings }),
            ...rest,
            ...(values.diff ? { diff } : {}),
          },
          null,
          2,
        ),
      );
      return 0;
    }
    const d = r.difference;
    const t = r.policy.threshold;
    console.log(
      `${path}: ${verification.records} records, head ${verification.head}, ${r.cases} cases\npolicy: ${
        t === "recorded"
          ? "recorded actions"
          : `escalate when P(error) > ${
            SEVERITIES.map((s) => `${s} ${t[s]}`).join(", ")
          }${
            r.policy.thresholdIfFlagged
              ? ` (answers that predicted clean; those that predicted an exception: ${
                SEVERITIES.map((s) => `${s} ${r.policy.thresholdIfFlagged![s]}`)
                  .join(", ")
              })`
              : ""
          }`
      }; route ${
        typeof r.policy.route === "string"
          ? r.policy.route
          : JSON.stringify(r.policy.route)
      }; priced under ${r.profile}, ${r.matrix} matrix`,
    );
    console.log(alignRows([
      ["", "recorded", "replayed"],
      [
        "reviews",
        formatNumber(r.before.reviews),
        formatNumber(r.after.reviews),
      ],
      ["auto errors", String(r.before.autoErrors), String(r.after.autoErrors)],
      [
        "auto loss",
        formatNumber(r.before.autoLoss),
        formatNumber(r.after.autoLoss),
      ],
      [
        "review loss",
        formatNumber(r.before.reviewLoss),
        formatNumber(r.after.reviewLoss),
      ],
      ["loss", formatNumber(r.before.loss), formatNumber(r.after.loss)],
      [
        "model USD",
        formatNumber(r.before.modelUsd),
        formatNumber(r.after.modelUsd),
      ],
    ]));
    console.log(
      `evaluable ${r.evaluable} of ${r.cases} cases; unevaluable ${r.unevaluable.cases} (outcome never observed ${r.unevaluable.outcomeUnknown}, no routed answer ${r.unevaluable.noRoutedAnswer}, no served answer ${r.unevaluable.noServedAnswer}); review load over all cases ${r.reviewLoad.before} -> ${r.reviewLoad.after}`,
    );
    console.log(
      `difference (replayed - recorded): ${formatNumber(d.estimate)}, ${
        formatLevel(d.level)
      } CI [${formatNumber(d.lo)}, ${formatNumber(d.hi)}], p = ${
        formatNumber(d.pValue, 3)
      } (${
        d.interval === "bootstrap"
          ? `paired bootstrap over ${d.pairs} cases, ${d.resamples} resamples`
          : `${d.method}; ${d.test} test over ${d.pairs} cases${
            r.clusters === undefined ? "" : ` in ${r.clusters} clusters`
          }; ${d.resamples} draws`
      }, seed ${d.seed})`,
    );
    console.log(
      `changed: ${r.changed.cases} cases (${r.changed.autoToEscalate} auto -> escalate, ${r.changed.escalateToAuto} escalate -> auto, ${r.changed.rerouted} rerouted)`,
    );
    const shown = values.diff ? r.diff : r.diff.slice(0, 10);
    if (shown.length > 0) {
      console.log(alignRows([
        ["task", "severity", "model", "action", "cost"],
        ...shown.map((x) => [
          x.taskId,
          x.severity,
          `${x.modelBefore ?? "-"} -> ${x.modelAfter ?? "-"}`,
          `${x.actionBefore ?? "-"} -> ${x.actionAfter ?? "-"}`,
          `${formatNumber(x.costBefore)} -> ${formatNumber(x.costAfter)}`,
        ]),
      ]));
      if (shown.length < r.diff.length) {
        console.log(
          `... ${r.diff.length - shown.length} more; --diff lists every one`,
        );
      }
    }
    return 0;
  },
};
