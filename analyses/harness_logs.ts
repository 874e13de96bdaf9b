/**
 * Harness logs in money: an inspect_ai log and an lm-evaluation-harness
 * samples file, imported as they are, given their severities from a map
 * file, and scored under the four shipped cost profiles, with the source of
 * every probability shown.
 *
 * A harness log says whether each answer was right; it never says what a
 * wrong one costs. The severity map supplies that, the cost profile prices
 * it, and a wrong harness answer is acted on: it costs K(severity) whatever
 * the cost matrix. The claims check the import against each log's own
 * figures (its reported accuracy, its own severity metadata, lm-eval's option
 * log-likelihoods) and the pricing against the matrices.
 *
 * @module
 */

import * as aq from "arquero";
import { groupedBarChart } from "../lib/charts/specs.ts";
import { type Claim, claimClose, claimEqual } from "../lib/claims/claim.ts";
import type { AnalysisResult } from "../lib/claims/analysis_result.ts";
import { SHIPPED_PROFILES } from "../lib/costs/load.ts";
import { type CostProfile, profileSpan } from "../lib/costs/profile.ts";
import { accuracy } from "../lib/metrics/accuracy.ts";
import {
  VERDICT_CORRECT,
  VERDICT_NO_ANSWER,
} from "../lib/metrics/sufficient_stats.ts";
import {
  expectedLoss,
  realisedLoss,
  STRICT_MATRIX,
} from "../lib/metrics/loss.ts";
import type { Decision } from "../lib/decision/decision.ts";
import { decisionStats } from "../lib/decision/decision_stats.ts";
import { decisionTable } from "../lib/read/load_decisions.ts";
import { type HarnessFormat, harnessImporter } from "../lib/import/harness.ts";
import {
  parseFieldPath,
  type SeverityResolver,
  severityResolver,
  severitySpec,
} from "../lib/import/mapping.ts";
// inspect writes bare NaN (an undefined stderr); the importers' reader reads it
import { parseJsonStrict } from "../lib/_json.ts";
import { projectPath, shownPath } from "./_paths.ts";

const SOURCE =
  "inspect-ai and lm-eval-harness log formats (docs/formats.md); severity map data/examples/harness/harness_logs_severity.csv";

/** One harness log the analysis reads. */
export interface HarnessLogSpec {
  /** Label in tables and charts. */
  readonly label: string;
  /** Format of the log. */
  readonly format: Extract<HarnessFormat, "inspect" | "lm-eval">;
  /** Path of the log (an inspect `.json` log, or an lm-eval `samples_*.jsonl` with its `results_*.json` beside it). */
  readonly path: string;
  /** Path, in the log's own records, of the severity it states (for the cross-check claim). */
  readonly severityField: string;
}

function example(name: string): string {
  return projectPath(`data/examples/harness/${name}`);
}

/** The shipped example logs: one inspect log, one lm-eval samples file. */
export const HARNESS_EXAMPLE_LOGS: readonly HarnessLogSpec[] = [
  {
    label: "inspect: claude-sonnet-4-0",
    format: "inspect",
    path: example("inspect_sonnet.json"),
    severityField: "metadata.severity",
  },
  {
    label: "lm-eval: pythia-160m",
    format: "lm-eval",
    path: example(
      "lm_eval/samples_recon_mc_2026-11-30T10-00-00.000000.jsonl",
    ),
    severityField: "doc.severity",
  },
];

/** The shipped severity map (CSV, `key,severity`, keyed by task id). */
export const HARNESS_SEVERITY_MAP: string = example(
  "harness_logs_severity.csv",
);

/** Options for {@linkcode harnessLogs}. */
export interface HarnessLogsOptions {
  /** The logs. Default: {@linkcode HARNESS_EXAMPLE_LOGS}. */
  logs?: readonly HarnessLogSpec[];
  /** Severity map file. Default: {@linkcode HARNESS_SEVERITY_MAP}. */
  severityMap?: string;
  /** Profiles to score under. Default: the four shipped profiles. */
  profiles?: readonly CostProfile[];
}

interface Imported {
  readonly spec: HarnessLogSpec;
  readonly decisions: Decision[];
  readonly messages: readonly string[];
}

async function importLog(
  spec: HarnessLogSpec,
  severityOf: SeverityResolver,
): Promise<Imported> {
  const r = await harnessImporter(spec.format).import(spec.path, {
    severityOf,
  });
  return { spec, decisions: r.decisions, messages: r.messages };
}

