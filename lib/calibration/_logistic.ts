// Private to lib/calibration: log-odds, the logistic function and softplus,
// computed without overflow.

/** Probabilities are clipped to [1e-12, 1 − 1e-12] before taking log-odds. */
const LOGIT_CLIP = 1e-12;

/** log(p / (1 − p)) of a probability clipped to [1e-12, 1 − 1e-12]. */
export function _logit(p: number): number {
  const q = Math.min(1 - LOGIT_CLIP, Math.max(LOGIT_CLIP, p));
  return Math.log(q / (1 - q));
}

/** The logistic function, computed without overflow. */
export function _sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/** log(1 + e^z) without overflow. */
export function _softplus(z: number): number {
  return z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z));
}
