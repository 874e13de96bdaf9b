/**
 * From labelled decisions to the columns calibration needs.
 *
 * @module
 */

import type { CostProfile } from "../costs/profile.ts";
import { isSeverity, type Severity } from "../costs/severity.ts";
import {
  CONSEQUENCE_MATRIX,
  costIfWrong,
  type CostMatrix,
} from "../metrics/loss.ts";

/** A labelled outcome: a decision whose gold class is known. */
export interface LabelledOutcome {
  /** Stated P(answer is correct), or `null` when none was stated. */
  readonly pCorrect: number | null;
  /** Gold class, known once the outcome is labelled. */
  readonly trueClass: string;
  /** Class the decision was taken as. */
  readonly predClass: string;
  /** Task severity. */
  readonly severity: Severity;
}

/** The same outcomes as columns, for example from an Arquero table's `array()`. */
export interface OutcomeTable {
  /** Stated P(correct) per decision; `null` when none. */
  readonly pCorrect: ArrayLike<number | null>;
  /** Gold class per decision. */
  readonly trueClass: ArrayLike<string>;
  /** Predicted class per decision. */
  readonly predClass: ArrayLike<string>;
  /** Severity per decision. */
  readonly severity: ArrayLike<string>;
}

/** Options for {@linkcode outcomeColumns}. */
export interface OutcomeColumnsOptions {
  /** Profile that prices each decision's exposure. Default: none (`exposure` is `null`). */
  profile?: CostProfile;
  /**
   * Cost matrix that prices an error: the exposure of a decision is its
   * cost if wrong (`costIfWrong`), K(severity) for a predicted clean item
   * and, under `consequence`, a review for a predicted exception.
   * Default: `CONSEQUENCE_MATRIX`, as for realised loss.
   */
  matrix?: CostMatrix;
  /** Gold class of clean items. Default: `"MATCH"`. */
  cleanClass?: string;
}

/** Calibration columns: one entry per decision that stated a probability. */
export interface OutcomeColumns {
  /** Stated P(correct). */
  readonly p: Float64Array;
  /** 1 when the decision was correct. */
  readonly y: Uint8Array;
  /** Cost if wrong under the profile and matrix, or `null` when no profile was given. */
  readonly exposure: Float64Array | null;
  /** Severity of each kept decision. */
  readonly severity: readonly Severity[];
  /** Position of each kept decision in the input. */
  readonly index: Int32Array;
  /** Decisions left out because they stated no probability. */
  readonly missing: number;
}

/**
 * Turn labelled decisions into (p, y, exposure) columns for calibration.
 *
 * p is the stated P(correct) and y = 1 when the predicted class equals the
 * gold class, so a reliability diagram reads "of the decisions stated 90%
 * sure, how many were right". Decisions without a stated probability are
 * left out and counted in `missing`, never read as certain. This is how
 * calibration is refitted from labelled outcomes as they arrive (from a run
 * export or a ledger): collect the recent labelled decisions, make columns,
 * fit a calibrator. The exposure of a decision is what it costs if wrong
 * under the profile and the cost matrix (`costIfWrong`), so cost-weighted
 * calibration and escalation price errors as realised loss does. Cost: O(n).
 *
 * @param source Labelled decisions as records, or as columns.
 * @param options A profile for the exposure column, its cost matrix and the clean class.
 * @returns The columns, the kept positions and the count left out.
 * @throws {RangeError} When a pCorrect is outside [0, 1] or a severity is unknown.
 * @throws {TypeError} When columns differ in length.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getProfile } from "../costs/mod.ts";
 * import { STRICT_MATRIX } from "../metrics/loss.ts";
 * import { outcomeColumns } from "./outcome_columns.ts";
 *
 * const run = [
 *   { pCorrect: 0.9, trueClass: "MATCH", predClass: "MATCH", severity: "LOW" },
 *   { pCorrect: 0.8, trueClass: "AMOUNT_MISMATCH", predClass: "MATCH", severity: "HIGH" },
 *   { pCorrect: 0.6, trueClass: "MATCH", predClass: "DUPLICATE", severity: "HIGH" },
 *   { pCorrect: null, trueClass: "MATCH", predClass: "MATCH", severity: "LOW" },
 * ] as const;
 * const cols = outcomeColumns(run, { profile: getProfile("reconciliation") });
 * assert.deepEqual([...cols.y], [1, 0, 0]);
 * // consequence: a predicted exception, if wrong, is still reviewed (1)
 * assert.deepEqual([...cols.exposure!], [0.2, 10, 1]);
 * assert.equal(cols.missing, 1);
 * const strict = outcomeColumns(run, { profile: getProfile("reconciliation"), matrix: STRICT_MATRIX });
 * assert.deepEqual([...strict.exposure!], [0.2, 10, 10]);
 * ```
 */
export function outcomeColumns(
  source: readonly LabelledOutcome[] | OutcomeTable,
  options: OutcomeColumnsOptions = {},
): OutcomeColumns {
  const table: OutcomeTable = Array.isArray(source)
    ? {
      pCorrect: source.map((d) => d.pCorrect),
      trueClass: source.map((d) => d.trueClass),
      predClass: source.map((d) => d.predClass),
      severity: source.map((d) => d.severity),
    }
    : source as OutcomeTable;
  const n = table.pCorrect.length;
  for (const k of ["trueClass", "predClass", "severity"] as const) {
    if (table[k].length !== n) {
      throw new TypeError(
        `Cannot make outcome columns: ${k} has ${
          table[k].length
        } values but pCorrect has ${n}`,
      );
    }
  }
  const keep: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = table.pCorrect[i];
    if (v === null || v === undefined) continue;
    if (!(v >= 0 && v <= 1)) {
      throw new RangeError(
        `Cannot make outcome columns: pCorrect of decision ${i} must be in [0, 1], got ${v}`,
      );
    }
    keep.push(i);
  }
  const m = keep.length;
  const p = new Float64Array(m);
  const y = new Uint8Array(m);
  const severity: Severity[] = new Array(m);
  const exposure = options.profile ? new Float64Array(m) : null;
  const matrix = options.matrix ?? CONSEQUENCE_MATRIX;
  for (let j = 0; j < m; j++) {
    const i = keep[j];
    p[j] = table.pCorrect[i] as number;
    y[j] = table.predClass[i] === table.trueClass[i] ? 1 : 0;
    const s = table.severity[i];
    if (!isSeverity(s)) {
      throw new RangeError(
        `Cannot make outcome columns: severity of decision ${i} must be LOW, MEDIUM, HIGH or CRITICAL, got ${
          JSON.stringify(s)
        }`,
      );
    }
    severity[j] = s;
    if (exposure) {
      exposure[j] = costIfWrong(String(table.predClass[i]), s, {
        profile: options.profile!,
        matrix,
        cleanClass: options.cleanClass,
      });
    }
  }
  return {
    p,
    y,
    exposure,
    severity,
    index: Int32Array.from(keep),
    missing: n - m,
  };
}