/** The accuracy a log reports about itself, read from its own summary. */
async function reportedAccuracy(spec: HarnessLogSpec): Promise<number> {
  if (spec.format === "inspect") {
    const log = parseJsonStrict(await Deno.readTextFile(spec.path), {
      file: spec.path,
      nonFinite: true,
    }) as {
      results?: {
        scores?: { metrics?: Record<string, { value?: unknown }> }[];
      };
    };
    const value = log.results?.scores?.[0]?.metrics?.accuracy?.value;
    if (typeof value !== "number") {
      throw new TypeError(
        `Cannot read ${spec.path}: results.scores[0].metrics.accuracy.value must be a number, got ${
          JSON.stringify(value)
        }`,
      );
    }
    return value;
  }
  const m = /^(.*\/)?samples_(.+)_([^_]+)\.jsonl$/.exec(spec.path);
  if (m === null) {
    throw new TypeError(
      `Cannot read ${spec.path}: an lm-eval samples file is named samples_<task>_<date>.jsonl`,
    );
  }
  const [, dir = "", task, date] = m;
  const results = `${dir}results_${date}.json`;
  const doc = parseJsonStrict(await Deno.readTextFile(results), {
    file: results,
    nonFinite: true,
  }) as { results?: Record<string, Record<string, unknown>> };
  const value = doc.results?.[task]?.["acc,none"];
  if (typeof value !== "number") {
    throw new TypeError(
      `Cannot read ${results}: results.${task}["acc,none"] must be a number, got ${
        JSON.stringify(value)
      }`,
    );
  }
  return value;
}

/**
 * lm-eval's multiple-choice probability, recomputed from the samples file:
 * the softmax of the option log-likelihoods at the chosen option, by task id.
 */
async function lmEvalSoftmax(path: string): Promise<Map<string, number>> {
  const task = /samples_(.+)_[^_]+\.jsonl$/.exec(path)![1];
  const out = new Map<string, number>();
  const lines = (await Deno.readTextFile(path)).split("\n");
  for (const line of lines) {
    if (line.trim() === "") continue;
    const r = JSON.parse(line) as {
      doc_id: number;
      filtered_resps: [string, string][];
    };
    const ll = r.filtered_resps.map((x) => Number(x[0]));
    const top = Math.max(...ll);
    const at = ll.indexOf(top);
    const z = ll.reduce((s, v) => s + Math.exp(v - top), 0);
    out.set(`${task}/${r.doc_id}`, Math.exp(ll[at] - top) / z);
  }
  return out;
}

function verdictOf(d: Decision): string {
  if (d.predClass === VERDICT_CORRECT) return "correct";
  if (d.predClass === VERDICT_NO_ANSWER) return "no answer";
  return "incorrect";
}

/**
 * Score an inspect_ai log and an lm-evaluation-harness samples file under
 * the shipped cost profiles.
 *
 * Each log is imported by its importer with severities from the map file
 * (keyed by task id), reduced to sufficient statistics, and scored: accuracy
 * with its denominator, realised loss and, where every decision states a
 * probability, expected loss, per profile. The provenance table counts the
 * decisions of each log by `pCorrectSource` (none for an inspect log without
 * a probability; `logprob-option` for lm-eval's multiple choice). Claims: each
 * log's accuracy equals the accuracy it reports itself; the map gives the
 * severity each log's own metadata states; loss under the consequence matrix
 * equals loss under the strict one (a wrong harness answer is a miss in every
 * matrix); loss under `flat` equals the number of wrong answers; lm-eval's
 * probabilities equal the softmax of its option log-likelihoods, recomputed
 * here from the samples file; every probability has a source.
 *
 * @param options Logs, severity map and profiles.
 * @returns Tables `scores`, `provenance`, `decisions`; chart `loss_by_profile`; the claims.
 * @throws As the importers and the severity map reader: a log, a map entry or a field that cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { harnessLogs } from "./harness_logs.ts";
 *
 * const result = await harnessLogs();
 * assert.ok(result.claims.every((c) => c.holds));
 * assert.ok(result.tables.provenance.numRows() >= 2);
 * ```
 */
