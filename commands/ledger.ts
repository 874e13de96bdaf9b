// `lossbook ledger`: append decisions to a hash-chained ledger, verify it
// (lossbook or LossBench), repair a torn last line, list overdue reviews.
import { getProfile } from "../lib/costs/load.ts";
import type { CostProfile } from "../lib/costs/profile.ts";
import {
  type LedgerColumns,
  ledgerColumnsBuilder,
} from "../lib/ledger/columns.ts";
import { decisionRecord } from "../lib/ledger/decision_record.ts";
import { verifyLossbenchLedgerFile } from "../lib/ledger/lossbench_chain.ts";
import { ledgerEntriesFile } from "../lib/ledger/read.ts";
import {
  type DecisionRecord,
  isTimestamp,
  type LedgerEntry,
  type LedgerRecord,
} from "../lib/ledger/record.ts";
import { repairTornTail } from "../lib/ledger/repair.ts";
import {
  openReview,
  overdueReviews,
  reviewSummary,
} from "../lib/ledger/review.ts";
import {
  type LedgerVerification,
  readHeadFile,
  verifyLedgerFile,
} from "../lib/ledger/verify.ts";
import {
  LedgerDamagedError,
  type LedgerWriter,
  openLedger,
} from "../lib/ledger/writer.ts";
import { canonicalJson } from "../lib/ledger/_canonical_json.ts";
import { unacknowledgedNotice } from "../lib/ledger/_set_aside.ts";
import {
  decisionKey as ledgerDecisionKey,
  legacyDecisionId,
} from "../lib/ledger/_decision_id.ts";
import type { Decision } from "../lib/decision/decision.ts";
import { loadLossbenchLedger } from "../lib/import/lossbench.ts";
import { readDecisionsJsonl } from "../lib/read/load_decisions.ts";
import { decisionKey } from "../lib/read/arrow.ts";
import { HARNESS_FORMATS } from "../lib/import/harness.ts";
import {
  importHarness,
  isHarness,
  MAPPING_FLAGS,
  refuseClusterFill,
  refuseMappingFlags,
} from "./_harness_input.ts";
import { resolveFormats } from "./_input.ts";
import { matrixFlag } from "./_matrix.ts";
import {
  alignRows,
  type Command,
  parseFlags,
  refuseInputAsOutput,
  UsageError,
} from "./_command.ts";
import { resolveProfiles } from "../api/score.ts";
import { noteUserStrings } from "./_terminal.ts";
import { InputRangeError } from "../lib/input_error.ts";
import { commandHelp } from "./_help.ts";
import {
  formatOption,
  JSON_OPTION,
  LENIENT_OPTION,
  MATRIX_MODE_OPTION,
  PROBABILITY_OPTION,
  profileOption,
} from "./_options.ts";

/** One profile from `--profile` (a shipped id or a file), or the default. */
export async function oneProfile(
  spec: string | undefined,
  fallback = "reconciliation",
): Promise<CostProfile> {
  if (spec === undefined) return getProfile(fallback);
  return (await resolveProfiles([spec]))[0];
}

/** A ledger read for replay or drift: verified first, then in columns. */
export interface VerifiedLedger {
  readonly verification: LedgerVerification;
  readonly columns: LedgerColumns | null;
  /** Whether a head file anchored the verification. */
  readonly anchored: boolean;
}

/** The warning printed for a ledger without a head file. */
export function unanchoredWarning(path: string): string {
  return `warning: ${path} has no head file, so the ledger is unanchored: its chain is checked, but a truncation at a line boundary cannot be detected`;
}

/**
 * Read a ledger, verify it against its head file, and lay it out in columns
 * when it is valid. An invalid ledger is returned with `columns: null`: the
 * caller reports it and exits 1.
 */
