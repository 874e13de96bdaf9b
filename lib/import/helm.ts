/**
 * Importer for HELM run folders: `run_spec.json`, `per_instance_stats.json`
 * and (optionally) `scenario_state.json`, as HELM's runner writes them.
 *
 * @module
 */

import { basename, dirname, join } from "node:path";
import type {
  DetectInput,
  HarnessImporter,
  HarnessImportResult,
} from "./harness.ts";
import {
  type ClusterResolver,
  countPCorrectSources,
  describePCorrectSources,
  pickPCorrect,
  type SeverityResolver,
} from "./mapping.ts";
import { parseJsonBytesStrict } from "../_json.ts";
import {
  binaryValue,
  handOver,
  type HarnessDecision,
  harnessDecision,
  isObject,
  show,
} from "./_harness_record.ts";
import { InputRangeError, InputTypeError } from "../input_error.ts";
import { tupleKey } from "../_tuple_key.ts";

/** The stat that decides correctness unless `--metric` names another. */
export const HELM_DEFAULT_METRIC = "exact_match";

/** Options for {@linkcode parseHelmRun}. */
export interface HelmOptions {
  /** Resolves each decision's severity (from the shared mapping module). */
  severityOf: SeverityResolver;
  /** Resolves each decision's cluster (`--cluster PATH`). Default: none, the decisions name no cluster. */
  clusterOf?: ClusterResolver;
  /** The run folder, shown in errors; its name is the run id. Default: `"<inline>"`. */
  path?: string;
  /** `--metric`: the per-instance stat that says correct (0/1). Default: `exact_match`. */
  metric?: string;
  /** `--pcorrect-from`: `logprob-token` or `none`. Default: `max_prob` under HELM's rule. */
  pcorrectFrom?: string;
  /**
   * Which perturbation's entries to read, by its `name`; default: the
   * unperturbed entries (the others are counted in the notes, never mixed in).
   */
  perturbation?: string;
}

/** The three files of a run folder, parsed. */
export interface HelmRunFiles {
  /** `run_spec.json`. */
  readonly runSpec: unknown;
  /** `per_instance_stats.json`. */
  readonly perInstanceStats: unknown;
  /** `scenario_state.json`, or `null` when the folder has none (answers and targets are then unknown). */
  readonly scenarioState?: unknown;
}

interface Stat {
  readonly name: string;
  readonly sum: number;
  readonly count: number;
  readonly mean: number | null;
}

function readStats(stats: unknown, at: string): Map<string, Stat[]> {
  if (!Array.isArray(stats)) {
    throw new InputTypeError(`${at}: stats must be a list, got ${show(stats)}`);
  }
  const out = new Map<string, Stat[]>();
  stats.forEach((s, k) => {
    const sat = `${at}: stats[${k}]`;
    const name = isObject(s) && isObject(s.name) ? s.name.name : undefined;
    if (typeof name !== "string") {
      throw new InputTypeError(
        `${sat}: name.name must be a string, got ${show(name)}`,
      );
    }
    const { sum, count, mean } = s as Record<string, unknown>;
    if (typeof sum !== "number" || typeof count !== "number") {
      throw new InputTypeError(
        `${sat} (${name}): sum and count must be numbers, got ${
          show(sum)
        } and ${show(count)}`,
      );
    }
    if (mean !== undefined && mean !== null && typeof mean !== "number") {
      throw new InputTypeError(
        `${sat} (${name}): mean must be a number, got ${show(mean)}`,
      );
    }
    const list = out.get(name) ?? [];
    list.push({ name, sum, count, mean: (mean as number | null) ?? null });
    out.set(name, list);
  });
  return out;
}

function oneStat(
  stats: Map<string, Stat[]>,
  name: string,
  at: string,
): Stat | undefined {
  const list = stats.get(name);
  if (list === undefined) return undefined;
  if (list.length > 1) {
    throw new InputRangeError(
      `${at}: stat ${name} appears ${list.length} times in one entry; cannot tell which decides`,
    );
  }
  return list[0];
}

function meanOf(s: Stat, at: string): number {
  if (s.count < 1) {
    throw new InputRangeError(
      `${at}: stat ${s.name} has count ${s.count}, no value`,
    );
  }
  return s.mean ?? s.sum / s.count;
}

