// `lossbook score`: the command over `score` (api/score.ts), with its help
// and the human report.
import { SEVERITIES } from "../lib/costs/severity.ts";
import type { CostProfile } from "../lib/costs/profile.ts";
import { resolveIntervalMethod } from "../lib/metrics/loss_interval.ts";
import { isVerdictClass } from "../lib/metrics/sufficient_stats.ts";
import {
  alignRows,
  type Command,
  formatNumber,
  parseFlags,
} from "./_command.ts";
import { inputLabel, unitLabel } from "./_input.ts";
import type { DecisionUnit } from "../lib/decision/cluster.ts";
import { commandHelp } from "./_help.ts";
import { formatLevel, formatRateMethod } from "./_format.ts";
import {
  type ModelScore,
  pBestUnstatedNote,
  SCORE_OPTIONS,
  scoreRun,
  type ScoreSettings,
} from "../api/score.ts";

function pct(v: number | null): string {
  return v === null ? "n/a" : `${(v * 100).toFixed(2)}%`;
}

function range(
  lo: number | null,
  hi: number | null,
  scale = 100,
  digits = 2,
): string {
  return lo === null || hi === null
    ? "n/a"
    : `[${(lo * scale).toFixed(digits)}, ${(hi * scale).toFixed(digits)}]`;
}

function humanReport(
  header: string,
  models: readonly ModelScore[],
  verdictModels: ReadonlySet<string>,
  profiles: readonly CostProfile[],
  options: ScoreSettings & { readonly unit: DecisionUnit },
): string {
  const lv = formatLevel(options.level);
  const lines = [header];
  for (const m of models) {
    lines.push("");
    lines.push(
      `${m.modelId}: ${m.n} decisions (${m.exceptions} ${
        verdictModels.has(m.modelId) ? "graded answers" : "exceptions"
      }), accuracy ${pct(m.accuracy)} ${
        range(
          m.intervals.accuracy?.lo ?? null,
          m.intervals.accuracy?.hi ?? null,
        )
      } (${lv} ${
        formatRateMethod(
          m.intervals.accuracy,
          options.unit === "cluster" ? "clusters" : "tasks",
        )
      }), ${m.escalated} escalated, ${m.parseFailures} parse failures`,
    );
    if (m.severityWeightedRecall !== null) {
      const ci = m.intervals.severityWeightedRecall!;
      lines.push(
        `  severity-weighted recall R_w ${
          m.severityWeightedRecall.toFixed(4)
        } ${range(ci.lo, ci.hi, 1, 4)} (${lv} ${
          ci.interval === "bootstrap" ? "bootstrap" : "Clopper-Pearson per cell"
        })`,
      );
    }
    const share = verdictModels.has(m.modelId)
      ? "answered correctly"
      : "recall";
    const sev = [["severity", "errors", share, `${share} ${lv} CI`]];
    for (const s of SEVERITIES) {
      const ci = m.intervals.recallBySeverity[s];
      sev.push([
        s,
        formatNumber(m.errorsBySeverity[s]),
        pct(m.recallBySeverity[s]),
        range(ci?.lo ?? null, ci?.hi ?? null),
      ]);
    }
    lines.push(alignRows(sev).replace(/^/gm, "  "));
    const method = profiles.length > 0
      ? m.intervals.loss[profiles[0].id].interval
      : resolveIntervalMethod(options.interval ?? "auto");
    const loss = [[
      "profile",
      "loss",
      `loss ${lv} CI (${method})`,
      "expected loss",
      ...(m.pBest === null ? [] : ["P(best)"]),
      "unit",
    ]];
    for (const p of profiles) {
      const ci = m.intervals.loss[p.id];
      loss.push([
        p.id,
        formatNumber(m.loss[p.id]),
        ci.lo === null
          ? "n/a"
          : `[${formatNumber(ci.lo)}, ${formatNumber(ci.hi)}]`,
        formatNumber(m.expectedLoss[p.id]),
        ...(m.pBest === null
          ? []
          : [m.pBest[p.id] === null ? "n/a" : m.pBest[p.id]!.toFixed(3)]),
        p.unit ?? "",
      ]);
    }
    lines.push(alignRows(loss).replace(/^/gm, "  "));
    if (m.missingPCorrect > 0) {
      lines.push(
        `  expected loss is n/a: ${m.missingPCorrect} automatic decisions state no pCorrect`,
      );
    }
  }
  const note = pBestUnstatedNote(models[0], profiles.map((p) => p.id));
  if (note !== null) {
    lines.push("");
    lines.push(note);
  }
  return lines.join("\n");
}

/**
 * What `--interval` does, for `--help`: the methods and what `auto` picks.
 */
export const INTERVAL_HELP =
  "--interval auto|cp-gamma|fay-feuer|jeffreys|bootstrap: method of loss intervals. auto (default) is cp-gamma, the gamma interval of Fay & Feuer (1997) on the cost-weighted counts per cell, its variance read from each task's (or cluster's) second moment, with its extra event sized by the Clopper-Pearson bound of its cell, which held its level in every row of a seeded coverage study (docs/method.md) and is never wider than fay-feuer, the same interval with one extra event of the largest cost; jeffreys draws per-cell Jeffreys-Dirichlet posteriors by seeded Monte Carlo (--resamples draws); bootstrap is the percentile bootstrap of earlier versions, which cannot see a costly cell with zero observed errors. A method that fell below 0.93 in the study (jeffreys, bootstrap) prints a warning naming its measured coverage.";

/** The `score` command. */
export const scoreCommand: Command = {
  summary:
    "Score a run export: accuracy, errors, recall and loss per model, with intervals",
  ...commandHelp({
    forms: [{ command: "score", args: "<file>...", options: SCORE_OPTIONS }],
    notes: [
      "With --engine postgres, give --dsn URL --table NAME and no files: lossbook score --engine postgres --dsn URL --table NAME [options].",
      INTERVAL_HELP,
    ],
  }),
  example:
    "deno task lossbook score data/examples/model_ab.jsonl --profile reconciliation --json",
  async run(args) {
    const { values, positionals } = parseFlags("score", args, SCORE_OPTIONS);
    const { document, run, profiles, settings } = await scoreRun(
      positionals,
      values,
    );
    for (const w of document.warnings ?? []) console.error(`warning: ${w}`);
    if (values.json) {
      console.log(JSON.stringify(document, null, 2));
      return 0;
    }
    const notes = Object.entries(run.notes).filter(([, v]) => v > 0).map((
      [k, v],
    ) => `${k} ${v}`);
    const header = `${
      inputLabel(run)
    } (${run.format}, ${settings.mode} mode, ${document.matrix} matrix): ${document.models.length} model${
      document.models.length === 1 ? "" : "s"
    }, ${run.decisions} decisions${
      notes.length ? `; ${notes.join(", ")}` : ""
    }; loss intervals: ${document.lossIntervalMethod} (--interval ${document.interval})${
      unitLabel(run)
    }; seed ${settings.seed}, ${settings.resamples} resamples`;
    // harness runs grade answers (classes verdict:*): they have no exceptions
    const verdictModels = new Set(
      run.stats.filter((r) => r.n > 0 && isVerdictClass(r.trueClass)).map((
        r,
      ) => r.modelId),
    );
    console.log(
      humanReport(header, document.models, verdictModels, profiles, {
        ...settings,
        unit: run.unit,
      }),
    );
    return 0;
  },
};