export async function readVerifiedLedger(
  path: string,
): Promise<VerifiedLedger> {
  // Both passes stream the file (a chunk at a time), so a ledger's size is
  // limited by the disk, not by memory.
  const size = (await Deno.stat(path)).size;
  // Large ledgers take seconds to verify and load: say so on stderr.
  const large = size >= 50 * 1024 * 1024;
  const started = performance.now();
  const step = (what: string) => {
    if (large) {
      console.error(
        `${path} (${(size / 1e6).toFixed(0)} MB): ${what} (${
          ((performance.now() - started) / 1000).toFixed(1)
        } s)`,
      );
    }
  };
  step("verifying the hash chain");
  const anchor = await readHeadFile(path);
  const verification = await verifyLedgerFile(path, { anchor });
  const anchored = anchor !== null;
  if (!verification.valid) return { verification, columns: null, anchored };
  if (!anchored) console.error(unanchoredWarning(path));
  if (verification.unacknowledged !== null) {
    console.error(unacknowledgedNotice(path, verification, null));
  }
  step(`verified ${verification.records} records; loading decisions`);
  const builder = ledgerColumnsBuilder({ path });
  const endAt = verification.goodBytes;
  for await (const e of ledgerEntriesFile(path, { endAt })) builder.add(e);
  const columns = builder.finish();
  noteUserStrings(columns.models);
  step("loaded");
  if (columns.expectedLossAssumedStrict > 0) {
    console.error(
      `${path}: ${columns.expectedLossAssumedStrict} decision record${
        columns.expectedLossAssumedStrict === 1 ? " carries" : "s carry"
      } an expected loss without a matrix id; read as strict (risk × K(severity))`,
    );
  }
  return { verification, columns, anchored };
}

/**
 * How long a writer waits for another's lock: `LOSSBOOK_LOCK_WAIT_MS`, or
 * the library's default (10 s).
 */
function lockWaitMs(): number | undefined {
  let raw: string | undefined;
  try {
    raw = Deno.env.get("LOSSBOOK_LOCK_WAIT_MS");
  } catch {
    return undefined; // no --allow-env
  }
  if (raw === undefined) return undefined;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0 || ms > 3_600_000) {
    throw new UsageError(
      `LOSSBOOK_LOCK_WAIT_MS must be a whole number of milliseconds from 0 to 3,600,000, got ${
        JSON.stringify(raw)
      }`,
    );
  }
  return ms;
}

/**
 * The five keys of `ledger verify --json`, whether a head anchored it, and
 * the unacknowledged tail past the head (or null).
 */
function verifyJson(v: LedgerVerification, anchored: boolean): string {
  return JSON.stringify(
    {
      valid: v.valid,
      records: v.records,
      head: v.head,
      firstBadSeq: v.firstBadSeq,
      reason: v.reason,
      anchored,
      unacknowledged: v.unacknowledged,
    },
    null,
    2,
  );
}

/** What a LossBench event says about its decision beyond the Decision fields. */
interface EventMeta {
  readonly at: string | undefined;
  readonly id: string | undefined;
  readonly policyRevision: string | null;
  readonly modelRevision: string | null;
  readonly promptHash: string | null;
}

/**
 * The time, event id and revisions of one final LossBench event (line
 * `line` of `path`), for the decision parseLossbenchLedger made of it.
 * Empty strings, which LossBench writes for unknown revisions, become null.
 */
function lossbenchMeta(
  e: Record<string, unknown>,
  line: number,
  path: string,
): EventMeta {
  const str = (v: unknown) => typeof v === "string" && v !== "" ? v : null;
  const at = str(e.timestamp) ?? undefined;
  if (at !== undefined && !isTimestamp(at)) {
    throw new InputRangeError(
      `Cannot import LossBench ledger ${path}: line ${line}: event.timestamp must be an ISO 8601 UTC timestamp, got ${
        JSON.stringify(at)
      }`,
    );
  }
  return {
    at,
    id: str(e.event_id) ?? undefined,
    policyRevision: str(e.policy_revision) ?? str(e.policy_id),
    modelRevision: str(e.model_revision),
    promptHash: str(e.prompt_hash),
  };
}

