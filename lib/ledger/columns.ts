/**
 * A ledger laid out in columns: one row per recorded answer, one per case
 * (a task and trial, answered by one or more models), and the review queue.
 * Replay, drift and the review workflow read these columns, never the JSON.
 *
 * Building them also checks what the hash chain cannot: decision ids are
 * unique; every case has at most one served answer and one severity; the
 * decisions name a cluster all or none, a task's decisions one cluster; a
 * review is opened only for an escalated served decision and resolved at
 * most once; an approval names the answer's own class and an amendment
 * another one.
 *
 * Labels belong to cases. A case's gold class is known when a decision
 * record carried it or a review approved or amended an answer; a rejection
 * says only that the rejected class is wrong. When several records speak
 * about one case, the latest one (highest seq) wins.
 *
 * @module
 */

import { SEVERITIES, type Severity } from "../costs/severity.ts";
import { CLEAN_CLASS } from "../decision/decision.ts";
import type { LedgerEntry, PolicyRecord, Resolution } from "./record.ts";
import { decisionKey } from "./_decision_id.ts";
import { InputRangeError } from "../input_error.ts";
import { ClusterCheck } from "../decision/cluster.ts";

/** One review: opened by an escalation, perhaps resolved. */
export interface ReviewState {
  /** The escalated decision. */
  readonly decisionId: string;
  /** Seq of the `review_opened` record. */
  readonly seq: number;
  /** Model whose answer is under review. */
  readonly modelId: string;
  /** Severity of the case. */
  readonly severity: Severity;
  /** When it was opened. */
  readonly openedAt: string;
  /** When it becomes overdue. */
  readonly dueAt: string;
  /** Hours allowed. */
  readonly slaHours: number;
  /** The resolution, or `null` while open. */
  readonly resolution: Resolution | null;
  /** When it was resolved, or `null`. */
  readonly resolvedAt: string | null;
  /** Seq of the resolution record, or `null`. */
  readonly resolvedSeq: number | null;
  /** Who resolved it, or `null`. */
  readonly reviewer: string | null;
  /** The gold class the review established, or `null`. */
  readonly trueClass: string | null;
}

/** A policy record with its place in the ledger. */
export interface PolicyEntry extends PolicyRecord {
  /** Seq of the record. */
  readonly seq: number;
}

/** A ledger in columns. Codes index `models` and `classes`; -1 means none. */
export interface LedgerColumns {
  /** Path named in messages. */
  readonly path: string;
  /** Records read. */
  readonly records: number;
  /** Model ids, by code. */
  readonly models: readonly string[];
  /** Class names, by code; code 0 is the clean class. */
  readonly classes: readonly string[];
  /** Severities, by code (the order of SEVERITIES). */
  readonly severities: readonly Severity[];
  /** Cases: distinct (taskId, trial). */
  readonly cases: number;
  /** Task id of each case. */
  readonly caseTask: readonly string[];
  /** Trial of each case. */
  readonly caseTrial: Int32Array;
  /** Severity code of each case. */
  readonly caseSeverity: Uint8Array;
  /** Gold class code of each case, -1 when unknown. */
  readonly caseGold: Int32Array;
  /** A class code known to be wrong (from a rejection), -1 when none. */
  readonly caseNot: Int32Array;
  /** Where the label came from: 0 none, 1 a decision record, 2 a review. */
  readonly caseLabelSource: Uint8Array;
  /** Answer index of the served answer, -1 when no answer was served. */
  readonly caseServed: Int32Array;
  /**
   * The cluster of each case (its decisions' `cluster`), or `null` for
   * every case when the ledger's decisions name none.
   */
  readonly caseCluster: readonly (string | null)[];
  /** Answers: decision records. */
  readonly answers: number;
  /** Case of each answer. */
  readonly answerCase: Int32Array;
  /** Model code of each answer. */
  readonly answerModel: Int32Array;
  /** Predicted class code of each answer. */
  readonly answerPred: Int32Array;
  /** Recorded risk, NaN when null. */
  readonly answerRisk: Float64Array;
  /** Recorded expected loss, NaN when null. */
  readonly answerExpectedLoss: Float64Array;
  /**
   * Ids of the cost matrices that priced the recorded expected losses, in
   * order of first appearance; a record with an expected loss and no matrix
   * id (written before records named their matrix) counts as `"strict"`.
   */
  readonly expectedLossMatrices: readonly string[];
  /** Decision records with an expected loss but no matrix id, read as `"strict"` (risk × K(severity)). */
  readonly expectedLossAssumedStrict: number;
  /** Recorded action: 0 auto, 1 escalate. */
  readonly answerAction: Uint8Array;
  /** 1 when served, 0 for a shadow answer. */
  readonly answerServed: Uint8Array;
  /** Decision time, ms since the epoch. */
  readonly answerAt: Float64Array;
  /** Seq of the decision record. */
  readonly answerSeq: Float64Array;
  /** Model cost in USD when complete, NaN otherwise. */
  readonly answerUsd: Float64Array;
  /** Decision id of each answer. */
  readonly answerId: readonly string[];
  /** Policy revision each answer was decided under, `null` when unknown. */
  readonly answerPolicy: readonly (string | null)[];
  /** Reviews, in the order they were opened. */
  readonly reviews: readonly ReviewState[];
  /** Policy revisions, in ledger order. */
  readonly policies: readonly PolicyEntry[];
}