function tokenCount(s: Stat | undefined, at: string): number | undefined {
  if (s === undefined) return undefined;
  if (!Number.isInteger(s.sum) || s.sum < 0) {
    throw new InputRangeError(
      `${at}: stat ${s.name} must sum to a whole number of tokens >= 0, got ${s.sum}`,
    );
  }
  return s.sum;
}

function perturbationName(value: unknown, at: string): string | null {
  if (value === undefined || value === null) return null;
  if (!isObject(value) || typeof value.name !== "string") {
    throw new InputTypeError(
      `${at}: perturbation must be an object with a name, got ${show(value)}`,
    );
  }
  return value.name;
}

interface StateText {
  answer?: string;
  target?: string;
  instance: unknown;
}

function scenarioTexts(
  state: unknown,
  file: string,
): Map<string, StateText> {
  const out = new Map<string, StateText>();
  const where = `Cannot load HELM scenario state ${file}`;
  const states = isObject(state) ? state.request_states : undefined;
  if (!Array.isArray(states)) {
    throw new InputTypeError(`${where}: request_states must be a list`);
  }
  const requestsPerKey = new Map<string, number>();
  states.forEach((rs, i) => {
    const at = `${where}: request_states[${i}]`;
    if (!isObject(rs) || !isObject(rs.instance)) {
      throw new InputTypeError(`${at}: instance must be an object`);
    }
    const inst = rs.instance;
    if (typeof inst.id !== "string") {
      throw new InputTypeError(
        `${at}: instance.id must be a string, got ${show(inst.id)}`,
      );
    }
    const trial = rs.train_trial_index;
    const key = tupleKey([
      inst.id,
      String(trial),
      perturbationName(inst.perturbation, at) ?? "",
    ]);
    requestsPerKey.set(key, (requestsPerKey.get(key) ?? 0) + 1);
    const refs = Array.isArray(inst.references) ? inst.references : [];
    const gold = refs.find((r) =>
      isObject(r) && Array.isArray(r.tags) && r.tags.includes("correct")
    );
    const target = isObject(gold) && isObject(gold.output) &&
        typeof gold.output.text === "string"
      ? gold.output.text
      : undefined;
    let answer: string | undefined;
    // One request per instance: its best completion is the answer (HELM
    // strips it and applies the output mapping before exact_match). The
    // separate multiple-choice methods make one request per reference; their
    // answer is not one completion, so it stays unknown.
    if (rs.reference_index === undefined || rs.reference_index === null) {
      const result = isObject(rs.result) ? rs.result : undefined;
      const completions = result && Array.isArray(result.completions)
        ? result.completions.filter((c) => isObject(c))
        : [];
      if (completions.length > 0) {
        const best = completions.reduce((a, b) =>
          (b.logprob as number) > (a.logprob as number) ? b : a
        );
        if (typeof best.text === "string") {
          const text = best.text.trim();
          const mapping = isObject(rs.output_mapping)
            ? rs.output_mapping
            : null;
          const mapped = mapping !== null ? mapping[text] : text;
          answer = typeof mapped === "string" ? mapped : text;
        }
      }
    }
    out.set(key, { answer, target, instance: inst });
  });
  for (const [key, n] of requestsPerKey) {
    if (n > 1) {
      const t = out.get(key)!;
      out.set(key, { target: t.target, instance: t.instance });
    }
  }
  return out;
}