/** The options of `ledger append`, as `--help` lists them and `parseFlags` reads them. */
const APPEND_OPTIONS = {
  format: {
    ...formatOption("decisions|lossbench|inspect|lm-eval|helm|promptfoo"),
    doc: "format of the sources",
  },
  ...MAPPING_FLAGS,
  probability: PROBABILITY_OPTION,
  at: {
    type: "string",
    value: "ISO",
    doc: "UTC time (ISO 8601) recorded on decisions whose source gives none",
    byDefault: "now",
  },
  profile: {
    ...profileOption(),
    doc:
      "cost profile that prices each recorded decision's expected loss: a shipped id (see 'lossbook profiles') or a profile file",
  },
  mode: MATRIX_MODE_OPTION,
  served: {
    type: "string",
    value: "MODEL",
    doc:
      "the model whose answers were acted on, when the sources hold several models' answers to one task; the others are recorded as shadow answers (for replay --route); required then",
  },
  gold: {
    type: "string",
    value: "known|unknown",
    doc:
      "whether the gold class is known when recording (an evaluation run) or arrives later through a review (production); with unknown, outcomes wait for their review",
    byDefault: "known",
  },
  "policy-revision": {
    type: "string",
    value: "R",
    doc: "revision of the escalation policy, recorded on every decision",
    byDefault: "the source's own, else none",
  },
  "model-revision": {
    type: "string",
    value: "R",
    doc: "revision of the model, recorded on every decision",
    byDefault: "the source's own, else none",
  },
  "prompt-hash": {
    type: "string",
    value: "H",
    doc: "hash of the prompt, recorded on every decision",
    byDefault: "the source's own, else none",
  },
  "sla-hours": {
    type: "string",
    value: "N",
    doc:
      "hours within which a review opened for an escalated decision is due ('ledger reviews' lists the overdue ones), >= 0",
    byDefault: "24",
  },
  adopt: {
    type: "boolean",
    doc:
      "anchor an existing ledger that has records but no head file, as it stands, and record the adoption; without it such a ledger is refused",
  },
  lenient: LENIENT_OPTION,
  json: JSON_OPTION,
} as const;

/** The options of `ledger verify`. */
const VERIFY_OPTIONS = {
  format: {
    type: "string",
    value: "lossbook|lossbench",
    doc: "whose hash chain to verify: a lossbook ledger or a LossBench one",
    byDefault: "lossbook",
  },
  "no-head": {
    type: "boolean",
    doc:
      "verify the chain without its head file (and without the warning that it is unanchored); a truncation at a line boundary then goes unseen",
  },
  json: JSON_OPTION,
} as const;

/** The options of `ledger repair`. */
const REPAIR_OPTIONS = { json: JSON_OPTION } as const;

/** The options of `ledger reviews`. */
const REVIEWS_OPTIONS = {
  now: {
    type: "string",
    value: "ISO",
    doc: "UTC time (ISO 8601) at which reviews are due or overdue",
    byDefault: "now",
  },
  json: JSON_OPTION,
} as const;