/** Options for {@linkcode ledgerColumns}. */
export interface LedgerColumnsOptions {
  /** Path shown in errors. Default: `"<inline>"`. */
  path?: string;
  /** Class of clean items. Default: `"MATCH"`. */
  cleanClass?: string;
}

/**
 * Lay ledger entries out in columns, checking the references between them.
 *
 * @param entries Entries in ledger order (from `ledgerEntries` or `ledgerText`).
 * @param options Path and clean class.
 * @returns The columns. Cost is O(records).
 * @throws {RangeError} When a reference is broken; the message names the
 * file, the record's seq and the problem.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ledgerColumns } from "./columns.ts";
 * import { ledgerText } from "./chain.ts";
 *
 * const d = { kind: "decision", id: "d1", at: "2026-03-01T09:00:00Z", risk: 0.4, expectedLoss: 4,
 *   profile: "reconciliation@1", policyRevision: null, modelRevision: null, promptHash: null,
 *   served: true, decision: { runId: "r", modelId: "m", taskId: "t1", trial: 0, severity: "HIGH",
 *   trueClass: null, predClass: "MATCH", parseOk: true, pCorrect: 0.6, action: "escalate",
 *   cost: { completeness: "unavailable", usd: null }, outcome: "resolved" } } as const;
 * const open = { kind: "review_opened", at: d.at, decisionId: "d1", slaHours: 24,
 *   dueAt: "2026-03-02T09:00:00Z" } as const;
 * const fix = { kind: "review_resolved", at: "2026-03-01T12:00:00Z", decisionId: "d1",
 *   resolution: "amend", trueClass: "AMOUNT_MISMATCH", reviewer: "ana" } as const;
 * const cols = ledgerColumns(ledgerText([d, open, fix]).entries);
 * assert.equal(cols.classes[cols.caseGold[0]], "AMOUNT_MISMATCH");
 * assert.equal(cols.reviews[0].resolution, "amend");
 * assert.throws(() => ledgerColumns(ledgerText([d, fix]).entries),
 *   /record 2: review_resolved for decision "d1", which has no open review/);
 * ```
 */
export function ledgerColumns(
  entries: Iterable<LedgerEntry>,
  options: LedgerColumnsOptions = {},
): LedgerColumns {
  const builder = ledgerColumnsBuilder(options);
  for (const entry of entries) builder.add(entry);
  return builder.finish();
}

