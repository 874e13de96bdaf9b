// Private: the one-pass state of the JSONL statistics readers, fed either
// with Decisions or with the byte scanner's fields of a line.

import type { Severity } from "../costs/severity.ts";
import {
  type Action,
  canCost,
  sortStats,
  type StatsRow,
} from "../metrics/sufficient_stats.ts";
import type { Decision } from "../decision/decision.ts";
import { DecisionKeySet, type KeyDuplicate } from "./_key_spill.ts";
import {
  ascii,
  type DecisionScan,
  equalAt,
  Interner,
  KeyHasher,
  ROLE_WORDS,
} from "./_decision_scan.ts";
import { InputRangeError } from "../input_error.ts";
import { ComplementSum, reciprocalSum, trialsSum } from "../math/exact_sum.ts";
import {
  ClusterCheck,
  type DecisionUnit,
  resolveUnit,
} from "../decision/cluster.ts";

/** Statistics of a run export, and how many decisions they cover. */
export interface JsonlStats {
  /** Sufficient statistics, in canonical order. */
  readonly stats: StatsRow[];
  /** Decisions read. */
  readonly decisions: number;
  /** The unit the statistics count: the one asked for, or the decisions' own. */
  readonly unit: DecisionUnit;
}

export interface Cell {
  modelId: string;
  severity: Severity;
  trueClass: string;
  predClass: string;
  action: Action;
  n: number;
  /** The exact sum of 1 - pCorrect, rounded once in {@linkcode statsOfCells}. */
  pError: ComplementSum;
  pMissing: number;
  parseFailures: number;
  /**
   * Decisions of the cell by the trials of their task (k to count), or
   * null when every task has one trial (`taskShare` = `n`).
   */
  trials: Map<number, number> | null;
  /**
   * The sum over the cell's decisions of the costly decisions of their unit
   * (`unitCostPairs`), or null with `trials` (one decision per unit: `n`
   * where the cell can cost, else 0).
   */
  unitCostPairs: number | null;
}

/** A new cell, with no decisions. */
export function emptyCell(
  modelId: string,
  severity: Severity,
  trueClass: string,
  predClass: string,
  action: Action,
): Cell {
  return {
    modelId,
    severity,
    trueClass,
    predClass,
    action,
    n: 0,
    pError: new ComplementSum(),
    pMissing: 0,
    parseFailures: 0,
    trials: null,
    unitCostPairs: null,
  };
}

/** The statistics of cells, each sum rounded once, in canonical order. */
export function statsOfCells(cells: readonly Cell[]): StatsRow[] {
  return sortStats(cells.map((c) => ({
    modelId: c.modelId,
    severity: c.severity,
    trueClass: c.trueClass,
    predClass: c.predClass,
    action: c.action,
    n: c.n,
    pErrorSum: c.pError.value(),
    pMissing: c.pMissing,
    parseFailures: c.parseFailures,
    taskShare: c.trials === null ? c.n : reciprocalSum(c.trials),
    taskTrialsSum: c.trials === null ? c.n : trialsSum(c.trials),
    unitCostPairs: c.unitCostPairs ?? (canCost(c) ? c.n : 0),
  })));
}

/**
 * Give the cells of one unit's decisions (a cell once per decision) their
 * unit's size, for `taskShare` and `taskTrialsSum`, and its costly
 * decisions, for `unitCostPairs`: each decision adds both to its cell. The
 * cells' `trials` must be maps and their `unitCostPairs` numbers.
 *
 * @param cells The cell of each decision of the unit.
 */
function countUnit(cells: readonly Cell[]): void {
  const k = cells.length;
  let costly = 0;
  for (const c of cells) if (canCost(c)) costly++;
  for (const c of cells) countDecision(c, k, costly);
}

// one decision of a unit of `size` decisions, `costly` of which can cost
function countDecision(c: Cell, size: number, costly: number): void {
  c.trials!.set(size, (c.trials!.get(size) ?? 0) + 1);
  c.unitCostPairs! += costly;
}

/**
 * Make each cell ready for {@linkcode countUnit}: empty trial counts and no
 * costly pairs.
 *
 * @param cells The cells.
 */
