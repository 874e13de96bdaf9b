/**
 * Importer for LossBench ledger exports: JSONL lines
 * `{ seq, prev_hash, chain_hash, event: {...} }`, one per decision event.
 *
 * @module
 */

import { z } from "zod";
import { describeIssue } from "../_zod_issue.ts";
import { SEVERITIES } from "../costs/severity.ts";
import {
  type Action,
  CLEAN_CLASS,
  type Decision,
} from "../decision/decision.ts";
import type { ImportResult } from "./reconforge.ts";
import {
  InputRangeError,
  InputSyntaxError,
  InputTypeError,
} from "../input_error.ts";
import { stripBom } from "../_bom.ts";
import { jsonlLines } from "../read/_jsonl_lines.ts";
import { regularFile } from "../read/_regular_file.ts";
import { refuseDuplicateKeys } from "../_json.ts";
import { KnownKeys, type UnknownKeyOptions } from "./_known_keys.ts";
import { tupleKey } from "../_tuple_key.ts";

/**
 * The gold class given to a LossBench decision graded wrong: LossBench
 * records only that the answer was an error, not what the right answer was.
 */
export const UNRECORDED_GOLD = "UNRECORDED";

/** How to read LossBench's `calibrated_probability`. */
export type ProbabilityMeaning = "correct" | "error";

// the keys a LossBench ledger line, event and outcome hold; anything else
// is refused unless lenient
const LINE_KEYS = new Set(["chain_hash", "event", "prev_hash", "seq"]);
const EVENT_KEYS = new Set([
  "calibrated_probability",
  "cost_model_id",
  "created_at",
  "decision",
  "event_id",
  "evidence_hash",
  "expected_loss",
  "harness_id",
  "harness_revision",
  "human_cost",
  "input_snapshot_hash",
  "judge_cost",
  "latency_ms",
  "model_cost",
  "model_id",
  "model_revision",
  "observed_outcome",
  "parent_event_id",
  "policy_id",
  "policy_revision",
  "prompt_hash",
  "proposed_action",
  "rationale",
  "reasoning_effort",
  "risk_features",
  "task_id",
  "tenant_id",
  "timestamp",
  "token_usage",
  "tool_name",
  "trace_id",
  "trajectory_id",
]);
const OUTCOME_KEYS = new Set([
  "error",
  "exception_type",
  "severity",
  "verdict",
]);

const eventSchema = z.object({
  model_id: z.string().min(1),
  task_id: z.string().min(1),
  trajectory_id: z.string().min(1).optional(),
  trace_id: z.string().optional(),
  calibrated_probability: z.number({
    error: "must be a number in [0, 1] or null",
  })
    .min(0, { error: "must be in [0, 1]" }).max(1, {
      error: "must be in [0, 1]",
    }).nullable()
    .optional(),
  decision: z.enum(
    ["ALLOW", "ROUTE", "VERIFY", "ABSTAIN", "ESCALATE", "DENY"],
    {
      error: "must be one of ALLOW, ROUTE, VERIFY, ABSTAIN, ESCALATE, DENY",
    },
  ),
  observed_outcome: z.object({
    severity: z.enum(SEVERITIES, {
      error: `must be one of ${SEVERITIES.join(", ")}`,
    }),
    error: z.boolean({ error: "must be true or false" }).optional(),
    verdict: z.string().optional(),
    exception_type: z.string().nullable().optional(),
  }).passthrough().nullable().optional(),
  model_cost: z.number().min(0, { error: "must be >= 0" }).optional(),
  token_usage: z.record(
    z.string(),
    z.number({ error: "must be a whole number >= 0" }).refine(
      (v) => Number.isSafeInteger(v) && v >= 0,
      { error: "must be a whole number >= 0" },
    ),
  ).optional(),
  latency_ms: z.number().min(0, { error: "must be >= 0" }).optional(),
}).passthrough();

const lineSchema = z.object({
  seq: z.number().int().min(1),
  prev_hash: z.string(),
  chain_hash: z.string(),
  event: z.unknown(),
}).strict();