export async function harnessLogs(
  options: HarnessLogsOptions = {},
): Promise<AnalysisResult> {
  const logs = options.logs ?? HARNESS_EXAMPLE_LOGS;
  const profiles = options.profiles ?? SHIPPED_PROFILES;
  const mapFile = options.severityMap ?? HARNESS_SEVERITY_MAP;
  const byMap = severityResolver(await severitySpec({ severityMap: mapFile }));
  const imported: Imported[] = [];
  for (const spec of logs) imported.push(await importLog(spec, byMap));

  const scoreRows: Record<string, unknown>[] = [];
  const provenanceRows: Record<string, unknown>[] = [];
  const decisionRows: Record<string, unknown>[] = [];
  const claims: Claim[] = [];
  const flat = profiles.find((p) => profileSpan(p) === 1);
  for (const { spec, decisions } of imported) {
    const stats = decisionStats(decisionTable(decisions));
    const acc = accuracy(stats);
    const wrong = acc.denominator - acc.numerator;
    const modelId = decisions[0]?.modelId ?? null;
    for (const p of profiles) {
      scoreRows.push({
        log: spec.label,
        model: modelId,
        profile: p.id,
        span: profileSpan(p),
        decisions: acc.denominator,
        wrong,
        accuracy: acc.value,
        loss: realisedLoss(stats, p),
        expectedLoss: expectedLoss(stats, p),
      });
    }
    const bySource = new Map<string, Decision[]>();
    for (const d of decisions) {
      const key = d.pCorrectSource ?? "none";
      bySource.set(key, [...(bySource.get(key) ?? []), d]);
      decisionRows.push({
        log: spec.label,
        taskId: d.taskId,
        trial: d.trial,
        severity: d.severity,
        verdict: verdictOf(d),
        pCorrect: d.pCorrect,
        pCorrectSource: d.pCorrectSource ?? null,
      });
    }
    for (const [source, ds] of bySource) {
      const ps = ds.map((d) => d.pCorrect).filter((p): p is number =>
        p !== null
      );
      provenanceRows.push({
        log: spec.label,
        pCorrectSource: source,
        decisions: ds.length,
        withProbability: ps.length,
        meanPCorrect: ps.length === 0
          ? null
          : ps.reduce((a, b) => a + b, 0) / ps.length,
      });
    }

    const id = spec.format;
    const key = spec.format === "inspect" ? "inspect-ai" : "lm-eval-harness";
    const src = {
      kind: "derived",
      how: "the accuracy the log's own summary states",
      source: `${key}: ${shownPath(spec.path)} (its own summary)`,
    } as const;
    claims.push(claimClose(
      `harness_logs.accuracy.${id}`,
      `${spec.label}: lossbook's accuracy over ${acc.denominator} decisions equals the accuracy the log reports`,
      await reportedAccuracy(spec),
      acc.value,
      { tolerance: 1e-9, ...src },
    ));
    const byField = severityResolver({
      kind: "field",
      path: parseFieldPath(spec.severityField),
    });
    const own = (await importLog(spec, byField)).decisions;
    const disagree = decisions.filter((d, i) =>
      d.severity !== own[i].severity || d.taskId !== own[i].taskId
    ).length;
    claims.push(claimEqual(
      `harness_logs.severity.${id}`,
      `${spec.label}: the severity map gives every decision the severity the log's own ${spec.severityField} states`,
      0,
      disagree,
      {
        kind: "property",
        source: `lossbook: severity map ${
          shownPath(mapFile)
        }, checked against the log's own field`,
      },
    ));
    const gap = Math.max(
      ...profiles.map((p) =>
        Math.abs(
          realisedLoss(stats, p)! -
            realisedLoss(stats, p, { matrix: STRICT_MATRIX })!,
        )
      ),
    );
    claims.push(claimClose(
      `harness_logs.matrix.${id}`,
      `${spec.label}: a wrong harness answer is a miss in every matrix, so loss under the consequence matrix equals loss under the strict one, for every profile`,
      0,
      gap,
      {
        kind: "property",
        tolerance: 1e-9,
        source: "lossbook: docs/formats.md, the cost of a wrong answer",
      },
    ));
    if (flat !== undefined) {
      claims.push(claimClose(
        `harness_logs.flat.${id}`,
        `${spec.label}: under ${flat.id} (K = 1 everywhere) the loss is the number of wrong answers, ${wrong}`,
        wrong * flat.K.LOW,
        realisedLoss(stats, flat),
        {
          kind: "property",
          tolerance: 1e-9,
          source: "third-number: flat-cost theorem",
        },
      ));
    }
    const unsourced = decisions.filter((d) =>
      d.pCorrect !== null && (d.pCorrectSource ?? null) === null
    ).length;
    claims.push(claimEqual(
      `harness_logs.provenance.${id}`,
      `${spec.label}: every probability records where it came from`,
      0,
      unsourced,
      {
        kind: "property",
        source:
          "lossbook: every probability names its source (docs/formats.md)",
      },
    ));
    if (spec.format === "lm-eval") {
      const soft = await lmEvalSoftmax(spec.path);
      const diff = Math.max(
        ...decisions.map((d) =>
          d.pCorrect === null
            ? Infinity
            : Math.abs(d.pCorrect - (soft.get(d.taskId) ?? Infinity))
        ),
      );
      claims.push(claimClose(
        `harness_logs.softmax.${id}`,
        `${spec.label}: each pCorrect is the softmax of the option log-likelihoods at the chosen option (largest difference)`,
        0,
        diff,
        {
          kind: "property",
          tolerance: 1e-12,
          source: `${key}: ${shownPath(spec.path)}`,
        },
      ));
    }
  }

  const charts = {
    loss_by_profile: groupedBarChart(
      scoreRows.map((r) => ({ profile: r.profile, log: r.log, loss: r.loss })),
      {
        x: "profile",
        group: "log",
        y: "loss",
        title: "Realised loss of each harness log per cost profile (log scale)",
        xTitle: "cost profile",
        yTitle: "loss (profile units)",
        groupTitle: "log",
        yScale: "log",
        xOrder: profiles.map((p) => p.id),
        colorBy: "model",
      },
    ),
  };

  return {
    id: "harness_logs",
    title:
      "Harness logs in money: inspect_ai and lm-eval runs under the four profiles",
    source: SOURCE,
    parameters: {
      logs: logs.map((l) => `${l.format}: ${l.label}`),
      severityMap: options.severityMap ??
        "data/examples/harness/harness_logs_severity.csv",
      profiles: profiles.map((p) => `${p.id}@${p.version}`),
    },
    tables: {
      scores: aq.from(scoreRows),
      provenance: aq.from(provenanceRows),
      decisions: aq.from(decisionRows),
    },
    charts,
    claims,
  };
}