function resetUnitCounts(cells: readonly Cell[]): void {
  for (const c of cells) {
    c.trials = new Map();
    c.unitCostPairs = 0;
  }
}

/**
 * The cluster rules over a columnar reader's rows (after every other check
 * passed), and the run's unit: the one asked for, else the cluster when the
 * rows name one.
 *
 * @param rows Rows, read by index.
 * @param taskAt A row's taskId.
 * @param clusterAt A row's cluster (null for none), or null without the column.
 * @param where What is read, as errors begin.
 * @param unit The unit asked for.
 * @returns The unit.
 */
export function unitOfRows(
  rows: number,
  taskAt: (i: number) => string,
  clusterAt: ((i: number) => string | null) | null,
  where: string,
  unit: DecisionUnit | undefined,
): DecisionUnit {
  const check = new ClusterCheck(where, "row");
  for (let i = 0; clusterAt !== null && i < rows; i++) {
    check.add(taskAt(i), clusterAt(i), i + 1);
  }
  check.finish();
  return resolveUnit(unit, check.clustered, where);
}

/**
 * Give each cell its decisions by the size of their unit (the rows of one
 * model and one unit id: its task, or its cluster), for `taskShare`, and
 * the costly decisions of their unit, for `unitCostPairs`: the second pass
 * of the columnar readers.
 *
 * @param cells The cells.
 * @param rows Rows, read by index.
 * @param cellOf A row's cell.
 * @param unitAt A row's unit id.
 */
export function countUnitSizes(
  cells: readonly Cell[],
  rows: number,
  cellOf: (i: number) => Cell,
  unitAt: (i: number) => unknown,
): void {
  const key = (i: number) => `${cellOf(i).modelId}\u0000${unitAt(i)}`;
  // per unit: its decisions and its costly ones
  const units = new Map<string, { size: number; costly: number }>();
  for (let i = 0; i < rows; i++) {
    const k = key(i);
    let u = units.get(k);
    if (u === undefined) units.set(k, u = { size: 0, costly: 0 });
    u.size++;
    if (canCost(cellOf(i))) u.costly++;
  }
  resetUnitCounts(cells);
  for (let i = 0; i < rows; i++) {
    const { size, costly } = units.get(key(i))!;
    countDecision(cellOf(i), size, costly);
  }
}

/**
 * The statistics of decisions already in memory (an imported harness log),
 * reduced as the JSONL reader reduces its lines, without a table.
 *
 * @param decisions Checked decisions, keys not repeated: the caller checks
 * them (as the harness importers do, across every log); they are not
 * checked again here.
 * @param path What they were read from, for messages.
 * @param unit The unit asked for (default: the decisions' own).
 * @returns Their statistics, count and unit.
 */
export function statsOfDecisionList(
  decisions: readonly Decision[],
  path: string,
  unit?: DecisionUnit,
): JsonlStats {
  const stats = new DecisionStats(path, unit);
  for (const d of decisions) stats.add(d);
  return stats.finish();
}

/**
 * The statistics of decisions given one at a time (an imported harness log,
 * as it is read), reduced as the JSONL reader reduces its lines: a decision
 * is let go once counted, only its task id and cell kept for the second
 * pass of a run whose tasks have several decisions.
 */
export class DecisionStats {
  readonly #builder: StatsBuilder;
  readonly #tasks: string[] = [];
  readonly #clusters: (string | undefined)[] = [];
  readonly #cells: Cell[] = [];

  /**
   * @param path What the decisions are read from, for messages.
   * @param unit The unit asked for (default: the decisions' own).
   */
  constructor(path: string, unit?: DecisionUnit) {
    this.#builder = new StatsBuilder(path, () => "", (offset) => offset + 1);
    this.#builder.unit = unit;
  }

  /**
   * Count one checked decision, its key not repeated: the caller checks the
   * keys (the harness importers, across every log), so they are not checked
   * again here.
   */
  add(d: Decision): void {
    const i = this.#builder.decisions;
    this.#cells.push(this.#builder.add(d, i + 1, i, true));
    this.#tasks.push(d.taskId);
    this.#clusters.push(d.cluster);
  }

  /** The statistics of every decision added. */
  finish(): JsonlStats {
    const builder = this.#builder;
    if (builder.repeatedTasks) {
      this.#cells.forEach((c, i) =>
        builder.shareCell(this.#tasks[i], this.#clusters[i], c, i + 1)
      );
    }
    return builder.finish();
  }
}

