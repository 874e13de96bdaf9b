// Private to lib/calibration, lib/policy and lib/metrics: special functions for exact
// intervals and closed-form corrections. Log-gamma by Lanczos (g = 7, nine
// coefficients, about 1e-15 relative error), regularised incomplete gamma by
// series / continued fraction and regularised incomplete beta by Lentz's
// continued fraction (Numerical Recipes, 3rd ed., §6.2 and §6.4).

const LANCZOS = [
  0.99999999999980993,
  676.5203681218851,
  -1259.1392167224028,
  771.32342877765313,
  -176.61502916214059,
  12.507343278686905,
  -0.13857109526572012,
  9.9843695780195716e-6,
  1.5056327351493116e-7,
];

/** log Γ(x) for x > 0. */
export function _logGamma(x: number): number {
  if (x < 0.5) {
    // reflection: Γ(x) Γ(1 - x) = π / sin(πx)
    return Math.log(Math.PI / Math.sin(Math.PI * x)) - _logGamma(1 - x);
  }
  const z = x - 1;
  let a = LANCZOS[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t +
    Math.log(a);
}

const EPS = 1e-16;
const TINY = 1e-300;
const MAX_ITER = 100_000;

/** Regularised lower incomplete gamma P(a, x), a > 0, x >= 0. */
export function _gammaP(a: number, x: number): number {
  if (x <= 0) return 0;
  if (x < a + 1) return _gammaSeries(a, x);
  return 1 - _gammaContinued(a, x);
}

/** Regularised upper incomplete gamma Q(a, x) = 1 - P(a, x). */
export function _gammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  if (x < a + 1) return 1 - _gammaSeries(a, x);
  return _gammaContinued(a, x);
}

function _gammaSeries(a: number, x: number): number {
  let ap = a;
  let del = 1 / a;
  let sum = del;
  for (let n = 0; n < MAX_ITER; n++) {
    ap += 1;
    del *= x / ap;
    sum += del;
    if (Math.abs(del) < Math.abs(sum) * EPS) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - _logGamma(a));
}

function _gammaContinued(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_ITER; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return Math.exp(-x + a * Math.log(x) - _logGamma(a)) * h;
}

/** The standard normal CDF Φ(x), through erfc(z) = Q(1/2, z²). */
export function _normalCdf(x: number): number {
  if (x === Infinity) return 1;
  if (x === -Infinity) return 0;
  const z = x / Math.SQRT2;
  // Φ(x) = erfc(-z) / 2
  if (z < 0) return 0.5 * _gammaQ(0.5, z * z);
  return 0.5 * (1 + _gammaP(0.5, z * z));
}

/** Regularised incomplete beta I_x(a, b), a, b > 0, x in [0, 1]. */
export function _betaInc(a: number, b: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(
    _logGamma(a + b) - _logGamma(a) - _logGamma(b) + a * Math.log(x) +
      b * Math.log1p(-x),
  );
  if (x < (a + 1) / (a + b + 2)) return (front * _betaContinued(a, b, x)) / a;
  return 1 - (front * _betaContinued(b, a, 1 - x)) / b;
}

function _betaContinued(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < MAX_ITER; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < EPS) break;
  }
  return h;
}

/** The x with I_x(a, b) = q, by bisection to the last bit. */
export function _betaQuantile(q: number, a: number, b: number): number {
  if (q <= 0) return 0;
  if (q >= 1) return 1;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (_betaInc(a, b, mid) < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
