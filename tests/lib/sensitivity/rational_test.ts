import assert from "node:assert/strict";
import fc from "fast-check";
import {
  add,
  cmp,
  div,
  mul,
  rat,
  ratString,
  sub,
  toNumber,
} from "../../../lib/sensitivity/_rational.ts";

const FC = { seed: 20_261_106, numRuns: 1000 } as const;

Deno.test("rat() reads the shortest decimal and toNumber() returns the same double", () => {
  fc.assert(
    fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
      fc.pre(x === 0 || Math.abs(x) >= 2 ** -1022);
      assert.equal(toNumber(rat(x)), x === 0 ? 0 : x);
    }),
    FC,
  );
  assert.equal(ratString(rat(0.2)), "1/5");
  assert.equal(ratString(rat(1e21)), "1000000000000000000000");
  assert.equal(ratString(rat(-1.5e-7)), "-3/20000000");
  assert.throws(() => rat(Infinity), RangeError);
});

Deno.test("toNumber() of a quotient of integers equals the correctly rounded JavaScript division", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: -(2 ** 53) + 1, max: 2 ** 53 - 1 }),
      fc.integer({ min: 1, max: 2 ** 53 - 1 }),
      (a, b) => {
        assert.equal(toNumber(div(rat(a), rat(b))), a / b);
      },
    ),
    FC,
  );
});

Deno.test("add(), sub(), mul(), div() and cmp() follow the field laws on decimals", () => {
  const dec = fc.integer({ min: -1_000_000, max: 1_000_000 }).map((k) =>
    k / 1000
  );
  fc.assert(
    fc.property(dec, dec, dec, (x, y, z) => {
      const [a, b, c] = [rat(x), rat(y), rat(z)];
      assert.equal(cmp(add(add(a, b), c), add(a, add(b, c))), 0);
      assert.equal(cmp(mul(a, add(b, c)), add(mul(a, b), mul(a, c))), 0);
      assert.equal(cmp(sub(add(a, b), b), a), 0);
      if (y !== 0) assert.equal(cmp(mul(div(a, b), b), a), 0);
      assert.equal(cmp(a, b), Math.sign(x - y));
    }),
    FC,
  );
  // 0.1 + 0.2 is 3/10 exactly, not 0.30000000000000004.
  assert.equal(toNumber(add(rat(0.1), rat(0.2))), 0.3);
});