async function append(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    "ledger append",
    args,
    APPEND_OPTIONS,
  );
  if (positionals.length < 2) {
    throw new UsageError(
      `ledger append takes <ledger.jsonl> <decisions.jsonl>..., got ${positionals.length} arguments`,
    );
  }
  const [ledger, source, ...more] = positionals;
  const sources = [source, ...more];
  await refuseInputAsOutput(
    { flag: "ledger", path: ledger },
    sources.map((path) => ({ flag: "source", path })),
  );
  const at = values.at ?? new Date().toISOString();
  if (!isTimestamp(at)) {
    throw new UsageError(
      `--at must be an ISO 8601 UTC timestamp like 2026-03-01T09:00:00Z, got ${
        JSON.stringify(at)
      }`,
    );
  }
  const gold = values.gold ?? "known";
  if (gold !== "known" && gold !== "unknown") {
    throw new UsageError(
      `--gold must be known or unknown, got ${JSON.stringify(gold)}`,
    );
  }
  const sla = values["sla-hours"] === undefined
    ? 24
    : Number(values["sla-hours"]);
  if (!(sla >= 0) || !Number.isFinite(sla)) {
    throw new UsageError(
      `--sla-hours must be a number >= 0, got ${values["sla-hours"]}`,
    );
  }
  const format = values.format ?? await resolveFormats(sources, undefined);
  if (
    format !== "decisions" && format !== "lossbench" && !isHarness(format)
  ) {
    throw new UsageError(
      `--format must be decisions, lossbench or a harness format (${
        HARNESS_FORMATS.join(", ")
      }), got ${JSON.stringify(format)}`,
    );
  }
  if (!isHarness(format)) {
    refuseMappingFlags(values, format);
    refuseClusterFill(values, format);
  }
  if (!isHarness(format) && values["pcorrect-from"] !== undefined) {
    throw new UsageError(
      `--pcorrect-from applies to imported logs, not to --format ${format}`,
    );
  }
  if (format === "lossbench" && sources.length > 1) {
    throw new UsageError(
      "ledger append reads one LossBench ledger at a time (its chain is verified as a whole)",
    );
  }
  if (format !== "lossbench" && values.probability !== undefined) {
    throw new UsageError("--probability applies to --format lossbench only");
  }
  const profile = await oneProfile(values.profile);
  const matrix = matrixFlag(values.mode);
  let decisions: Decision[];
  // per decision: its own time, id and revisions, when the source has them
  let meta: (EventMeta | null)[];
  // per decision: where in the batch's input it was read, for messages
  let origins: string[];
  if (format === "lossbench") {
    const p = values.probability;
    if (p !== "correct" && p !== "error") {
      throw new UsageError(
        `LossBench ledgers store P(correct) in calibrated_probability while LossBench's policy code reads it as P(error); say which with --probability correct|error (got ${
          p === undefined ? "nothing" : JSON.stringify(p)
        })`,
      );
    }
    const chain = await verifyLossbenchLedgerFile(source);
    if (!chain.valid) {
      console.error(
        `lossbook ledger append: ${chain.reason}; a LossBench export whose chain does not verify is not imported`,
      );
      return 1;
    }
    const events: EventMeta[] = [];
    const lines: number[] = [];
    decisions = (await loadLossbenchLedger(source, {
      probability: p,
      lenient: values.lenient ?? false,
      onUnknownKeys: (line) => console.error(`warning: ${line}`),
      onFinalEvent: (e, line) => {
        events.push(lossbenchMeta(e, line, source));
        lines.push(line);
      },
    })).decisions;
    meta = events;
    origins = lines.map((line) => `${source}: line ${line}`);
  } else if (isHarness(format)) {
    decisions = (await importHarness(sources, format, values)).decisions;
    meta = decisions.map(() => null);
    origins = decisions.map((d) =>
      `${sources.join(", ")}: task ${
        JSON.stringify(d.taskId)
      }, trial ${d.trial}`
    );
  } else {
    decisions = [];
    origins = [];
    const first = new Map<string, string>();
    for (const path of sources) {
      const onDecision = (line: number) =>
        origins.push(`${path}: line ${line}`);
      for (const d of await readDecisionsJsonl(path, { onDecision })) {
        const key = decisionKey(d);
        const seen = first.get(key);
        if (seen !== undefined) {
          throw new InputRangeError(
            `Cannot combine ${path}: its decision for runId ${
              JSON.stringify(d.runId)
            }, modelId ${JSON.stringify(d.modelId)}, taskId ${
              JSON.stringify(d.taskId)
            }, trial ${d.trial} repeats one in ${seen}`,
          );
        }
        first.set(key, path);
        decisions.push(d);
      }
    }
    meta = decisions.map(() => null);
  }
  if (decisions.length === 0) {
    throw new InputRangeError(`no decisions in ${source}`);
  }
  // several models on one task: one answer is served, the others are shadows
  const modelsPerCase = new Map<string, Set<string>>();
  for (const d of decisions) {
    const key = `${d.taskId}\u0000${d.trial}`;
    const set = modelsPerCase.get(key) ?? new Set();
    set.add(d.modelId);
    modelsPerCase.set(key, set);
  }
  const shared = [...modelsPerCase.values()].some((s) => s.size > 1);
  const served = values.served;
  if (shared && served === undefined) {
    throw new UsageError(
      `${
        sources.join(", ")
      } has answers of several models for the same task; say which model's answers were acted on with --served MODEL (the others are recorded as shadow answers)`,
    );
  }
  if (served !== undefined && !decisions.some((d) => d.modelId === served)) {
    throw new UsageError(
      `--served ${served}: no decision of that model in ${sources.join(", ")}`,
    );
  }
  // Take the lock before reading what decides what to write: a second
  // writer of the same batch waits, then finds it already there.
  let writer: LedgerWriter;
  try {
    writer = await openLedger(ledger, {
      adoptAt: values.adopt ? new Date().toISOString() : null,
      lockWaitMs: lockWaitMs(),
    });
  } catch (error) {
    if (!(error instanceof LedgerDamagedError)) throw error;
    const v = error.verification;
    console.error(
      `lossbook ledger append: ${v.reason}; nothing was appended${
        v.problem === "torn" ? " (run 'lossbook ledger repair' first)" : ""
      }`,
    );
    return 1;
  }
  await using _writer = writer;
  for (const n of writer.notices) console.error(`lossbook ledger append: ${n}`);
  if (
    writer.head.adopted !== undefined && writer.head.adopted.seq > 0 &&
    values.adopt
  ) {
    console.error(
      `lossbook ledger append: adopted ${ledger} as it stands (${writer.head.adopted.seq} records, head ${writer.head.adopted.hash}); the adoption is recorded in its head file`,
    );
  }
  // The batch is identified by its decisions' keys and content; its time
  // only when it was given (--at, or the source's own timestamps).
  // The ledger is streamed once: recorded decisions are kept only when the
  // batch has their key, and its references are checked on the way (the
  // first refusal is raised below, where the batch's records are checked).
  const batchKeys = new Set(decisions.map((d) => ledgerDecisionKey(d)));
  const byKey = new Map<string, LedgerEntry>();
  const reviewed = new Set<string>();
  const check = ledgerColumnsBuilder({ path: ledger });
  let refusal: { error: unknown } | null = null;
  let existing = 0;
  if (writer.head.seq > 0) {
    const read = ledgerEntriesFile(writer.realPath, { shownAs: ledger });
    for await (const e of read) {
      existing++;
      if (refusal === null) {
        try {
          check.add(e);
        } catch (error) {
          refusal = { error };
        }
      }
      if (e.record.kind === "decision") {
        const key = ledgerDecisionKey(e.record.decision);
        if (batchKeys.has(key)) byKey.set(key, e);
      } else if (e.record.kind === "review_opened") {
        reviewed.add(e.record.decisionId);
      }
    }
  }
  const records: LedgerRecord[] = [];
  // where each record to append comes from: its decision's place in the input
  const recordOrigins: string[] = [];
  let opened = 0;
  let present = 0;
  for (const [i, d] of decisions.entries()) {
    const m = meta[i];
    const r = decisionRecord(d, {
      at: m?.at ?? at,
      ...(m?.id ? { id: m.id } : {}),
      profile,
      matrix,
      served: served === undefined || d.modelId === served,
      goldKnown: gold === "known",
      policyRevision: values["policy-revision"] ?? m?.policyRevision ?? null,
      modelRevision: values["model-revision"] ?? m?.modelRevision ?? null,
      promptHash: values["prompt-hash"] ?? m?.promptHash ?? null,
    });
    const twin = byKey.get(ledgerDecisionKey(d));
    let rec: DecisionRecord = r;
    if (twin !== undefined) {
      const old = twin.record as DecisionRecord;
      const timed = values.at !== undefined || m?.at !== undefined;
      const differs = recordDifference(old, r, {
        timed,
        legacyId: m?.id === undefined,
      });
      if (differs !== null) {
        throw new InputRangeError(
          `Cannot append ${source} to ledger ${ledger}: decision of run ${
            JSON.stringify(d.runId)
          }, model ${JSON.stringify(d.modelId)}, task ${
            JSON.stringify(d.taskId)
          }, trial ${d.trial} is already recorded at record ${twin.seq} with a different ${differs}; nothing was appended`,
        );
      }
      present++;
      rec = old;
    } else {
      records.push(r);
      recordOrigins.push(origins[i]);
    }
    if (rec.served && rec.decision.action === "escalate") {
      if (twin !== undefined && reviewed.has(rec.id)) {
        present++;
      } else {
        records.push(openReview(rec, { slaHours: sla }));
        recordOrigins.push(`${origins[i]} (the review it opens)`);
        opened++;
      }
    }
  }
  // refuse what would break the ledger's references (a decision recorded
  // twice, two served answers to one task) before anything is written
  if (refusal !== null) throw refusal.error;
  for (const [i, record] of records.entries()) {
    const seq = existing + i + 1;
    try {
      check.add({ seq, prev: "", hash: "", record });
    } catch (error) {
      throw batchRefusal(error, `Cannot read ledger ${ledger}: record ${seq}`, {
        origin: recordOrigins[i],
        ledger,
      });
    }
  }
  check.finish();
  const result = await writer.append(records);
  const summary = {
    ledger,
    appended: records.length,
    decisions: decisions.length,
    reviewsOpened: opened,
    first: result.first,
    last: result.last,
    head: result.head.hash,
    matrix: matrix.id,
    alreadyPresent: present,
  };
  if (values.json) console.log(JSON.stringify(summary, null, 2));
  else if (records.length === 0) {
    console.log(
      `nothing appended: all ${present} records of this batch (${decisions.length} decisions) are already in ${ledger}, head ${result.head.hash}`,
    );
  } else {
    console.log(
      `appended ${records.length} records to ${ledger} (${decisions.length} decisions, ${opened} reviews opened; expected loss under ${profile.id}, ${matrix.id} matrix): seq ${result.first}..${result.last}, head ${result.head.hash}${
        present === 0
          ? ""
          : `; ${present} records of this batch were already in the ledger`
      }`,
    );
  }
  return 0;
}

