import assert from "node:assert/strict";
import {
  assertClaims,
  claimClose,
  claimEqual,
} from "../../../lib/claims/mod.ts";

Deno.test("claimClose() holds within the tolerance and fails just outside it", () => {
  assert.equal(
    claimClose("a", "s", 0.387, 0.3874, { tolerance: 0.0005 }).holds,
    true,
  );
  assert.equal(
    claimClose("a", "s", 0.387, 0.3876, { tolerance: 0.0005 }).holds,
    false,
  );
  assert.equal(claimClose("a", "s", 1, 1 + 1e-12).holds, true);
  assert.equal(claimClose("a", "s", 1, 1 + 1e-6).holds, false);
});

Deno.test("claimClose() never holds for an unknown or non-finite actual", () => {
  assert.equal(claimClose("a", "s", 0, null).holds, false);
  assert.equal(claimClose("a", "s", 0, NaN).holds, false);
  assert.equal(
    claimClose("a", "s", 0, Infinity, { tolerance: 1e300 }).holds,
    false,
  );
  assert.throws(
    () => claimClose("a", "s", 0, 0, { tolerance: -1 }),
    RangeError,
  );
});

Deno.test("claimEqual() compares exactly and records the source", () => {
  const c = claimEqual("w", "B wins", "B", "B", { source: "third-number" });
  assert.deepEqual(c, {
    id: "w",
    statement: "B wins",
    expected: "B",
    actual: "B",
    tolerance: 0,
    holds: true,
    source: "third-number",
  });
  assert.equal(claimEqual("w", "B wins", "B", "A").holds, false);
  assert.equal(claimEqual("n", "unknown", null, null).holds, true);
});

Deno.test("assertClaims() lists every failing claim with expected and actual", () => {
  const claims = [
    claimClose("ok", "fine", 1, 1),
    claimClose("bad.one", "first", 2, 3),
    claimEqual("bad.two", "second", "A", "B"),
  ];
  assert.throws(() => assertClaims(claims), (e: Error) => {
    assert.match(e.message, /^2 of 3 claims failed:/);
    assert.match(
      e.message,
      /bad\.one: first: expected 2, got 3 \(tolerance 1e-9\)/,
    );
    assert.match(e.message, /bad\.two: second: expected "A", got "B"/);
    assert.doesNotMatch(e.message, /ok:/);
    return true;
  });
  assertClaims([]);
});