/**
 * Turn a HELM run's files into decisions, one per (instance, train trial).
 *
 * Correctness is the instance's `exact_match` stat (or `--metric`), which
 * must be 0 or 1. The model is `run_spec.json`'s `adapter_spec.model`; the
 * run id is `run_spec.json`'s `name` (HELM names the folder after it); the task id is `instance_id` and the trial
 * `train_trial_index`. Perturbed copies of an instance are read only when
 * `perturbation` names them; by default the unperturbed entries are read and
 * the others counted in the notes. `max_prob` becomes `pCorrect` (source
 * `logprob-token`) only under HELM's own rule for its calibration metrics:
 * some entry of the run has a `logprob` stat below zero (models that return
 * no log-probabilities give all zeros, and then a `max_prob` of 1 that means
 * nothing); an entry whose own `logprob` is 0 also gets `null`. Tokens come
 * from `num_prompt_tokens` and `num_completion_tokens`, latency from
 * `inference_runtime` (seconds, times 1000). HELM records no price: cost is
 * `unavailable`, never 0. Answer and target texts come from
 * `scenario_state.json` when it is given. For `--severity-field`, paths are
 * read from the per-instance entry with the scenario's instance under
 * `instance` (for example `instance.extra_data.severity`).
 *
 * @param files The parsed files.
 * @param options Severity resolver, folder path, metric and perturbation.
 * @returns Decisions, counts, and messages saying what was read.
 * @throws {TypeError} For a missing file field, stat or model.
 * @throws {RangeError} For a stat that is not 0/1, a repeated entry, or a perturbation no entry has.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseHelmRun } from "./helm.ts";
 *
 * const stat = (name: string, x: number) => ({ name: { name, split: "test" }, count: 1, sum: x, mean: x });
 * const { decisions } = parseHelmRun({
 *   runSpec: { name: "r", adapter_spec: { model: "openai/gpt2", method: "multiple_choice_joint" } },
 *   perInstanceStats: [{
 *     instance_id: "id7", train_trial_index: 0,
 *     stats: [stat("exact_match", 1), stat("max_prob", 0.8), stat("logprob", Math.log(0.8)),
 *       stat("num_prompt_tokens", 52), stat("num_completion_tokens", 1), stat("inference_runtime", 0.25)],
 *   }],
 * }, { path: "runs/r", severityOf: () => "LOW" });
 * assert.equal(decisions[0].taskId, "id7");
 * assert.equal(decisions[0].pCorrect, 0.8);
 * assert.equal(decisions[0].latencyMs, 250);
 * assert.deepEqual(decisions[0].cost, { completeness: "unavailable", usd: null });
 * ```
 */