// the words behind the scanner's codes: the schema's values of the fields
const SEVERITY_WORDS = ROLE_WORDS.severity as readonly Severity[];
const ACTION_WORDS = ROLE_WORDS.action as readonly Action[];
const ACTIONS = ACTION_WORDS.length;
const CLASS_IDS = 2 ** 26; // class ids below this keep a cell key exact

// The one-pass state: cells by small ids (model, severity and action in one
// number, gold and predicted class in another), so no key string is built
// per line, and seen keys as hashes with the offset of the line that first
// used them. Lines come either as Decisions (text, or a line the byte
// scanner left to decisionFromLine) or as the byte scanner's fields.
export class StatsBuilder {
  readonly models = new Interner();
  readonly classes = new Interner();
  readonly cells = new Map<number, Map<number, Cell>>();
  readonly list: Cell[] = [];
  readonly hasher = new KeyHasher();
  readonly scannedCells = new ScannedCells();
  decisions = 0;
  firstRun: string | null = null;
  firstRunBytes: Uint8Array | null = null;
  // some unit has several decisions of one model: a second pass counts them
  repeatedTasks = false;
  /** The unit asked for; absent, the decisions' own. */
  unit: DecisionUnit | undefined = undefined;
  // a line names a cluster: the second pass checks the cluster rules
  clustered = false;

  constructor(
    readonly path: string,
    // the line that starts at an earlier offset, and its line number
    readonly lineText: (offset: number) => string,
    readonly lineNumber: (offset: number) => number,
    // when given, keys are logged here instead of checked (a part of a file
    // read by a worker: the check is across the whole file)
    readonly keyLog: KeyLog | null = null,
    // the exact duplicate check; by default all in memory (text already is)
    readonly keys: DecisionKeySet = new DecisionKeySet({
      memoryKeys: Infinity,
    }),
  ) {}

  /** What is read, as errors begin. */
  get prefix(): string {
    return `Cannot load run export ${this.path}`;
  }

  where(lineNo: number): string {
    return `${this.prefix}: line ${lineNo}`;
  }

  cell(
    model: number,
    severity: number,
    action: number,
    gold: number,
    pred: number,
  ): Cell {
    if (gold >= CLASS_IDS || pred >= CLASS_IDS) {
      throw new RangeError(
        `more than ${CLASS_IDS} distinct classes in ${this.path}`,
      );
    }
    const outer = (model * SEVERITY_WORDS.length + severity) * ACTIONS +
      action;
    let byClass = this.cells.get(outer);
    if (byClass === undefined) this.cells.set(outer, byClass = new Map());
    const inner = gold * CLASS_IDS + pred;
    let c = byClass.get(inner);
    if (c === undefined) {
      c = emptyCell(
        this.models.strings[model],
        SEVERITY_WORDS[severity],
        this.classes.strings[gold],
        this.classes.strings[pred],
        ACTION_WORDS[action],
      );
      byClass.set(inner, c);
      this.list.push(c);
    }
    return c;
  }

