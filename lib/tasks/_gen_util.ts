// Private to the generators: building realistic field values from a task
// generator. Nothing here decides a label; the verifiers never import it.
import { chance, drawInt, pick, type TaskRng } from "./task_rng.ts";

/** Days since 1970-01-01 for the first and last day generators use (2023-01-02 .. 2026-12-31). */
export const DAY_MIN = 19359;
export const DAY_MAX = 20818;

/** Civil date of a day number (Howard Hinnant's days_from_civil inverse). */
export function dayToIso(day: number): string {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) -
      Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${
    String(d).padStart(2, "0")
  }`;
}

/** Day of week of a day number: 0 Sunday ... 6 Saturday. */
export function weekday(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

/** True on Saturday and Sunday. */
export function isWeekendDay(day: number): boolean {
  const w = weekday(day);
  return w === 0 || w === 6;
}

/** A random business day (Monday-Friday) in the generator's window. */
export function businessDay(
  rng: TaskRng,
  min = DAY_MIN,
  max = DAY_MAX,
): number {
  let d = drawInt(rng, min, max);
  while (isWeekendDay(d)) d++;
  return d;
}

/** A random Saturday or Sunday in the window. */
export function weekendDay(rng: TaskRng): number {
  let d = drawInt(rng, DAY_MIN, DAY_MAX - 7);
  while (weekday(d) !== 6) d++;
  return d + drawInt(rng, 0, 1);
}

/** The day number of the next Monday after a weekend day, or the day itself. */
export function nextBusinessDay(day: number): number {
  const w = weekday(day);
  return w === 6 ? day + 2 : w === 0 ? day + 1 : day;
}

/** Cents to a decimal string with two decimals. */
export function centsToDecimal(cents: number | bigint): string {
  const c = BigInt(cents);
  const sign = c < 0n ? "-" : "";
  const a = c < 0n ? -c : c;
  return `${sign}${a / 100n}.${String(a % 100n).padStart(2, "0")}`;
}

/** Micro-units (1e-6) to a decimal string with six decimals. */
export function microsToDecimal(micros: number): string {
  return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, "0")}`;
}

/** A random amount in cents, spread over 1.00 .. 99,999,999.99 by magnitude. */
export function amountCents(rng: TaskRng, minExp = 2, maxExp = 9): number {
  const e = drawInt(rng, minExp, maxExp);
  return drawInt(rng, 10 ** e, 10 ** (e + 1) - 1);
}

/** Round half up of a / b for non-negative bigints. */
export function divRound(a: bigint, b: bigint): bigint {
  return (2n * a + b) / (2n * b);
}

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";
const ALNUM = UPPER + DIGITS;
const HEX = "0123456789abcdef";

/** `n` characters drawn from `alphabet`. */
export function chars(rng: TaskRng, alphabet: string, n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) {
    s += alphabet[drawInt(rng, 0, alphabet.length - 1)];
  }
  return s;
}

/** Replace the character at `i` by a different one of `alphabet`. */
export function changeChar(
  rng: TaskRng,
  s: string,
  i: number,
  alphabet: string,
): string {
  let c = s[i];
  while (c === s[i]) c = alphabet[drawInt(rng, 0, alphabet.length - 1)];
  return s.slice(0, i) + c + s.slice(i + 1);
}

const BIC_COUNTRIES = [
  "DE",
  "FR",
  "GB",
  "NL",
  "BE",
  "ES",
  "CH",
  "SE",
  "US",
  "CA",
  "IT",
  "DK",
  "NO",
];

/** A random BIC: 8 characters, or 11 with a branch code. */
export function randomBic(
  rng: TaskRng,
  country = pick(rng, BIC_COUNTRIES),
): string {
  const bic8 = chars(rng, UPPER, 4) + country + chars(rng, ALNUM, 2);
  return chance(rng, 500)
    ? bic8
    : bic8 + (chance(rng, 500) ? "XXX" : chars(rng, ALNUM, 3));
}

/** The other spelling of the same BIC: 8 <-> 11 with branch XXX, when it has one. */
export function bicAlias(bic: string): string | null {
  if (bic.length === 8) return bic + "XXX";
  if (bic.endsWith("XXX")) return bic.slice(0, 8);
  return null;
}

/** Change one character of a BIC's bank, location or branch code, keeping it well formed. */
export function bicOneOff(rng: TaskRng, bic: string): string {
  const i = pick(
    rng,
    bic.length === 11 ? [0, 1, 2, 3, 6, 7, 8, 9, 10] : [0, 1, 2, 3, 6, 7],
  );
  return changeChar(rng, bic, i, i < 4 ? UPPER : ALNUM);
}