/** Columns built one entry at a time: see {@linkcode ledgerColumnsBuilder}. */
export interface LedgerColumnsBuilder {
  /**
   * Take the next entry, in ledger order.
   *
   * @throws {RangeError} As {@linkcode ledgerColumns}, at the entry that breaks a reference.
   */
  add(entry: LedgerEntry): void;
  /** The columns of the entries taken so far. */
  finish(): LedgerColumns;
}

/**
 * Lay ledger entries out in columns as they arrive, with the checks and
 * messages of {@linkcode ledgerColumns}: for entries streamed from a file
 * (`ledgerEntriesFile`), which a synchronous iterable cannot carry. A builder
 * that threw is spent: later calls throw.
 *
 * @param options Path for messages, the clean class.
 * @returns A builder; memory O(columns), never the entries themselves.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ledgerText } from "./chain.ts";
 * import { ledgerColumnsBuilder } from "./columns.ts";
 *
 * const open = { kind: "review_opened", at: "2026-03-01T09:00:00Z", decisionId: "d1",
 *   slaHours: 24, dueAt: "2026-03-02T09:00:00Z" } as const;
 * const b = ledgerColumnsBuilder({ path: "l.jsonl" });
 * assert.throws(() => b.add(ledgerText([open]).entries[0]), /l\.jsonl: record 1/);
 * assert.throws(() => b.finish(), /spent/);
 * ```
 */
export function ledgerColumnsBuilder(
  options: LedgerColumnsOptions = {},
): LedgerColumnsBuilder {
  const core = columnsCore(options);
  core.next();
  let spent = false;
  const step = (entry: LedgerEntry | undefined) => {
    if (spent) {
      throw new Error(
        "ledgerColumnsBuilder: spent by an earlier error or finish()",
      );
    }
    spent = true;
    const r = core.next(entry);
    spent = r.done === true;
    return r;
  };
  return {
    add(entry) {
      step(entry);
    },
    finish() {
      return step(undefined).value as LedgerColumns;
    },
  };
}

