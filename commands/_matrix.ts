// Private, shared by the library functions (api/) and the commands: the `--mode` flag that names a cost matrix, shared by
// every command that prices errors, so all of them default to the matrix
// `score` uses.
import {
  CONSEQUENCE_MATRIX,
  type CostMatrix,
  STRICT_MATRIX,
} from "../lib/metrics/loss.ts";
import { UsageError } from "./_command.ts";

/** The matrix modes: the ids of the shipped cost matrices. */
export const MATRIX_MODES = ["consequence", "strict"] as const;

/** `--mode consequence|strict`: the cost matrix, `consequence` when absent (as in `score`). */
export function matrixFlag(value: string | undefined): CostMatrix {
  const mode = value ?? "consequence";
  if (mode === "consequence") return CONSEQUENCE_MATRIX;
  if (mode === "strict") return STRICT_MATRIX;
  throw new UsageError(
    `--mode must be one of ${MATRIX_MODES.join(", ")}, got ${
      JSON.stringify(value)
    }`,
  );
}

/** One line naming what an error costs under a matrix, for human output. */
export function matrixLine(matrix: CostMatrix): string {
  const d = matrix.description.replace(/\.$/, "");
  return `${matrix.id} matrix (${d.charAt(0).toLowerCase()}${d.slice(1)})`;
}