/** Options for {@linkcode parseLossbenchLedger}. */
export interface LossbenchOptions extends UnknownKeyOptions {
  /**
   * What `calibrated_probability` means in this ledger: `"correct"` reads it
   * as P(answer is correct), `"error"` as P(error). Required: LossBench's
   * harness writes P(correct) into the field while its policy code reads it
   * as P(error), so the importer refuses to guess.
   */
  probability: ProbabilityMeaning;
  /** File path shown in errors. Default: `"<inline>"`. */
  path?: string;
  /** Run id of the decisions. Default: the file path. */
  runId?: string;
  /**
   * Called with each final event (the raw `event` object of a line that
   * became a decision) and its line number, in the order of the decisions.
   */
  onFinalEvent?: (event: Record<string, unknown>, line: number) => void;
}

const ACTION: Readonly<Record<string, Action | null>> = {
  ALLOW: "auto",
  ROUTE: "auto",
  ESCALATE: "escalate",
  ABSTAIN: "escalate",
  VERIFY: null,
  DENY: null,
};

/**
 * Parse a LossBench ledger export into decisions.
 *
 * A trajectory's final event, the one whose `observed_outcome` carries
 * `error`, becomes one decision; intermediate steps (no `error`) are counted
 * in `notes.intermediateSteps`, not scored. The predicted class is the
 * outcome's `exception_type`, or its `verdict`, or MATCH. LossBench keeps no
 * gold class, so a correct decision's gold class is its prediction and a
 * wrong one's is {@linkcode UNRECORDED_GOLD}: under the consequence matrix a
 * wrong MATCH then counts as a missed exception and a wrong exception verdict
 * as a review. `ALLOW`/`ROUTE` are automatic, `ESCALATE`/`ABSTAIN` escalated;
 * a final `VERIFY` or `DENY` is an error. LossBench writes `model_cost` 0.0
 * when nothing was measured, so a zero becomes `unavailable`, never a
 * complete 0. Repeated trajectories of a model on a task become trials 0, 1, ...
 *
 * @param text The JSONL text.
 * @param options What the probability means (required), path and run id.
 * @returns Decisions, and counts of intermediate steps.
 * @throws {SyntaxError} When a line is not JSON.
 * @throws {TypeError | RangeError} When a field is missing or invalid, or a
 * final decision cannot be mapped; the message names file, line and field.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLossbenchLedger } from "./lossbench.ts";
 *
 * const event = {
 *   model_id: "m", task_id: "t1", calibrated_probability: 0.9, decision: "ALLOW",
 *   observed_outcome: { verdict: "EXCEPTION", exception_type: "DUPLICATE", severity: "LOW", error: false },
 * };
 * const line = JSON.stringify({ seq: 1, prev_hash: "GENESIS", chain_hash: "x", event });
 * const [d] = parseLossbenchLedger(line, { probability: "correct" }).decisions;
 * assert.equal(d.pCorrect, 0.9);
 * assert.ok(Math.abs(parseLossbenchLedger(line, { probability: "error" }).decisions[0].pCorrect! - 0.1) < 1e-12);
 * ```
 */
export function parseLossbenchLedger(
  text: string,
  options: LossbenchOptions,
): ImportResult {
  const reader = new LossbenchLedgerReader(options);
  const lines = stripBom(text).split("\n");
  for (let i = 0; i < lines.length; i++) reader.line(lines[i], i + 1);
  return reader.finish();
}

/** The lines of one LossBench ledger, read in order, one at a time. */
class LossbenchLedgerReader {
  readonly #options: LossbenchOptions;
  readonly #path: string;
  readonly #runId: string;
  readonly #decisions: Decision[] = [];
  readonly #trials = new Map<string, number>();
  readonly #keys: KnownKeys;
  #intermediate = 0;

  constructor(options: LossbenchOptions) {
    const path = options.path ?? "<inline>";
    if (options.probability !== "correct" && options.probability !== "error") {
      throw new InputTypeError(
        `Cannot load LossBench ledger ${path}: say what calibrated_probability means with probability "correct" or "error", got ${
          JSON.stringify(options.probability)
        }`,
      );
    }
    this.#options = options;
    this.#path = path;
    this.#runId = options.runId ?? path;
    this.#keys = new KnownKeys(`Cannot load LossBench ledger ${path}`, options);
  }