  // the line being checked: its Decision, or the scanner's fields in a buffer
  #decision: Decision | null = null;
  #bytes: Uint8Array | null = null;
  #scan: DecisionScan | null = null;
  #key(): Decision {
    return this.#decision ??= scannedKey(this.#bytes!, this.#scan!);
  }
  // whether the lines at two offsets have equal keys (on a hash match
  // only); the line being added is not read again
  #current = -1;
  readonly #same = (a: number, b: number): boolean => {
    const x = JSON.parse(this.lineText(a)) as Decision;
    const y = b === this.#current
      ? this.#key()
      : JSON.parse(this.lineText(b)) as Decision;
    return sameKey(x, y);
  };

  /** `same` for {@linkcode DecisionKeySet.firstDuplicate}: re-reads both lines. */
  readonly sameLines = (a: number, b: number): boolean => this.#same(a, b);

  #checkKey(lineNo: number, offset: number): void {
    const { h1, h2 } = this.hasher;
    if (this.keyLog !== null) {
      this.keyLog.add(h1, h2);
      return;
    }
    this.#current = offset;
    const earlier = this.keys.add(h1, h2, offset, this.#same);
    if (earlier >= 0) {
      throw this.#duplicate(this.#key(), lineNo, earlier);
    }
    this.#current = -1;
  }

  /** The error for a repeated key the spilled check found. */
  duplicateError(d: KeyDuplicate): Error {
    const key = JSON.parse(this.lineText(d.offset)) as Decision;
    return this.#duplicate(key, this.lineNumber(d.offset), d.earlier);
  }

  #duplicate(d: Decision, lineNo: number, earlier: number): Error {
    return new InputRangeError(
      `${this.where(lineNo)}: duplicate decision for runId ${
        JSON.stringify(d.runId)
      }, modelId ${JSON.stringify(d.modelId)}, taskId ${
        JSON.stringify(d.taskId)
      }, trial ${d.trial} (first on line ${this.lineNumber(earlier)})`,
    );
  }

  #count(c: Cell, pCorrect: number | null, parseOk: boolean): void {
    c.n++;
    if (pCorrect === null) c.pMissing++;
    else c.pError.add(pCorrect);
    if (!parseOk) c.parseFailures++;
    this.decisions++;
  }

  /**
   * A decision read by decisionFromLine, or one whose key its caller has
   * checked already (`keyChecked`: not hashed, not held); returns its cell.
   */
  add(d: Decision, lineNo: number, offset: number, keyChecked = false): Cell {
    if (!keyChecked) {
      this.hasher.ofStrings(d.runId, d.modelId, d.taskId, d.trial);
      this.#decision = d;
      this.#checkKey(lineNo, offset);
    }
    const c = this.cell(
      this.models.ofString(d.modelId),
      SEVERITY_WORDS.indexOf(d.severity),
      ACTION_WORDS.indexOf(d.action),
      this.classes.ofString(d.trueClass),
      this.classes.ofString(d.predClass),
    );
    this.#count(c, d.pCorrect, d.parseOk);
    if (this.firstRun === null) this.firstRun = d.runId;
    if (d.trial !== 0 || d.runId !== this.firstRun) this.repeatedTasks = true;
    if (d.cluster !== undefined) this.clustered = this.repeatedTasks = true;
    return c;
  }

  /** A line the byte scanner read, in `b`. */
  addScanned(b: Uint8Array, s: DecisionScan, lineNo: number, offset: number) {
    this.hasher.ofBytes(
      b,
      s.runStart,
      s.runEnd,
      s.modelStart,
      s.modelEnd,
      s.taskStart,
      s.taskEnd,
      s.trial,
    );
    this.#decision = null;
    this.#bytes = b;
    this.#scan = s;
    this.#checkKey(lineNo, offset);
    let c = this.scannedCells.find(b, s);
    if (c === null) {
      c = this.cell(
        this.models.ofBytes(b, s.modelStart, s.modelEnd),
        s.severity,
        s.action,
        this.classes.ofBytes(b, s.trueStart, s.trueEnd),
        this.classes.ofBytes(b, s.predStart, s.predEnd),
      );
      this.scannedCells.insert(b, s, c);
    }
    this.#count(c, s.pCorrect, s.parseOk);
    if (this.firstRun === null) {
      this.firstRun = ascii(b, s.runStart, s.runEnd);
    }
    if (s.trial !== 0 || !this.#isFirstRun(b, s.runStart, s.runEnd)) {
      this.repeatedTasks = true;
    }
    if (s.clusterStart >= 0) this.clustered = this.repeatedTasks = true;
  }

  #isFirstRun(b: Uint8Array, start: number, end: number): boolean {
    const first = this.firstRunBytes ??= new TextEncoder().encode(
      this.firstRun!,
    );
    return equalAt(b, start, end, first);
  }

  // the second pass, for runs where a unit can have several decisions of
  // one model: every line was validated by the first pass but for the
  // cluster rules, checked here
  readonly tasks = new Map<number, Map<string, Cell[]>>();
  #clusters: ClusterCheck | null = null;
  #unitIsCluster = false;

  // the unit: the one asked for, or the lines' own (known after the first pass)
  #resolved(): DecisionUnit {
    return resolveUnit(this.unit, this.clustered, this.prefix);
  }

  #share(
    model: number,
    taskId: string,
    cluster: string | null,
    c: Cell,
    lineNo: number,
  ): void {
    if (this.#clusters === null) {
      this.#clusters = new ClusterCheck(this.prefix, "line");
      this.#unitIsCluster = this.#resolved() === "cluster";
    }
    if (this.clustered) this.#clusters.add(taskId, cluster, lineNo);
    const unit = this.#unitIsCluster ? cluster ?? "" : taskId;
    let byUnit = this.tasks.get(model);
    if (byUnit === undefined) this.tasks.set(model, byUnit = new Map());
    const seen = byUnit.get(unit);
    if (seen === undefined) byUnit.set(unit, [c]);
    else seen.push(c);
  }

  share(d: Decision, lineNo: number): void {
    const model = this.models.ofString(d.modelId);
    this.#share(
      model,
      d.taskId,
      d.cluster ?? null,
      this.cell(
        model,
        SEVERITY_WORDS.indexOf(d.severity),
        ACTION_WORDS.indexOf(d.action),
        this.classes.ofString(d.trueClass),
        this.classes.ofString(d.predClass),
      ),
      lineNo,
    );
  }

  /** {@linkcode share} of a decision that {@linkcode add} counted in cell `c`. */
  shareCell(
    taskId: string,
    cluster: string | undefined,
    c: Cell,
    lineNo: number,
  ): void {
    this.#share(
      this.models.ofString(c.modelId),
      taskId,
      cluster ?? null,
      c,
      lineNo,
    );
  }

  shareScanned(b: Uint8Array, s: DecisionScan, lineNo: number): void {
    const model = this.models.ofBytes(b, s.modelStart, s.modelEnd);
    this.#share(
      model,
      ascii(b, s.taskStart, s.taskEnd),
      s.clusterStart < 0 ? null : ascii(b, s.clusterStart, s.clusterEnd),
      this.cell(
        model,
        s.severity,
        s.action,
        this.classes.ofBytes(b, s.trueStart, s.trueEnd),
        this.classes.ofBytes(b, s.predStart, s.predEnd),
      ),
      lineNo,
    );
  }

  finish(): JsonlStats {
    this.#clusters?.finish();
    const unit = this.#resolved();
    if (this.repeatedTasks) {
      resetUnitCounts(this.list);
      for (const byUnit of this.tasks.values()) {
        for (const cells of byUnit.values()) countUnit(cells);
      }
    }
    return { stats: statsOfCells(this.list), decisions: this.decisions, unit };
  }
}

