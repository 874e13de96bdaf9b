// Private: exact rational arithmetic on BigInt, for crossovers and tie checks
// that must not depend on floating-point rounding. A number enters as the
// exact value of its shortest round-trip decimal (`String(x)`), so 0.2 is
// 1/5, not the binary double nearest to it; a result leaves as the double
// nearest the exact rational (round half to even).

/** A rational number num/den with den > 0, in lowest terms. */
export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

const ZERO: Rational = { num: 0n, den: 1n };

function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function make(num: bigint, den: bigint): Rational {
  if (den === 0n) throw new RangeError("Cannot divide by a zero rational");
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  if (num === 0n) return ZERO;
  const g = gcd(num, den);
  return g === 1n ? { num, den } : { num: num / g, den: den / g };
}

/** The exact value of a finite number's shortest round-trip decimal. */
export function rat(x: number): Rational {
  if (!Number.isFinite(x)) {
    throw new RangeError(`Cannot take the exact value of ${x}`);
  }
  if (Number.isInteger(x) && Number.isSafeInteger(x)) {
    return { num: BigInt(x), den: 1n };
  }
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x));
  if (m === null) throw new RangeError(`Cannot parse ${x} as a decimal`);
  const [, sign, int, frac = "", exp = "0"] = m;
  let num = BigInt(int + frac);
  let den = 10n ** BigInt(frac.length);
  const e = Number(exp);
  if (e >= 0) num *= 10n ** BigInt(e);
  else den *= 10n ** BigInt(-e);
  return make(sign === "-" ? -num : num, den);
}

/** a + b. */
export function add(a: Rational, b: Rational): Rational {
  return make(a.num * b.den + b.num * a.den, a.den * b.den);
}

/** a - b. */
export function sub(a: Rational, b: Rational): Rational {
  return make(a.num * b.den - b.num * a.den, a.den * b.den);
}

/** a × b. */
export function mul(a: Rational, b: Rational): Rational {
  return make(a.num * b.num, a.den * b.den);
}

/** a / b; throws on b = 0. */
export function div(a: Rational, b: Rational): Rational {
  return make(a.num * b.den, a.den * b.num);
}

/** -1, 0 or 1 as a is below, equal to or above b. */
export function cmp(a: Rational, b: Rational): number {
  const d = a.num * b.den - b.num * a.den;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** The sign of a: -1, 0 or 1. */
export function sign(a: Rational): number {
  return a.num < 0n ? -1 : a.num > 0n ? 1 : 0;
}

function bitLength(v: bigint): number {
  return v === 0n ? 0 : v.toString(2).length;
}

/**
 * The double nearest to a (ties to even), for every result of magnitude
 * 2^-1022 or more; a subnormal result may be off by one unit in the last place.
 */
export function toNumber(a: Rational): number {
  if (a.num === 0n) return 0;
  const negative = a.num < 0n;
  const n = negative ? -a.num : a.num;
  const d = a.den;
  // Choose e so that q = floor(n / d / 2^e) has exactly 53 bits.
  let e = bitLength(n) - bitLength(d) - 53;
  let q = 0n;
  let r = 0n;
  let D = d;
  for (;;) {
    const N = e >= 0 ? n : n << BigInt(-e);
    D = e >= 0 ? d << BigInt(e) : d;
    q = N / D;
    r = N % D;
    if (q >= 1n << 53n) e += 1;
    else if (q < 1n << 52n) e -= 1;
    else break;
  }
  const twice = 2n * r;
  if (twice > D || (twice === D && (q & 1n) === 1n)) q += 1n;
  // Below 2^-1022 the result is subnormal and rounds a second time.
  const v = e < -1074
    ? Number(q) * 2 ** (e + 600) * 2 ** -600
    : Number(q) * 2 ** e;
  return negative ? -v : v;
}

/** "num/den", or "num" when den is 1. */
export function ratString(a: Rational): string {
  return a.den === 1n ? String(a.num) : `${a.num}/${a.den}`;
}

/** The rational zero. */
export const RAT_ZERO: Rational = ZERO;