// The column layout as a generator: each entry is sent in with next(entry),
// next(undefined) ends the input and returns the columns.
function* columnsCore(
  options: LedgerColumnsOptions,
): Generator<void, LedgerColumns, LedgerEntry | undefined> {
  const path = options.path ?? "<inline>";
  const clean = options.cleanClass ?? CLEAN_CLASS;
  const models: string[] = [];
  const modelCode = new Map<string, number>();
  const classes: string[] = [clean];
  const classCode = new Map<string, number>([[clean, 0]]);
  const code = (map: Map<string, number>, list: string[], v: string) => {
    let c = map.get(v);
    if (c === undefined) {
      c = list.length;
      list.push(v);
      map.set(v, c);
    }
    return c;
  };
  const sevCode = new Map<Severity, number>(SEVERITIES.map((s, i) => [s, i]));

  const caseIndex = new Map<string, number>();
  const caseTask: string[] = [];
  const caseTrial: number[] = [];
  const caseSeverity: number[] = [];
  const caseGold: number[] = [];
  const caseNot: number[] = [];
  const caseLabelSource: number[] = [];
  const caseServed: number[] = [];
  const caseCluster: (string | null)[] = [];
  // a ledger's decisions name a cluster all or none, a task's one cluster
  const clusters = new ClusterCheck(`Cannot read ledger ${path}`, "record");

  const answerIndex = new Map<string, number>();
  const answerKey = new Map<string, number>();
  const answerCase: number[] = [];
  const answerModel: number[] = [];
  const answerPred: number[] = [];
  const answerRisk: number[] = [];
  const answerExpectedLoss: number[] = [];
  const expectedLossMatrices: string[] = [];
  let expectedLossAssumedStrict = 0;
  const answerAction: number[] = [];
  const answerServed: number[] = [];
  const answerAt: number[] = [];
  const answerSeq: number[] = [];
  const answerUsd: number[] = [];
  const answerId: string[] = [];
  const answerPolicy: (string | null)[] = [];

  const reviewIndex = new Map<string, number>();
  const reviews: ReviewState[] = [];
  const policies: PolicyEntry[] = [];
  let records = 0;

  for (
    let entry: LedgerEntry | undefined = yield;
    entry !== undefined;
    entry = yield
  ) {
    records++;
    const r = entry.record;
    const at = `Cannot read ledger ${path}: record ${entry.seq}`;
    if (r.kind === "decision") {
      if (answerIndex.has(r.id)) {
        throw new InputRangeError(
          `${at}: decision id ${
            JSON.stringify(r.id)
          } is used twice (first at record ${
            answerSeq[answerIndex.get(r.id)!]
          })`,
        );
      }
      const d = r.decision;
      const k = decisionKey(d);
      const twin = answerKey.get(k);
      if (twin !== undefined) {
        throw new InputRangeError(
          `${at}: decision of run ${JSON.stringify(d.runId)}, model ${
            JSON.stringify(d.modelId)
          }, task ${
            JSON.stringify(d.taskId)
          }, trial ${d.trial} is recorded twice (first at record ${twin}, id ${
            JSON.stringify(r.id)
          })`,
        );
      }
      answerKey.set(k, entry.seq);
      // refused at the record that breaks a rule, as every reference is
      clusters.add(d.taskId, d.cluster, entry.seq);
      clusters.finish();
      const key = `${d.taskId}\u0000${d.trial}`;
      let c = caseIndex.get(key);
      const sev = sevCode.get(d.severity)!;
      if (c === undefined) {
        c = caseTask.length;
        caseIndex.set(key, c);
        caseTask.push(d.taskId);
        caseTrial.push(d.trial);
        caseSeverity.push(sev);
        caseGold.push(-1);
        caseNot.push(-1);
        caseLabelSource.push(0);
        caseServed.push(-1);
        caseCluster.push(d.cluster ?? null);
      } else if (caseSeverity[c] !== sev) {
        throw new InputRangeError(
          `${at}: task ${
            JSON.stringify(d.taskId)
          } trial ${d.trial} is ${d.severity} here but ${
            SEVERITIES[caseSeverity[c]]
          } in an earlier record; a case has one severity`,
        );
      }
      const j = answerId.length;
      if (r.served) {
        if (caseServed[c] >= 0) {
          throw new InputRangeError(
            `${at}: task ${
              JSON.stringify(d.taskId)
            } trial ${d.trial} already has a served answer (record ${
              answerSeq[caseServed[c]]
            }); record other models' answers with served: false`,
          );
        }
        caseServed[c] = j;
      }
      if (d.trueClass !== null) {
        caseGold[c] = code(classCode, classes, d.trueClass);
        caseNot[c] = -1;
        caseLabelSource[c] = 1;
      }
      answerIndex.set(r.id, j);
      answerCase.push(c);
      answerModel.push(code(modelCode, models, d.modelId));
      answerPred.push(code(classCode, classes, d.predClass));
      answerRisk.push(r.risk === null ? NaN : r.risk);
      answerExpectedLoss.push(r.expectedLoss === null ? NaN : r.expectedLoss);
      if (r.expectedLoss !== null) {
        const m = r.matrix ?? "strict";
        if (r.matrix === undefined || r.matrix === null) {
          expectedLossAssumedStrict++;
        }
        if (!expectedLossMatrices.includes(m)) expectedLossMatrices.push(m);
      }
      answerAction.push(d.action === "escalate" ? 1 : 0);
      answerServed.push(r.served ? 1 : 0);
      answerAt.push(Date.parse(r.at));
      answerSeq.push(entry.seq);
      answerUsd.push(d.cost.completeness === "complete" ? d.cost.usd! : NaN);
      answerId.push(r.id);
      answerPolicy.push(r.policyRevision);
    } else if (r.kind === "review_opened") {
      const j = answerIndex.get(r.decisionId);
      if (j === undefined) {
        throw new InputRangeError(
          `${at}: review_opened for decision ${
            JSON.stringify(r.decisionId)
          }, which is not recorded before it`,
        );
      }
      if (answerAction[j] !== 1 || answerServed[j] !== 1) {
        throw new InputRangeError(
          `${at}: review_opened for decision ${
            JSON.stringify(r.decisionId)
          }, which was not an escalated served decision`,
        );
      }
      if (reviewIndex.has(r.decisionId)) {
        throw new InputRangeError(
          `${at}: a review of decision ${
            JSON.stringify(r.decisionId)
          } is already open (record ${
            reviews[reviewIndex.get(r.decisionId)!].seq
          })`,
        );
      }
      reviewIndex.set(r.decisionId, reviews.length);
      reviews.push({
        decisionId: r.decisionId,
        seq: entry.seq,
        modelId: models[answerModel[j]],
        severity: SEVERITIES[caseSeverity[answerCase[j]]],
        openedAt: r.at,
        dueAt: r.dueAt,
        slaHours: r.slaHours,
        resolution: null,
        resolvedAt: null,
        resolvedSeq: null,
        reviewer: null,
        trueClass: null,
      });
    } else if (r.kind === "review_resolved") {
      const i = reviewIndex.get(r.decisionId);
      if (i === undefined || reviews[i].resolution !== null) {
        throw new InputRangeError(
          `${at}: review_resolved for decision ${
            JSON.stringify(r.decisionId)
          }, which has no open review${
            i === undefined
              ? ""
              : ` (resolved at record ${reviews[i].resolvedSeq})`
          }`,
        );
      }
      const j = answerIndex.get(r.decisionId)!;
      const pred = classes[answerPred[j]];
      if (r.resolution === "approve" && r.trueClass !== pred) {
        throw new InputRangeError(
          `${at}: an approval must name the answer's class ${
            JSON.stringify(pred)
          }, got ${JSON.stringify(r.trueClass)}; use amend for another class`,
        );
      }
      if (r.resolution === "amend" && r.trueClass === pred) {
        throw new InputRangeError(
          `${at}: an amendment must name a class other than the answer's ${
            JSON.stringify(pred)
          }; use approve`,
        );
      }
      reviews[i] = {
        ...reviews[i],
        resolution: r.resolution,
        resolvedAt: r.at,
        resolvedSeq: entry.seq,
        reviewer: r.reviewer,
        trueClass: r.trueClass,
      };
      const c = answerCase[j];
      if (r.trueClass !== null) {
        caseGold[c] = code(classCode, classes, r.trueClass);
        caseNot[c] = -1;
      } else {
        if (caseGold[c] === answerPred[j]) caseGold[c] = -1;
        caseNot[c] = answerPred[j];
      }
      caseLabelSource[c] = 2;
    } else {
      policies.push({ ...r, seq: entry.seq });
    }
  }
  return {
    path,
    records,
    models,
    classes,
    severities: SEVERITIES,
    cases: caseTask.length,
    caseTask,
    caseTrial: Int32Array.from(caseTrial),
    caseSeverity: Uint8Array.from(caseSeverity),
    caseGold: Int32Array.from(caseGold),
    caseNot: Int32Array.from(caseNot),
    caseLabelSource: Uint8Array.from(caseLabelSource),
    caseServed: Int32Array.from(caseServed),
    caseCluster,
    answers: answerId.length,
    answerCase: Int32Array.from(answerCase),
    answerModel: Int32Array.from(answerModel),
    answerPred: Int32Array.from(answerPred),
    answerRisk: Float64Array.from(answerRisk),
    answerExpectedLoss: Float64Array.from(answerExpectedLoss),
    expectedLossMatrices,
    expectedLossAssumedStrict,
    answerAction: Uint8Array.from(answerAction),
    answerServed: Uint8Array.from(answerServed),
    answerAt: Float64Array.from(answerAt),
    answerSeq: Float64Array.from(answerSeq),
    answerUsd: Float64Array.from(answerUsd),
    answerId,
    answerPolicy,
    reviews,
    policies,
  };
}