export function parseHelmRun(
  files: HelmRunFiles,
  options: HelmOptions,
): HarnessImportResult {
  const dir = options.path ?? "<inline>";
  const where = `Cannot load HELM run ${dir}`;
  const spec = files.runSpec;
  // HELM names a run's folder after its run spec; the spec's name is the run
  // id wherever the folder was copied or renamed to
  const runId = isObject(spec) ? spec.name : undefined;
  if (typeof runId !== "string" || runId === "") {
    throw new InputTypeError(
      `${where}: run_spec.json: name must be a non-empty string, got ${
        show(runId)
      }`,
    );
  }
  const model = isObject(spec) && isObject(spec.adapter_spec)
    ? spec.adapter_spec.model
    : undefined;
  if (typeof model !== "string" || model === "") {
    throw new InputTypeError(
      `${where}: run_spec.json: adapter_spec.model must be a non-empty string, got ${
        show(model)
      }`,
    );
  }
  const pis = files.perInstanceStats;
  if (!Array.isArray(pis)) {
    throw new InputTypeError(
      `${where}: per_instance_stats.json must be a list of entries`,
    );
  }
  const metric = options.metric ?? HELM_DEFAULT_METRIC;
  const wanted = options.perturbation ?? null;
  const texts =
    files.scenarioState === undefined || files.scenarioState === null
      ? null
      : scenarioTexts(files.scenarioState, join(dir, "scenario_state.json"));

  const selected: {
    at: string;
    id: string;
    trial: number;
    pert: string | null;
    stats: Map<string, Stat[]>;
    raw: Record<string, unknown>;
  }[] = [];
  const setAside = new Map<string, number>();
  const seen = new Map<string, number>();
  pis.forEach((e, i) => {
    const pre = `${where}: per_instance_stats.json[${i}]`;
    if (!isObject(e)) throw new InputTypeError(`${pre}: expected an object`);
    const id = e.instance_id;
    if (typeof id !== "string" || id === "") {
      throw new InputTypeError(
        `${pre}: instance_id must be a non-empty string, got ${show(id)}`,
      );
    }
    const trial = e.train_trial_index;
    if (typeof trial !== "number" || !Number.isInteger(trial) || trial < 0) {
      throw new InputTypeError(
        `${pre} (instance_id ${
          JSON.stringify(id)
        }): train_trial_index must be an integer >= 0, got ${show(trial)}`,
      );
    }
    const at = `${pre} (instance_id ${
      JSON.stringify(id)
    }, train_trial_index ${trial})`;
    const pert = perturbationName(e.perturbation, at);
    if (pert !== wanted) {
      const k = pert ?? "(unperturbed)";
      setAside.set(k, (setAside.get(k) ?? 0) + 1);
      return;
    }
    const key = `${id}\u0000${trial}`;
    const first = seen.get(key);
    if (first !== undefined) {
      throw new InputRangeError(
        `${at}: repeats per_instance_stats.json[${first}] (same instance, trial and perturbation)`,
      );
    }
    seen.set(key, i);
    selected.push({
      at,
      id,
      trial,
      pert,
      stats: readStats(e.stats, at),
      raw: e,
    });
  });
  if (wanted !== null && selected.length === 0) {
    throw new InputRangeError(
      `${where}: no entry has perturbation ${
        JSON.stringify(wanted)
      }; the run has ${[...setAside.keys()].join(", ") || "no entries"}`,
    );
  }

  // HELM's _has_non_zero_valued_logprobs: some logprob stat sums below zero.
  const logprobsReal = selected.some((s) =>
    (s.stats.get("logprob") ?? []).some((st) => st.sum < 0)
  );
  const decisions: HarnessDecision[] = [];
  let zeroLogprob = 0;
  for (const s of selected) {
    const m = oneStat(s.stats, metric, s.at);
    if (m === undefined) {
      throw new InputTypeError(
        `${s.at}: stat ${metric} is missing${
          options.metric === undefined
            ? " (choose another with --metric NAME)"
            : ""
        }`,
      );
    }
    const correct = binaryValue(meanOf(m, s.at), `${s.at}: stat ${metric}`);
    let value: number | null = null;
    const maxProb = oneStat(s.stats, "max_prob", s.at);
    if (logprobsReal && maxProb !== undefined) {
      const own = oneStat(s.stats, "logprob", s.at);
      if (own !== undefined && own.sum === 0) zeroLogprob++;
      else {
        value = meanOf(maxProb, s.at);
        if (!(value >= 0 && value <= 1)) {
          throw new InputRangeError(
            `${s.at}: stat max_prob must be in [0, 1], got ${value}`,
          );
        }
      }
    }
    const picked = pickPCorrect(
      [{ source: "logprob-token", value }],
      options.pcorrectFrom,
    );
    const runtime = oneStat(s.stats, "inference_runtime", s.at);
    if (runtime !== undefined && !(runtime.sum >= 0)) {
      throw new InputRangeError(
        `${s.at}: stat inference_runtime must be >= 0 seconds, got ${runtime.sum}`,
      );
    }
    const text = texts?.get(tupleKey([s.id, s.trial, s.pert ?? ""]));
    const record = { ...s.raw, instance: text?.instance };
    decisions.push(harnessDecision({
      runId,
      modelId: model,
      taskId: s.id,
      trial: s.trial,
      severity: options.severityOf({ taskId: s.id, record }, s.at),
      cluster: options.clusterOf?.({ taskId: s.id, record }, s.at),
      verdict: correct ? "correct" : "incorrect",
      pCorrect: picked,
      cost: { completeness: "unavailable", usd: null },
      answer: text?.answer,
      target: text?.target,
      tokensIn: tokenCount(oneStat(s.stats, "num_prompt_tokens", s.at), s.at),
      tokensOut: tokenCount(
        oneStat(s.stats, "num_completion_tokens", s.at),
        s.at,
      ),
      // Seconds to milliseconds, to the microsecond (no float noise).
      latencyMs: runtime === undefined
        ? undefined
        : Math.round(runtime.sum * 1e6) / 1e3,
    }));
  }
  const notes: Record<string, number> = {};
  for (const [k, n] of setAside) {
    notes[k === "(unperturbed)" ? "unperturbedSetAside" : `perturbed:${k}`] = n;
  }
  if (zeroLogprob > 0) notes.zeroLogprobEntries = zeroLogprob;
  const messages = [
    `HELM ${runId}: correctness from stat ${metric}; model ${model}; ${
      wanted === null ? "unperturbed entries" : `perturbation ${wanted}`
    }${
      setAside.size > 0
        ? ` (set aside: ${
          [...setAside].map(([k, n]) => `${k} ${n}`).join(", ")
        })`
        : ""
    }`,
    logprobsReal
      ? describePCorrectSources(countPCorrectSources(decisions))
      : "pCorrect source: none (the run's logprobs are all zero, so HELM's max_prob is not a probability)",
  ];
  if (texts === null) {
    messages.push("no scenario_state.json: answers and targets unknown");
  }
  return {
    decisions,
    notes,
    messages,
    // HELM states no count of instances to hold it to
    completeness: {
      status: null,
      samplesExpected: null,
      samplesRead: decisions.length,
      missing: [],
    },
  };
}

