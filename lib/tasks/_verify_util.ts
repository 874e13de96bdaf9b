// Private to the verifiers: parsing and comparing field values, written
// independently of the generators (which never import this file).

const DECIMAL2 = /^(0|[1-9][0-9]*)\.([0-9]{2})$/;
const DECIMAL6 = /^(0|[1-9][0-9]*)\.([0-9]{6})$/;
const ISO_DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const ISO_MINUTE = /^([0-9]{4}-[0-9]{2}-[0-9]{2})T([0-9]{2}):([0-9]{2})Z$/;
const MS_PER_DAY = 86_400_000;

/** Cents of a two-decimal string, or null when it is not one. */
export function cents(text: string): bigint | null {
  const m = DECIMAL2.exec(text);
  return m === null ? null : BigInt(m[1]) * 100n + BigInt(m[2]);
}

/** Millionths of a six-decimal string, or null when it is not one. */
export function micros(text: string | null): bigint | null {
  if (text === null) return null;
  const m = DECIMAL6.exec(text);
  return m === null ? null : BigInt(m[1]) * 1_000_000n + BigInt(m[2]);
}

/** a * b / 1e6 rounded half up, for non-negative values. */
export function mulMicrosRounded(a: bigint, rateMicros: bigint): bigint {
  const p = a * rateMicros;
  const q = p / 1_000_000n;
  return p % 1_000_000n >= 500_000n ? q + 1n : q;
}

/** A calendar date: days since 1970-01-01 and the day of week (0 Sunday). */
export interface CalendarDay {
  /** Days since 1970-01-01. */
  day: number;
  /** 0 Sunday ... 6 Saturday. */
  dow: number;
}

/** Parse `YYYY-MM-DD` as a real calendar date, or null. */
export function calendarDay(text: string): CalendarDay | null {
  const m = ISO_DATE.exec(text);
  if (m === null) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  if (
    date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 ||
    date.getUTCDate() !== d
  ) return null;
  return {
    day: Math.floor(date.getTime() / MS_PER_DAY),
    dow: date.getUTCDay(),
  };
}

/** Roll a Saturday or Sunday forward to Monday; other days stay. */
export function rollForward(d: CalendarDay): number {
  return d.dow === 6 ? d.day + 2 : d.dow === 0 ? d.day + 1 : d.day;
}

/** Minutes since 1970-01-01T00:00Z of `YYYY-MM-DDTHH:MMZ`, or null. */
export function minuteOf(text: string): number | null {
  const m = ISO_MINUTE.exec(text);
  if (m === null) return null;
  const d = calendarDay(m[1]);
  const h = Number(m[2]);
  const mi = Number(m[3]);
  if (d === null || h > 23 || mi > 59) return null;
  return d.day * 1440 + h * 60 + mi;
}

/** Minutes of `HH:MM`. */
export function clockMinutes(text: string): number {
  const [h, m] = text.split(":");
  return Number(h) * 60 + Number(m);
}

/** Reference normalisation: upper-case, without spaces, hyphens and slashes. */
export function normalReference(ref: string): string {
  return ref.toUpperCase().replace(/[ \-/]/g, "");
}

/** Words of a name after normalisation, legal forms dropped. */
export function nameWords(
  name: string,
  legalForms: readonly string[],
): Set<string> {
  const words = name.toUpperCase().replace(/[^A-Z0-9]/g, " ").split(" ");
  const out = new Set<string>();
  for (const w of words) if (w !== "" && !legalForms.includes(w)) out.add(w);
  return out;
}

/** Shared and total word counts of two word sets. */
export function overlap(
  a: Set<string>,
  b: Set<string>,
): { shared: number; union: number } {
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return { shared, union: a.size + b.size - shared };
}

/** The 11-character form of a BIC (8 characters means branch XXX). */
export function bic11(bic: string): string {
  return bic.length === 8 ? bic + "XXX" : bic;
}

/** IBAN normalisation: no spaces, upper-case. */
export function normalIban(iban: string): string {
  return iban.replace(/ /g, "").toUpperCase();
}

/** ISO 7064 mod 97-10 of an alphanumeric string after moving 4 characters to the end. */
export function ibanRemainder(iban: string): number {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (const ch of moved) {
    const code = ch.charCodeAt(0);
    const value = code >= 65 && code <= 90 ? String(code - 55) : ch;
    for (const digit of value) rem = (rem * 10 + Number(digit)) % 97;
  }
  return rem;
}