  /** Read line `lineNo` (1-based), its text without the newline. */
  line(line: string, lineNo: number): void {
    if (line.trim() === "") return;
    const options = this.#options;
    const keys = this.#keys;
    const at = `Cannot load LossBench ledger ${this.#path}: line ${lineNo}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      throw new InputSyntaxError(
        `${at}: invalid JSON: ${(error as Error).message}`,
        { cause: error },
      );
    }
    refuseDuplicateKeys(line, raw, () => at);
    keys.check(raw, LINE_KEYS, at, "");
    const ev = (raw as { event?: Record<string, unknown> } | null)?.event;
    keys.check(ev, EVENT_KEYS, at, "event");
    keys.check(
      ev?.observed_outcome,
      OUTCOME_KEYS,
      at,
      "event.observed_outcome",
    );
    const outer = lineSchema.safeParse(raw);
    if (!outer.success) {
      throw new InputTypeError(
        `${at}: ${describeIssue(outer.error.issues[0], raw)}`,
        {
          cause: outer.error,
        },
      );
    }
    const parsed = eventSchema.safeParse(outer.data.event);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const message = `${at}: ${
        describeIssue(issue, outer.data.event, "event")
      }`;
      throw issue.code === "invalid_type"
        ? new InputTypeError(message, { cause: parsed.error })
        : new InputRangeError(message, { cause: parsed.error });
    }
    const e = parsed.data;
    const outcome = e.observed_outcome ?? null;
    if (outcome === null || outcome.error === undefined) {
      this.#intermediate++;
      return;
    }
    const action = ACTION[e.decision];
    if (action === null) {
      throw new InputRangeError(
        `${at}: event.decision ${e.decision} on a final event cannot be scored as automatic or escalated`,
      );
    }
    const p = e.calibrated_probability ?? null;
    const predClass = outcome.exception_type ??
      (outcome.verdict === undefined || outcome.verdict === "MATCH"
        ? CLEAN_CLASS
        : outcome.verdict);
    const key = tupleKey([e.model_id, e.task_id]);
    const trial = this.#trials.get(key) ?? 0;
    this.#trials.set(key, trial + 1);
    const tokensIn = e.token_usage?.prompt_tokens;
    const tokensOut = e.token_usage?.completion_tokens;
    this.#decisions.push({
      runId: this.#runId,
      modelId: e.model_id,
      taskId: e.task_id,
      trial,
      severity: outcome.severity,
      trueClass: outcome.error ? UNRECORDED_GOLD : predClass,
      predClass,
      parseOk: true,
      pCorrect: p === null
        ? null
        : options.probability === "correct"
        ? p
        : 1 - p,
      action,
      cost: e.model_cost !== undefined && e.model_cost > 0
        ? { completeness: "complete", usd: e.model_cost }
        : { completeness: "unavailable", usd: null },
      outcome: outcome.error ? "model_failure" : "resolved",
      ...(tokensIn === undefined ? {} : { tokensIn }),
      ...(tokensOut === undefined ? {} : { tokensOut }),
      ...(e.latency_ms === undefined ? {} : { latencyMs: e.latency_ms }),
    });
    options.onFinalEvent?.(
      outer.data.event as Record<string, unknown>,
      lineNo,
    );
  }

  /** The decisions and notes, once every line is read. */
  finish(): ImportResult {
    this.#keys.finish();
    return {
      decisions: this.#decisions,
      notes: { intermediateSteps: this.#intermediate },
    };
  }
}

/**
 * Read a LossBench ledger export, streaming its bytes: no limit on the
 * file's size but the decisions themselves. Invalid UTF-8 is refused naming
 * the line.
 *
 * @param path Path of the `.jsonl` file.
 * @param options What the probability means (required) and the run id.
 * @returns As {@linkcode parseLossbenchLedger}.
 * @throws As {@linkcode parseLossbenchLedger}, and `Deno.errors.NotFound`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadLossbenchLedger } from "./lossbench.ts";
 *
 * const { decisions } = await loadLossbenchLedger("data/examples/lossbench_ledger.jsonl", {
 *   probability: "correct",
 * });
 * assert.ok(decisions.length > 0);
 * ```
 */
export async function loadLossbenchLedger(
  path: string,
  options: Omit<LossbenchOptions, "path">,
): Promise<ImportResult> {
  const where = `Cannot load LossBench ledger ${path}`;
  const reader = new LossbenchLedgerReader({ ...options, path });
  await regularFile(path, where);
  for await (const batch of jsonlLines(path, where)) {
    for (const { text, line } of batch) reader.line(text, line);
  }
  return reader.finish();
}