/**
 * Read a HELM run folder (or the `per_instance_stats.json` in one).
 *
 * @param path The run folder, or a file inside it.
 * @param options As {@linkcode parseHelmRun}, without `path`.
 * @returns As {@linkcode parseHelmRun}.
 * @throws As {@linkcode parseHelmRun}; `Deno.errors.NotFound` when `run_spec.json` or `per_instance_stats.json` is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadHelmRun } from "./helm.ts";
 *
 * const { decisions } = await loadHelmRun(
 *   "data/examples/harness/helm/recon_model_example_recon-7b",
 *   { severityOf: () => "HIGH" },
 * );
 * assert.ok(decisions.every((d) => d.modelId === "example/recon-7b"));
 * ```
 */
export async function loadHelmRun(
  path: string,
  options: Omit<HelmOptions, "path">,
): Promise<HarnessImportResult> {
  const dir = (await Deno.stat(path)).isDirectory ? path : dirname(path);
  const need = async (name: string) => {
    const file = join(dir, name);
    try {
      return parseJsonBytesStrict(await Deno.readFile(file), file, {
        nonFinite: true,
      });
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        throw new Deno.errors.NotFound(
          `Cannot load HELM run ${dir}: ${name} is missing (a HELM run folder holds run_spec.json, per_instance_stats.json and scenario_state.json)`,
        );
      }
      throw error;
    }
  };
  const runSpec = await need("run_spec.json");
  const perInstanceStats = await need("per_instance_stats.json");
  let scenarioState: unknown = null;
  try {
    const file = join(dir, "scenario_state.json");
    scenarioState = parseJsonBytesStrict(await Deno.readFile(file), file, {
      nonFinite: true,
    });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return parseHelmRun(
    { runSpec, perInstanceStats, scenarioState },
    { ...options, path: dir },
  );
}

/**
 * Whether an input is a HELM run folder (it holds `run_spec.json` and
 * `per_instance_stats.json`) or a `per_instance_stats.json` file.
 *
 * @param input What detection sees of the input.
 * @returns `true` for a HELM run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectHelm } from "./helm.ts";
 *
 * const dir = "data/examples/harness/helm/recon_model_example_recon-7b";
 * assert.equal(detectHelm({ path: dir, isDirectory: true, head: new Uint8Array() }), true);
 * assert.equal(detectHelm({ path: "data", isDirectory: true, head: new Uint8Array() }), false);
 * ```
 */
export function detectHelm(input: DetectInput): boolean {
  const dir = input.isDirectory
    ? input.path
    : basename(input.path) === "per_instance_stats.json"
    ? dirname(input.path)
    : null;
  if (dir === null) return false;
  try {
    return Deno.statSync(join(dir, "run_spec.json")).isFile &&
      Deno.statSync(join(dir, "per_instance_stats.json")).isFile;
  } catch {
    return false;
  }
}

/** The HELM importer, for the harness registry. */
export const helmImporter: HarnessImporter = {
  format: "helm",
  flags: ["metric"],
  metadataPaths: ["instance.extra_data"],
  detect: detectHelm,
  import: async (path, options) =>
    handOver(
      await loadHelmRun(path, {
        severityOf: options.severityOf,
        clusterOf: options.clusterOf,
        pcorrectFrom: options.pcorrectFrom,
        metric: options.metric,
      }),
      options,
    ),
};
