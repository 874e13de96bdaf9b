// Private: checks shared by the aggregations over evidence columns, and a
// compensated sum. Every check names the row (0-based) and the value.
import {
  COST_COMPLETENESS,
  type CostCompleteness,
  FAILURE_CLASSES,
  type FailureClass,
} from "./cost_evidence.ts";

function show(v: unknown): string {
  return v === undefined ? "nothing" : JSON.stringify(v);
}

function checkArrayLike(name: string, v: unknown, action: string): number {
  if (
    v === null || typeof v !== "object" ||
    typeof (v as ArrayLike<unknown>).length !== "number"
  ) {
    throw new TypeError(
      `Cannot ${action}: ${name} must be an array, got ${
        v === null ? "null" : typeof v
      }`,
    );
  }
  return (v as ArrayLike<unknown>).length;
}

/** Check that two columns have the same length and return it. */
export function sameLength(
  names: readonly [string, string],
  a: unknown,
  b: unknown,
  action: string,
): number {
  const n = checkArrayLike(names[0], a, action);
  const m = checkArrayLike(names[1], b, action);
  if (n !== m) {
    throw new RangeError(
      `Cannot ${action}: ${names[0]} has ${n} rows but ${names[1]} has ${m}`,
    );
  }
  return n;
}

/**
 * Check one row's cost pair: the state is one of the four literals and the
 * amount pairs legally with it (as `isCostEvidence`).
 */
export function checkCostRow(
  completeness: unknown,
  usd: unknown,
  row: number,
  action: string,
): CostCompleteness {
  if (!COST_COMPLETENESS.includes(completeness as CostCompleteness)) {
    throw new RangeError(
      `Cannot ${action}: row ${row}: costCompleteness must be one of ${
        COST_COMPLETENESS.join(", ")
      }, got ${show(completeness)}`,
    );
  }
  if (completeness === "complete" || completeness === "partial") {
    if (typeof usd !== "number") {
      throw new TypeError(
        `Cannot ${action}: row ${row}: costUsd must be a number when costCompleteness is ${completeness}, got ${
          show(usd)
        }`,
      );
    }
    if (!Number.isFinite(usd) || usd < 0) {
      throw new RangeError(
        `Cannot ${action}: row ${row}: costUsd must be finite and >= 0, got ${usd}`,
      );
    }
  } else if (usd !== null) {
    throw new RangeError(
      `Cannot ${action}: row ${row}: costUsd must be null when costCompleteness is ${completeness}, got ${
        show(usd)
      }`,
    );
  }
  return completeness as CostCompleteness;
}

/** Check one row's outcome is one of the nine failure classes. */
export function checkOutcome(
  outcome: unknown,
  row: number,
  action: string,
): FailureClass {
  if (!FAILURE_CLASSES.includes(outcome as FailureClass)) {
    throw new RangeError(
      `Cannot ${action}: row ${row}: outcome must be one of ${
        FAILURE_CLASSES.join(", ")
      }, got ${show(outcome)}${
        outcome === null ? " (an ungraded attempt has no outcome yet)" : ""
      }`,
    );
  }
  return outcome as FailureClass;
}

/** Check a list of failure classes given as an option. */
export function checkClassList(
  name: string,
  list: unknown,
  action: string,
): readonly FailureClass[] {
  if (!Array.isArray(list)) {
    throw new TypeError(
      `Cannot ${action}: ${name} must be an array of failure classes, got ${
        show(list)
      }`,
    );
  }
  for (const c of list) {
    if (!FAILURE_CLASSES.includes(c)) {
      throw new RangeError(
        `Cannot ${action}: ${name} must list failure classes (${
          FAILURE_CLASSES.join(", ")
        }), got ${show(c)}`,
      );
    }
  }
  return list as FailureClass[];
}
