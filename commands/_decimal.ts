// Private to the CLI: a flag's decimal text as the exact rational it
// writes, so that a rule decided on user input (breakeven's regime) does not
// depend on how the double nearest to it rounds. `0.08` is 8/100 exactly,
// not the double 0.08000000000000000166…
import { type Rational, toNumber } from "../lib/sensitivity/_rational.ts";

/** The exact value of a decimal literal (`-1.5`, `0.08`, `1e-3`, `.5`), or `null` when it is not one. */
export function parseDecimal(text: string): Rational | null {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text);
  if (m === null) return null;
  const [, sign, int, frac = "", exp = "0"] = m;
  if (int === "" && frac === "") return null;
  let num = BigInt((int || "0") + frac);
  let den = 10n ** BigInt(frac.length);
  const e = Number(exp);
  if (!Number.isSafeInteger(e) || Math.abs(e) > 400) return null;
  if (e >= 0) num *= 10n ** BigInt(e);
  else den *= 10n ** BigInt(-e);
  if (sign === "-") num = -num;
  const g = gcd(num < 0n ? -num : num, den);
  return { num: num / g, den: den / g };
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}

/** p_j + C_e / C_r exactly; C_r must be non-zero. */
export function exactBreakEven(
  pj: Rational,
  ce: Rational,
  cr: Rational,
): Rational {
  // pj.num/pj.den + (ce.num/ce.den) / (cr.num/cr.den)
  let num = pj.num * ce.den * cr.num + ce.num * cr.den * pj.den;
  let den = pj.den * ce.den * cr.num;
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const g = gcd(num < 0n ? -num : num, den);
  return { num: num / g, den: den / g };
}

/** -1, 0 or 1 as the rational is below, equal to or above 1. */
export function compareWithOne(a: Rational): number {
  return a.num < a.den ? -1 : a.num > a.den ? 1 : 0;
}

/** The double nearest to the rational (ties to even). */
export function nearestDouble(a: Rational): number {
  return toNumber(a);
}