// The cells of scanned lines by the bytes of their model, gold and
// predicted class (no string per line), in front of the builder's cells.
class ScannedCells {
  #slots = new Int32Array(1024); // entry + 1
  #hashes = new Int32Array(1024);
  #keys: Uint8Array[] = []; // model, 0, gold, 0, predicted (ASCII ids hold no 0)
  #codes: number[] = []; // severity * ACTIONS + action
  #cells: Cell[] = [];

  // where the last find() missed: its hash and free slot
  #missHash = 0;
  #missSlot = 0;

  /** The cell of the scanned line, or null (then insert it). */
  find(b: Uint8Array, s: DecisionScan): Cell | null {
    const code = s.severity * ACTIONS + s.action;
    let h = Math.imul(0x811c9dc5 ^ code, 0x01000193);
    for (let i = s.modelStart; i < s.modelEnd; i++) {
      h = Math.imul(h ^ b[i], 0x01000193);
    }
    h = Math.imul(h, 0x01000193);
    for (let i = s.trueStart; i < s.trueEnd; i++) {
      h = Math.imul(h ^ b[i], 0x01000193);
    }
    h = Math.imul(h, 0x01000193);
    for (let i = s.predStart; i < s.predEnd; i++) {
      h = Math.imul(h ^ b[i], 0x01000193);
    }
    h ^= h >>> 15;
    const mask = this.#slots.length - 1;
    let i = h & mask;
    for (;; i = (i + 1) & mask) {
      const slot = this.#slots[i];
      if (slot === 0) break;
      const e = slot - 1;
      if (
        this.#hashes[i] === h && this.#codes[e] === code &&
        this.#same(this.#keys[e], b, s)
      ) return this.#cells[e];
    }
    this.#missHash = h;
    this.#missSlot = i;
    return null;
  }

