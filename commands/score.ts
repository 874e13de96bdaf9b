// `lossbook score`: accuracy, errors, recall and loss per model of a run export.
import {
  getProfile,
  loadProfileFile,
  SHIPPED_PROFILES,
} from "../lib/costs/load.ts";
import type { CostProfile } from "../lib/costs/profile.ts";
import { SEVERITIES, type Severity } from "../lib/costs/severity.ts";
import {
  accuracy,
  errorsBySeverity,
  recallBySeverity,
} from "../lib/metrics/accuracy.ts";
import { expectedLoss, realisedLoss } from "../lib/metrics/loss.ts";
import type { RateInterval } from "../lib/metrics/rate.ts";
import {
  forModel,
  modelIds,
  type StatsRow,
  summarise,
} from "../lib/metrics/sufficient_stats.ts";
import { decisionStats } from "../lib/runs/decision_stats.ts";
import { loadDecisionsJsonl } from "../lib/runs/load_decisions.ts";
import {
  alignRows,
  type Command,
  formatNumber,
  parseFlags,
  UsageError,
} from "./_command.ts";

/** The `score --json` document of one model. Keys are a contract: extend, never rename. */
export interface ModelScore {
  /** Model id. */
  modelId: string;
  /** Decisions scored: the denominator of `accuracy`. */
  n: number;
  /** Share of decisions whose class equals the gold class; null when `n` is 0. */
  accuracy: number | null;
  /** Wrong decisions per severity; null for a severity with no decisions. */
  errorsBySeverity: Record<Severity, number | null>;
  /** Exact-class recall of exceptions per severity; null where there are none. */
  recallBySeverity: Record<Severity, number | null>;
  /** Realised loss per profile id. */
  loss: Record<string, number | null>;
  /** Expected loss from pCorrect per profile id; null when some automatic decision states none. */
  expectedLoss: Record<string, number | null>;
  /** Wilson intervals of `accuracy` and `recallBySeverity`. */
  intervals: {
    accuracy: RateInterval | null;
    recallBySeverity: Record<Severity, RateInterval | null>;
  };
  /** Decisions whose gold class is an exception (not MATCH). */
  exceptions: number;
  /** Decisions whose raw output did not parse. */
  parseFailures: number;
  /** Decisions sent to review. */
  escalated: number;
  /** Automatic decisions with no stated pCorrect. */
  missingPCorrect: number;
}

/** Resolve `--profile` values: shipped ids, or paths to `.json`/`.yaml` profile files. */
export async function resolveProfiles(
  specs: readonly string[] | undefined,
): Promise<CostProfile[]> {
  if (specs === undefined || specs.length === 0) return [...SHIPPED_PROFILES];
  const out: CostProfile[] = [];
  for (const spec of specs) {
    const profile = /\.(json|ya?ml)$/i.test(spec)
      ? await loadProfileFile(spec)
      : getProfile(spec);
    if (out.some((p) => p.id === profile.id)) {
      throw new UsageError(
        `profile ${JSON.stringify(profile.id)} is given twice`,
      );
    }
    out.push(profile);
  }
  return out;
}

/** Score every model in a set of sufficient statistics. */
export function scoreModels(
  stats: readonly StatsRow[],
  profiles: readonly CostProfile[],
  level: number,
): ModelScore[] {
  const bySeverity = <T>(f: (s: Severity) => T) =>
    Object.fromEntries(SEVERITIES.map((s) => [s, f(s)])) as Record<Severity, T>;
  return modelIds(stats).map((m) => {
    const rows = forModel(stats, m);
    const acc = accuracy(rows, { level });
    const recall = recallBySeverity(rows, { level });
    const totals = summarise(rows);
    return {
      modelId: m,
      n: acc.denominator,
      accuracy: acc.value,
      errorsBySeverity: errorsBySeverity(rows),
      recallBySeverity: bySeverity((s) => recall[s].value),
      loss: Object.fromEntries(
        profiles.map((p) => [p.id, realisedLoss(rows, p)]),
      ),
      expectedLoss: Object.fromEntries(
        profiles.map((p) => [p.id, expectedLoss(rows, p)]),
      ),
      intervals: {
        accuracy: acc.interval,
        recallBySeverity: bySeverity((s) => recall[s].interval),
      },
      exceptions: totals.exceptions,
      parseFailures: totals.parseFailures,
      escalated: totals.escalated,
      missingPCorrect: totals.autoPMissing,
    };
  });
}

