import assert from "node:assert/strict";
import {
  defineProfile,
  isFlatProfile,
  isSeverity,
  profileSpan,
  SEVERITIES,
  severityRank,
} from "../../../lib/costs/mod.ts";

Deno.test("severityRank() orders LOW < MEDIUM < HIGH < CRITICAL", () => {
  assert.deepEqual(SEVERITIES.map(severityRank), [0, 1, 2, 3]);
  assert.throws(() => severityRank("SEVERE" as never), RangeError);
  assert.equal(isSeverity("CRITICAL"), true);
  assert.equal(isSeverity("critical"), false);
  assert.equal(isSeverity(3), false);
});

Deno.test("defineProfile() fills documented defaults and freezes the result", () => {
  const p = defineProfile({
    id: "x",
    K: { LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 },
    reviewCost: 0,
  });
  assert.equal(p.judgeCost, 0);
  assert.equal(p.version, "user");
  assert.deepEqual(p.sources, []);
  assert.ok(Object.isFrozen(p) && Object.isFrozen(p.K));
});

Deno.test("defineProfile() rejects a negative, infinite or non-numeric cost", () => {
  const K = { LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 };
  assert.throws(
    () => defineProfile({ id: "x", K: { ...K, HIGH: -3 }, reviewCost: 1 }),
    {
      name: "RangeError",
      message:
        'Cannot define cost profile "x": K.HIGH must be a finite number >= 0, got -3',
    },
  );
  assert.throws(
    () => defineProfile({ id: "x", K: { ...K, LOW: Infinity }, reviewCost: 1 }),
    RangeError,
  );
  assert.throws(
    () => defineProfile({ id: "x", K: { ...K, LOW: NaN }, reviewCost: 1 }),
    RangeError,
  );
  assert.throws(
    () => defineProfile({ id: "x", K, reviewCost: -1 }),
    /reviewCost must be a finite number >= 0/,
  );
  assert.throws(
    () => defineProfile({ id: "x", K, reviewCost: 1, judgeCost: -0.1 }),
    /judgeCost/,
  );
  assert.throws(
    () =>
      defineProfile({
        id: "x",
        K: { ...K, MEDIUM: "2" as unknown as number },
        reviewCost: 1,
      }),
    /K\.MEDIUM must be a finite number >= 0, got "2"/,
  );
});

Deno.test("defineProfile() rejects an unknown or missing severity and an empty id", () => {
  const K = { LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 };
  assert.throws(
    () =>
      defineProfile({
        id: "x",
        K: { ...K, SEVERE: 9 } as never,
        reviewCost: 1,
      }),
    { name: "TypeError", message: /K has unknown severity "SEVERE"/ },
  );
  const { CRITICAL: _, ...missing } = K;
  assert.throws(
    () => defineProfile({ id: "x", K: missing as never, reviewCost: 1 }),
    /K\.CRITICAL is missing/,
  );
  assert.throws(() => defineProfile({ id: " ", K, reviewCost: 1 }), TypeError);
});

Deno.test("profileSpan() is CRITICAL / LOW and null when LOW costs nothing", () => {
  const p = defineProfile({
    id: "x",
    K: { LOW: 2, MEDIUM: 3, HIGH: 4, CRITICAL: 50 },
    reviewCost: 1,
  });
  assert.equal(profileSpan(p), 25);
  assert.equal(
    profileSpan(
      defineProfile({ id: "z", K: { ...p.K, LOW: 0 }, reviewCost: 1 }),
    ),
    null,
  );
  assert.equal(isFlatProfile(p), false);
});
