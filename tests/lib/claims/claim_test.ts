import assert from "node:assert/strict";
import {
  assertClaims,
  claimClose,
  claimEqual,
  countClaimsByKind,
} from "../../../lib/claims/mod.ts";

Deno.test("claimClose() holds within the tolerance and fails just outside it", () => {
  assert.equal(
    claimClose("a", "s", 0.387, 0.3874, { kind: "property", tolerance: 0.0005 })
      .holds,
    true,
  );
  assert.equal(
    claimClose("a", "s", 0.387, 0.3876, { kind: "property", tolerance: 0.0005 })
      .holds,
    false,
  );
  assert.equal(
    claimClose("a", "s", 1, 1 + 1e-12, { kind: "property" }).holds,
    true,
  );
  assert.equal(
    claimClose("a", "s", 1, 1 + 1e-6, { kind: "property" }).holds,
    false,
  );
});

Deno.test("claimClose() never holds for an unknown or non-finite actual", () => {
  assert.equal(
    claimClose("a", "s", 0, null, { kind: "property" }).holds,
    false,
  );
  assert.equal(claimClose("a", "s", 0, NaN, { kind: "property" }).holds, false);
  assert.equal(
    claimClose("a", "s", 0, Infinity, { kind: "property", tolerance: 1e300 })
      .holds,
    false,
  );
  assert.throws(
    () => claimClose("a", "s", 0, 0, { kind: "property", tolerance: -1 }),
    RangeError,
  );
});

Deno.test("claimEqual() compares exactly and records the source", () => {
  const c = claimEqual("w", "B wins", "B", "B", {
    kind: "published",
    source: "third-number",
  });
  assert.deepEqual(c, {
    id: "w",
    statement: "B wins",
    kind: "published",
    expected: "B",
    actual: "B",
    tolerance: 0,
    holds: true,
    source: "third-number",
  });
  assert.equal(
    claimEqual("w", "B wins", "B", "A", { kind: "property" }).holds,
    false,
  );
  assert.equal(
    claimEqual("n", "unknown", null, null, { kind: "property" }).holds,
    true,
  );
});

Deno.test("assertClaims() lists every failing claim with expected and actual", () => {
  const claims = [
    claimClose("ok", "fine", 1, 1, { kind: "property" }),
    claimClose("bad.one", "first", 2, 3, { kind: "property" }),
    claimEqual("bad.two", "second", "A", "B", { kind: "property" }),
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

Deno.test("claimClose() and claimEqual() refuse a published claim without a source", () => {
  assert.throws(
    () => claimClose("p", "s", 1, 1, { kind: "published" }),
    (e: unknown) =>
      e instanceof TypeError &&
      /p: a published claim must name its source/.test(e.message),
  );
  assert.throws(
    () => claimEqual("p", "s", 1, 1, { kind: "published", source: " " }),
    TypeError,
  );
});

Deno.test("claimClose() and claimEqual() refuse a derived claim that does not say how", () => {
  assert.throws(
    () => claimClose("d", "s", 1, 1, { kind: "derived" }),
    /d: a derived claim must say how/,
  );
  const c = claimEqual("d", "s", 2, 2, { kind: "derived", how: "1 + 1" });
  assert.equal(c.how, "1 + 1");
  assert.equal(c.kind, "derived");
});

Deno.test("claimClose() refuses an unknown kind", () => {
  assert.throws(
    // @ts-expect-error: an unknown kind, as JavaScript callers can pass
    () => claimClose("u", "s", 1, 1, { kind: "guess" }),
    RangeError,
  );
});

Deno.test("countClaimsByKind() counts every kind, holding and failing, and lists absent kinds as zero", () => {
  const claims = [
    claimClose("a", "s", 1, 1, {
      kind: "published",
      source: "third-number: x",
    }),
    claimClose("b", "s", 1, 2, {
      kind: "published",
      source: "third-number: x",
    }),
    claimEqual("c", "s", true, true, { kind: "property" }),
  ];
  assert.deepEqual(countClaimsByKind(claims), {
    published: { total: 2, holding: 1, failed: 1 },
    derived: { total: 0, holding: 0, failed: 0 },
    property: { total: 1, holding: 1, failed: 0 },
  });
});