  /** Add the cell of the line the last find() missed. */
  insert(b: Uint8Array, s: DecisionScan, cell: Cell): void {
    const m = s.modelEnd - s.modelStart;
    const t = s.trueEnd - s.trueStart;
    const key = new Uint8Array(m + t + s.predEnd - s.predStart + 2);
    key.set(b.subarray(s.modelStart, s.modelEnd), 0);
    key.set(b.subarray(s.trueStart, s.trueEnd), m + 1);
    key.set(b.subarray(s.predStart, s.predEnd), m + t + 2);
    this.#keys.push(key);
    this.#codes.push(s.severity * ACTIONS + s.action);
    this.#cells.push(cell);
    this.#slots[this.#missSlot] = this.#cells.length;
    this.#hashes[this.#missSlot] = this.#missHash;
    if (this.#cells.length * 2 > this.#slots.length) this.#grow();
  }

  #same(key: Uint8Array, b: Uint8Array, s: DecisionScan): boolean {
    const m = s.modelEnd - s.modelStart;
    const t = s.trueEnd - s.trueStart;
    if (key.length !== m + t + s.predEnd - s.predStart + 2) return false;
    if (key[m] !== 0 || key[m + t + 1] !== 0) return false;
    for (let i = 0; i < m; i++) {
      if (key[i] !== b[s.modelStart + i]) return false;
    }
    for (let i = 0; i < t; i++) {
      if (key[m + 1 + i] !== b[s.trueStart + i]) return false;
    }
    for (let i = m + t + 2, j = s.predStart; i < key.length; i++, j++) {
      if (key[i] !== b[j]) return false;
    }
    return true;
  }

  #grow(): void {
    const old = this.#slots;
    const oldHashes = this.#hashes;
    this.#slots = new Int32Array(old.length * 2);
    this.#hashes = new Int32Array(old.length * 2);
    const mask = this.#slots.length - 1;
    for (let j = 0; j < old.length; j++) {
      if (old[j] === 0) continue;
      let i = oldHashes[j] & mask;
      while (this.#slots[i] !== 0) i = (i + 1) & mask;
      this.#slots[i] = old[j];
      this.#hashes[i] = oldHashes[j];
    }
  }
}

/** Whether two decisions have the same key (runId, modelId, taskId, trial). */
export function sameKey(x: Decision, y: Decision): boolean {
  return x.runId === y.runId && x.modelId === y.modelId &&
    x.taskId === y.taskId && x.trial === y.trial;
}

// the key of a scanned line as a Decision's fields (only the key is read)
function scannedKey(b: Uint8Array, s: DecisionScan): Decision {
  return {
    runId: ascii(b, s.runStart, s.runEnd),
    modelId: ascii(b, s.modelStart, s.modelEnd),
    taskId: ascii(b, s.taskStart, s.taskEnd),
    trial: s.trial,
  } as Decision;
}

/** Decision-key hashes, in the order they were read. */
export class KeyLog {
  h1 = new Int32Array(1 << 12);
  h2 = new Int32Array(1 << 12);
  size = 0;

  add(h1: number, h2: number): void {
    if (this.size === this.h1.length) this.#reserve(1);
    this.h1[this.size] = h1;
    this.h2[this.size++] = h2;
  }

  /**
   * Append `n` keys laid out as pairs of 32-bit words (h1, h2) from word
   * `at` of `words`: the WebAssembly reader's key log.
   */
  appendPairs(words: Int32Array, at: number, n: number): void {
    if (this.size + n > this.h1.length) this.#reserve(n);
    const { h1, h2 } = this;
    let size = this.size;
    for (let k = 0, w = at; k < n; k++, w += 2) {
      h1[size] = words[w];
      h2[size++] = words[w + 1];
    }
    this.size = size;
  }

  // room for `extra` more keys, at least doubling
  #reserve(extra: number): void {
    let n = this.h1.length * 2;
    while (n < this.size + extra) n *= 2;
    const grow = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(n);
      b.set(a.subarray(0, this.size));
      return b;
    };
    this.h1 = grow(this.h1);
    this.h2 = grow(this.h2);
  }
}
