// Private to lib/calibration: one pass that sums count, p, y (and weights)
// per bin, and the diagram built from those sums.
import { binIndex, type BinStrategy, equalWidthEdges } from "./binning.ts";
import type { ReliabilityBin, ReliabilityDiagram } from "./reliability.ts";

/** Per-bin sums of a binned column pair. */
export interface _BinSums {
  readonly count: Float64Array;
  readonly sumP: Float64Array;
  readonly sumY: Float64Array;
  readonly sumW: Float64Array;
  readonly index: Int32Array;
}

/** Sum count, p, y (and optional weights) per bin, one pass. */
export function _binSums(
  p: ArrayLike<number>,
  y: ArrayLike<number>,
  edges: readonly number[],
  weights?: ArrayLike<number>,
): _BinSums {
  const bins = edges.length - 1;
  const count = new Float64Array(bins);
  const sumP = new Float64Array(bins);
  const sumY = new Float64Array(bins);
  const sumW = new Float64Array(bins);
  const index = new Int32Array(p.length);
  const ew = equalWidthEdges(bins);
  const equalWidth = edges.every((e, i) => e === ew[i]);
  for (let i = 0; i < p.length; i++) {
    const v = p[i];
    let b: number;
    if (equalWidth) {
      b = Math.min(bins - 1, Math.max(0, Math.ceil(v * bins) - 1));
      while (b > 0 && v <= edges[b]) b--;
      while (b < bins - 1 && v > edges[b + 1]) b++;
    } else {
      b = binIndex(edges, v);
    }
    index[i] = b;
    count[b] += 1;
    sumP[b] += v;
    sumY[b] += y[i];
    if (weights !== undefined) sumW[b] += weights[i];
  }
  return { count, sumP, sumY, sumW, index };
}

/** Build a diagram from per-bin sums. */
export function _diagramFromSums(
  strategy: BinStrategy,
  binsRequested: number,
  edges: readonly number[],
  count: ArrayLike<number>,
  sumP: ArrayLike<number>,
  sumY: ArrayLike<number>,
): ReliabilityDiagram {
  const bins: ReliabilityBin[] = [];
  let n = 0;
  let nonEmpty = 0;
  let weighted = 0;
  let mce = 0;
  for (let b = 0; b < edges.length - 1; b++) {
    const c = count[b];
    n += c;
    if (c === 0) {
      bins.push({
        lo: edges[b],
        hi: edges[b + 1],
        n: 0,
        meanConfidence: null,
        accuracy: null,
        gap: null,
      });
      continue;
    }
    nonEmpty++;
    const conf = sumP[b] / c;
    const acc = sumY[b] / c;
    const gap = acc - conf;
    weighted += c * Math.abs(gap);
    mce = Math.max(mce, Math.abs(gap));
    bins.push({
      lo: edges[b],
      hi: edges[b + 1],
      n: c,
      meanConfidence: conf,
      accuracy: acc,
      gap,
    });
  }
  return {
    strategy,
    binsRequested,
    edges: [...edges],
    nonEmptyBins: nonEmpty,
    n,
    bins,
    ece: n === 0 ? null : weighted / n,
    mce: n === 0 ? null : mce,
  };
}
