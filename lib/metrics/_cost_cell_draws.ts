// Private: seeded posterior draws of a sum over cells of (cases in the cell)
// × (expected cost of one case of the cell), where each cell's kind shares
// get a Dirichlet(count + prior) posterior. Costs may be negative (a kind of
// a paired cell can be a cost difference). Used by replay's paired interval.
import { gamma, type Prng } from "../math/sampling.ts";

/** One kind of a cell: its observed count and the cost of one case of it. */
export interface CostKind {
  /** Observed cases of this kind (may be 0: a kind that was possible but never seen). */
  readonly count: number;
  /** Cost of one case of this kind. */
  readonly cost: number;
}

/** A cell: cases whose kinds share one posterior. */
export interface CostCell {
  /** Cases in the cell: the fixed count the estimand conditions on. */
  readonly n: number;
  /** Every kind a case of the cell can be, observed or not. */
  readonly kinds: readonly CostKind[];
  /** Sign the cell enters the sum with (+1 or -1). */
  readonly sign: 1 | -1;
}

/**
 * Draws of Σ sign · n · Σ share · cost over the cells, `draws` of them, each
 * cell's shares drawn from Dirichlet(count + prior). O(draws × kinds).
 */
export function _costCellDraws(
  cells: readonly CostCell[],
  draws: number,
  prior: number,
  prng: Prng,
): Float64Array {
  const out = new Float64Array(draws);
  for (const cell of cells) {
    const m = cell.kinds.length;
    if (m === 0 || cell.n === 0) continue;
    if (m === 1) {
      const v = cell.sign * cell.n * cell.kinds[0].cost;
      for (let d = 0; d < draws; d++) out[d] += v;
      continue;
    }
    const g = new Float64Array(m);
    for (let d = 0; d < draws; d++) {
      let total = 0;
      for (let k = 0; k < m; k++) {
        g[k] = gamma(prng, cell.kinds[k].count + prior);
        total += g[k];
      }
      let v = 0;
      for (let k = 0; k < m; k++) v += (g[k] / total) * cell.kinds[k].cost;
      out[d] += cell.sign * cell.n * v;
    }
  }
  return out;
}