const NAME_FIRST = [
  "Northwind",
  "Contoso",
  "Fabrikam",
  "Tailspin",
  "Litware",
  "Proseware",
  "Wingtip",
  "Adatum",
  "Woodgrove",
  "Lucerne",
  "Alpine",
  "Baltic",
  "Cobalt",
  "Delta",
  "Ember",
  "Fjord",
  "Granite",
  "Harbor",
  "Iberia",
  "Juniper",
  "Kestrel",
  "Lumen",
  "Meridian",
  "Nordic",
  "Orchid",
  "Pioneer",
  "Quarry",
  "Riverside",
  "Summit",
  "Thames",
  "Umbra",
  "Vertex",
  "Willow",
  "Zenith",
  "Atlas",
  "Beacon",
  "Cedar",
  "Dune",
  "Evergreen",
  "Falcon",
];
const NAME_SECOND = [
  "Trading",
  "Logistics",
  "Capital",
  "Foods",
  "Textiles",
  "Pharma",
  "Energy",
  "Marine",
  "Software",
  "Metals",
  "Chemicals",
  "Freight",
  "Retail",
  "Media",
  "Farms",
  "Motors",
  "Paper",
  "Glass",
  "Timber",
  "Optics",
  "Steel",
  "Tools",
  "Labs",
  "Brands",
];
const NAME_THIRD = [
  "Europe",
  "Holdings",
  "Group",
  "International",
  "Partners",
  "Services",
  "Nordic",
  "Iberica",
  "Benelux",
  "Industries",
  "Solutions",
  "Systems",
];
const LEGAL = [
  "Ltd",
  "GmbH",
  "AG",
  "SA",
  "PLC",
  "Inc",
  "LLC",
  "BV",
  "NV",
  "SpA",
  "SARL",
  "Limited",
  "Corp",
  "Co",
];
export const NAME_EXTRA = [
  "Worldwide",
  "Direct",
  "Global",
  "Trust",
  "Union",
  "Works",
  "Supply",
  "Export",
];

/** A company name split into its core words and a legal form. */
export interface CompanyName {
  /** Core words (2-4). */
  words: string[];
  /** Legal form suffix, or "". */
  legal: string;
}

/** A random company name with 2 to 4 core words. */
export function randomName(
  rng: TaskRng,
  coreWords = drawInt(rng, 2, 4),
): CompanyName {
  const words = [pick(rng, NAME_FIRST), pick(rng, NAME_SECOND)];
  if (coreWords >= 3) words.push(pick(rng, NAME_THIRD));
  if (coreWords >= 4) words.push(pick(rng, NAME_EXTRA));
  return { words, legal: chance(rng, 800) ? pick(rng, LEGAL) : "" };
}

/** Render a name the plain way: words, then the legal form. */
export function renderName(n: CompanyName): string {
  return n.legal === "" ? n.words.join(" ") : `${n.words.join(" ")} ${n.legal}`;
}

/** Render a name with cosmetic differences only: case, punctuation, legal form. */
export function cosmeticName(rng: TaskRng, n: CompanyName): string {
  switch (drawInt(rng, 0, 3)) {
    case 0:
      return renderName(n).toUpperCase();
    case 1:
      return `${n.words.join(", ")}${n.legal === "" ? "" : ` ${n.legal}.`}`;
    case 2:
      return renderName({ words: n.words, legal: pick(rng, LEGAL) });
    default:
      return renderName({ words: n.words, legal: "" }).toLowerCase();
  }
}

/** A different word from the name pools, not already in `avoid`. */
export function otherWord(rng: TaskRng, avoid: readonly string[]): string {
  const pool = [...NAME_FIRST, ...NAME_SECOND, ...NAME_THIRD, ...NAME_EXTRA];
  let w = pick(rng, pool);
  while (avoid.includes(w)) w = pick(rng, pool);
  return w;
}

/** A payment reference such as `INV-2024-004512` (13 characters once normalised). */
export function randomReference(rng: TaskRng): string {
  const prefix = pick(rng, ["INV", "PO", "SO", "PAY", "REF", "CN", "BIL"]);
  return `${prefix}-${drawInt(rng, 2021, 2026)}-${
    chars(rng, DIGITS, drawInt(rng, 6, 8))
  }`;
}

/** A version-4 UUID from 122 random bits. */
export function randomUuid(rng: TaskRng): string {
  const h = chars(rng, HEX, 32);
  const variant = HEX[8 + drawInt(rng, 0, 3)];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${
    h.slice(17, 20)
  }-${h.slice(20, 32)}`;
}

export { ALNUM, DIGITS, HEX, UPPER };
