// The CLI's number formatter: decision rules exactly, measured quantities
// with every integer digit.
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  formatLevel,
  formatQuantity,
  formatRule,
} from "../../commands/_format.ts";
import { formatCount } from "../../lib/format/numbers.ts";
import { formatNumber } from "../../commands/_command.ts";
import {
  compareWithOne,
  exactBreakEven,
  parseDecimal,
} from "../../commands/_decimal.ts";
import { runCli } from "../_helpers.ts";

Deno.test("formatRule() prints the shortest decimal that reads back as the same double (property, seed 12)", () => {
  assert.equal(formatRule(0.000688084243799), "0.000688084243799");
  assert.equal(formatRule(0.30000000000000004), "0.30000000000000004");
  fc.assert(
    fc.property(fc.double({ min: 0, max: 1, noNaN: true }), (x) => {
      return Number(formatRule(x)) === x;
    }),
    { seed: 12, numRuns: 2000 },
  );
});

Deno.test('formatCount() groups thousands as toLocaleString("en-US") does, for every safe integer (property, seed 31)', () => {
  for (const n of [0, 7, 999, 1000, -1000, 100000, 1000000, -999999]) {
    assert.equal(formatCount(n), n.toLocaleString("en-US"));
  }
  fc.assert(
    fc.property(
      fc.oneof(
        fc.integer(),
        fc.maxSafeInteger(),
        fc.integer({ min: -1e7, max: 1e7 }),
      ),
      (n) => formatCount(n) === n.toLocaleString("en-US"),
    ),
    { seed: 31, numRuns: 3000 },
  );
  assert.throws(() => formatCount(1.5), /safe integer, got 1.5/);
  assert.throws(() => formatCount(2 ** 53), RangeError);
});

Deno.test("formatLevel() prints a level as an exact percentage: --ci 0.995 is 99.5%, never 100%", () => {
  assert.equal(formatLevel(0.995), "99.5%");
  assert.equal(formatLevel(0.95), "95%");
  assert.equal(formatLevel(0.9), "90%");
  assert.equal(formatLevel(0.999999), "99.9999%");
  assert.equal(formatLevel(0.5), "50%");
  assert.equal(formatLevel(0.0001), "0.01%");
  assert.equal(formatLevel(1e-7), "0.00001%");
  // k/100000 prints as the decimal k/1000 with a percent sign, for every k
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 99_999 }), (k) => {
      return formatLevel(k / 100_000) === `${k / 1000}%`;
    }),
    { seed: 12, numRuns: 2000 },
  );
});

Deno.test("formatQuantity() keeps every integer digit and rounds only the fraction", () => {
  assert.equal(formatQuantity(64_968_453), "64,968,453");
  assert.equal(formatNumber(64_968_453), "64,968,453");
  assert.equal(formatQuantity(64_968_453.4), "64,968,453");
  assert.equal(formatQuantity(1_234_567_890_123), "1,234,567,890,123");
  assert.equal(formatQuantity(104.4), "104.4");
  assert.equal(formatQuantity(33.21987654), "33.2199");
  assert.equal(formatQuantity(-408_282.25), "-408,282");
  assert.equal(formatQuantity(0.000123456789), "0.000123457");
  assert.equal(formatQuantity(0), "0");
  assert.equal(formatQuantity(null), "n/a");
  // property: the integer part is printed whole
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 2 ** 52 }), (n) => {
      return formatQuantity(n).replaceAll(",", "") === String(n);
    }),
    { seed: 12, numRuns: 1000 },
  );
});

Deno.test("parseDecimal() reads decimal text as an exact rational; p_j + C_e/C_r compares with 1 exactly", () => {
  assert.deepEqual(parseDecimal("0.08"), { num: 2n, den: 25n });
  assert.deepEqual(parseDecimal("1.5"), { num: 3n, den: 2n });
  assert.deepEqual(parseDecimal("-2e-3"), { num: -1n, den: 500n });
  assert.deepEqual(parseDecimal(".5"), { num: 1n, den: 2n });
  assert.equal(parseDecimal("abc"), null);
  assert.equal(parseDecimal(""), null);
  assert.equal(parseDecimal("."), null);
  const pStar = exactBreakEven(
    parseDecimal("0.08")!,
    parseDecimal("1.38")!,
    parseDecimal("1.5")!,
  );
  assert.deepEqual(pStar, { num: 1n, den: 1n });
  assert.equal(compareWithOne(pStar), 0);
  // while the doubles say otherwise
  assert.equal(0.08 + 1.38 / 1.5, 0.9999999999999999);
  // a hair below 1, beyond what a double can hold, is still below
  const below = exactBreakEven(
    parseDecimal("0.08")!,
    parseDecimal("1.37999999999999999999")!,
    parseDecimal("1.5")!,
  );
  assert.equal(compareWithOne(below), -1);
});

Deno.test("breakeven decides its regime on the decimal inputs exactly: --pj 0.08 --ce 1.38 --cr 1.5 never pays", async () => {
  let r = await runCli([
    "breakeven",
    "--pj",
    "0.08",
    "--ce",
    "1.38",
    "--cr",
    "1.5",
    "--json",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.regime, "never-pays");
  assert.equal(doc.pStar, 1);
  assert.equal(doc.pStarExact, "1/1");
  r = await runCli([
    "breakeven",
    "--pj",
    "0.08",
    "--ce",
    "1.38",
    "--cr",
    "1.5",
  ]);
  assert.match(r.stdout, /= 1 >= 1: escalation never pays/);
  // just below the boundary, a threshold, printed exactly
  r = await runCli([
    "breakeven",
    "--pj",
    "0.08",
    "--ce",
    "1.3799",
    "--cr",
    "1.5",
    "--json",
  ]);
  const below = JSON.parse(r.stdout);
  assert.equal(below.regime, "threshold");
  assert.equal(below.pStarExact, "14999/15000"); // 0.08 + 1.3799/1.5
  assert.equal(below.rule, `escalate iff P(wrong) > ${below.pStar}`);
});