/**
 * A refusal of a record of the batch, which the ledger checks raise naming
 * the record the batch would have become (`at`): said instead about the
 * place in the batch's input it comes from, and the ledger it was refused by.
 */
function batchRefusal(
  error: unknown,
  at: string,
  where: { origin: string; ledger: string },
): unknown {
  if (!(error instanceof InputRangeError) || !error.message.startsWith(at)) {
    return error;
  }
  const why = error.message.slice(at.length).replace(/^: /, "");
  return new InputRangeError(
    `Cannot append ${where.origin} to ledger ${where.ledger}: ${why}; nothing was appended`,
    { cause: error },
  );
}

/**
 * The first field in which a recorded decision differs from the same
 * decision recorded again, or `null` when they are the same. The time is
 * compared only when it was given; an id in the older `run/model/task/trial`
 * form matches the id lossbook now writes for the same key.
 */
function recordDifference(
  old: DecisionRecord,
  now: DecisionRecord,
  options: { timed: boolean; legacyId: boolean },
): string | null {
  const idMatches = old.id === now.id ||
    (options.legacyId && old.id === legacyDecisionId(now.decision));
  if (!idMatches) return "id";
  if (options.timed && old.at !== now.at) return "at";
  for (const k of Object.keys(now) as (keyof DecisionRecord)[]) {
    if (k === "id" || k === "at") continue;
    if (k === "decision") {
      const a = old.decision as unknown as Record<string, unknown>;
      const b = now.decision as unknown as Record<string, unknown>;
      for (const f of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (canonicalJson(a[f]) !== canonicalJson(b[f])) return `decision.${f}`;
      }
    } else if (canonicalJson(old[k]) !== canonicalJson(now[k])) return k;
  }
  return null;
}