function percent(value: number | null, interval: RateInterval | null): string {
  if (value === null || interval === null) return "n/a";
  return `${(value * 100).toFixed(2)}% [${(interval.lo * 100).toFixed(2)}, ${
    (interval.hi * 100).toFixed(2)
  }]`;
}

function humanReport(
  path: string,
  models: readonly ModelScore[],
  profiles: readonly CostProfile[],
  level: number,
): string {
  const lines = [
    `${path}: ${models.length} model${models.length === 1 ? "" : "s"}`,
  ];
  for (const m of models) {
    lines.push("");
    lines.push(
      `${m.modelId}: ${m.n} decisions (${m.exceptions} exceptions), accuracy ${
        percent(m.accuracy, m.intervals.accuracy)
      } (${
        Math.round(level * 100)
      }% Wilson), ${m.escalated} escalated, ${m.parseFailures} parse failures`,
    );
    const sev = [[
      "severity",
      "errors",
      "recall",
      `recall ${Math.round(level * 100)}% CI`,
    ]];
    for (const s of SEVERITIES) {
      const ci = m.intervals.recallBySeverity[s];
      sev.push([
        s,
        formatNumber(m.errorsBySeverity[s]),
        m.recallBySeverity[s] === null
          ? "n/a"
          : `${(m.recallBySeverity[s]! * 100).toFixed(2)}%`,
        ci === null
          ? "n/a"
          : `[${(ci.lo * 100).toFixed(2)}, ${(ci.hi * 100).toFixed(2)}]`,
      ]);
    }
    lines.push(alignRows(sev).replace(/^/gm, "  "));
    const loss = [["profile", "loss", "expected loss", "unit"]];
    for (const p of profiles) {
      loss.push([
        p.id,
        formatNumber(m.loss[p.id]),
        formatNumber(m.expectedLoss[p.id]),
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
  return lines.join("\n");
}

/** The `score` command. */
export const scoreCommand: Command = {
  summary: "Score a run export: accuracy, errors, recall and loss per model",
  usage:
    "lossbook score <decisions.jsonl> [--profile ID|FILE]... [--level 0.95] [--json]",
  example:
    "deno task lossbook score data/examples/model_ab.jsonl --profile reconciliation --json",
  async run(args) {
    const { values, positionals } = parseFlags("score", args, {
      profile: { type: "string", multiple: true },
      level: { type: "string" },
      json: { type: "boolean" },
    });
    if (positionals.length !== 1) {
      throw new UsageError(
        `expected one decisions file, got ${positionals.length}`,
      );
    }
    const level = values.level === undefined ? 0.95 : Number(values.level);
    if (!(level > 0 && level < 1)) {
      throw new UsageError(
        `--level must be a number in (0, 1), got ${values.level}`,
      );
    }
    const profiles = await resolveProfiles(values.profile);
    const path = positionals[0];
    const stats = decisionStats(await loadDecisionsJsonl(path));
    const models = scoreModels(stats, profiles, level);
    if (values.json) {
      console.log(JSON.stringify(
        {
          file: path,
          level,
          profiles: profiles.map((p) => ({
            id: p.id,
            version: p.version,
            unit: p.unit ?? null,
          })),
          models,
        },
        null,
        2,
      ));
    } else {
      console.log(humanReport(path, models, profiles, level));
    }
    return 0;
  },
};