async function verify(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    "ledger verify",
    args,
    VERIFY_OPTIONS,
  );
  if (positionals.length !== 1) {
    throw new UsageError(
      `ledger verify takes one ledger file, got ${positionals.length} arguments`,
    );
  }
  const path = positionals[0];
  const format = values.format ?? "lossbook";
  if (format !== "lossbook" && format !== "lossbench") {
    throw new UsageError(
      `--format must be lossbook or lossbench, got ${JSON.stringify(format)}`,
    );
  }
  if (format === "lossbench" && values["no-head"]) {
    throw new UsageError("--no-head applies to lossbook ledgers only");
  }
  // LossBench ledgers have no head file: they are never anchored
  const anchor = format === "lossbench" || values["no-head"]
    ? null
    : await readHeadFile(path);
  const v = format === "lossbench"
    ? await verifyLossbenchLedgerFile(path)
    : await verifyLedgerFile(path, { anchor });
  const anchored = anchor !== null;
  if (v.valid && !anchored && !values["no-head"]) {
    console.error(unanchoredWarning(path));
  }
  // left as it is: the next append or repair sets it aside
  if (v.unacknowledged !== null) {
    console.error(`notice: ${unacknowledgedNotice(path, v, null)}`);
  }
  if (values.json) console.log(verifyJson(v, anchored));
  else if (v.valid) {
    console.log(
      v.records === 0
        ? `${path}: valid ${format} ledger, empty (0 records)`
        : `${path}: valid ${format} ledger, ${v.records} records, head ${v.head}${
          anchored ? "" : " (unanchored)"
        }`,
    );
  } else {
    console.log(
      `${path}: INVALID at record ${v.firstBadSeq} (${v.problem}); ${v.records} records verified before it\n${v.reason}`,
    );
  }
  return v.valid ? 0 : 1;
}

async function repair(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    "ledger repair",
    args,
    REPAIR_OPTIONS,
  );
  if (positionals.length !== 1) {
    throw new UsageError(
      `ledger repair takes one ledger file, got ${positionals.length} arguments`,
    );
  }
  const path = positionals[0];
  const v = await verifyLedgerFile(path);
  if (!v.valid && v.problem !== "torn") {
    console.error(
      `lossbook ledger repair: ${v.reason}; only what its head file never acknowledged (or, without a head file, a torn last line) is set aside, everything else is evidence and stays as it is`,
    );
    return 1;
  }
  const r = await repairTornTail(path, { lockWaitMs: lockWaitMs() });
  if (values.json) console.log(JSON.stringify(r, null, 2));
  else if (r.repaired) {
    console.log(
      `set aside ${r.tornBytes} bytes never acknowledged to ${r.sideFile}; ${path} now ends after record ${r.records} (head ${r.head})`,
    );
  } else {
    console.log(`${path}: valid, nothing to repair (${r.records} records)`);
  }
  return 0;
}

async function reviews(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    "ledger reviews",
    args,
    REVIEWS_OPTIONS,
  );
  if (positionals.length !== 1) {
    throw new UsageError(
      `ledger reviews takes one ledger file, got ${positionals.length} arguments`,
    );
  }
  const now = values.now ?? new Date().toISOString();
  if (!isTimestamp(now)) {
    throw new UsageError(
      `--now must be an ISO 8601 UTC timestamp, got ${JSON.stringify(now)}`,
    );
  }
  const { verification, columns } = await readVerifiedLedger(positionals[0]);
  if (columns === null) {
    console.error(`lossbook ledger reviews: ${verification.reason}`);
    return 1;
  }
  const overdue = overdueReviews(columns.reviews, now);
  const summary = reviewSummary(columns.reviews, now);
  if (values.json) {
    console.log(
      JSON.stringify({ now, ...summary, overdueReviews: overdue }, null, 2),
    );
    return 0;
  }
  console.log(
    `${summary.opened} reviews opened, ${
      summary.resolved.approve + summary.resolved.reject +
      summary.resolved.amend
    } resolved (${summary.resolved.approve} approved, ${summary.resolved.reject} rejected, ${summary.resolved.amend} amended; ${summary.resolvedLate} late), ${summary.open} open, ${summary.overdue} overdue at ${now}`,
  );
  if (overdue.length > 0) {
    console.log(alignRows([
      ["decision", "model", "severity", "due", "hours overdue"],
      ...overdue.map((r) => [
        r.decisionId,
        r.modelId,
        r.severity,
        r.dueAt,
        r.hoursOverdue.toFixed(1),
      ]),
    ]));
  }
  return 0;
}

/** The `ledger` command. */
export const ledgerCommand: Command = {
  summary:
    "Append decisions to a hash-chained ledger, verify it (lossbook or LossBench), repair a torn tail, list overdue reviews",
  ...commandHelp({
    forms: [
      {
        command: "ledger append",
        args: "<ledger.jsonl> <decisions.jsonl|log>...",
        options: APPEND_OPTIONS,
      },
      {
        command: "ledger verify",
        args: "<ledger.jsonl>",
        options: VERIFY_OPTIONS,
      },
      {
        command: "ledger repair",
        args: "<ledger.jsonl>",
        options: REPAIR_OPTIONS,
      },
      {
        command: "ledger reviews",
        args: "<ledger.jsonl>",
        options: REVIEWS_OPTIONS,
      },
    ],
    notes: [
      "append writes decisions (and a review for each escalated one) under a lock, refusing a ledger that does not verify; what an interrupted append left past the record the head file acknowledges is set aside to a side file first, with a notice; verify exits 1 on a broken chain and 0, with a notice, on such a tail; repair does the same set-aside as append; reviews lists the reviews past their due time.",
    ],
  }),
  example:
    "deno task lossbook ledger verify data/examples/lossbench_ledger.jsonl --format lossbench --json",
  async run(args) {
    const [sub, ...rest] = args;
    switch (sub) {
      case "append":
        return await append(rest);
      case "verify":
        return await verify(rest);
      case "repair":
        return await repair(rest);
      case "reviews":
        return await reviews(rest);
      default:
        throw new UsageError(
          `ledger needs a subcommand: append, verify, repair or reviews${
            sub === undefined ? "" : `, got ${JSON.stringify(sub)}`
          }`,
        );
    }
  },
};
