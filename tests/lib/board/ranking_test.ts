// Holm's adjustment, the compact letter display and the rank intervals of
// board's ranking.
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  compactLetters,
  holmAdjust,
  rankModels,
} from "../../../lib/board/ranking.ts";

const FC = { seed: 20_261_203, numRuns: 300 } as const;

Deno.test("holmAdjust gives the step-down adjusted p-values (checked by hand against the definition)", () => {
  // sorted 0.001, 0.01, 0.02, 0.03, 0.5: x5, x4, x3, x2, x1, running maximum
  const got = holmAdjust([0.02, 0.001, 0.5, 0.01, 0.03]);
  const want = [0.06, 0.005, 0.5, 0.04, 0.06];
  got.forEach((g, i) => assert.ok(Math.abs(g - want[i]) < 1e-15, `${i}: ${g}`));
  assert.deepEqual(holmAdjust([0.3, 0.2]), [0.4, 0.4]);
  assert.deepEqual(holmAdjust([1, 0]), [1, 0]);
  assert.throws(
    () => holmAdjust([0.1, Number.NaN]),
    /p-value 1 must be in \[0, 1\]/,
  );
});

Deno.test("holmAdjust rejects at alpha exactly what the step-down procedure rejects", () => {
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
      fc.double({ min: 0.001, max: 0.2, noNaN: true }),
      (p, alpha) => {
        const adjusted = holmAdjust(p);
        // the procedure: walk up the sorted p-values while p(k) <= alpha / (m - k)
        const order = p.map((_, i) => i).sort((x, y) => p[x] - p[y] || x - y);
        const rejected = new Set<number>();
        for (let k = 0; k < order.length; k++) {
          if (p[order[k]] * (order.length - k) <= alpha) rejected.add(order[k]);
          else break;
        }
        return p.every((_, i) => (adjusted[i] <= alpha) === rejected.has(i));
      },
    ),
    FC,
  );
});

Deno.test("compactLetters: two items share a letter exactly when they are not told apart, and no letter is redundant", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 2, max: 9 }).chain((n) =>
        fc.tuple(
          fc.constant(n),
          fc.uniqueArray(
            fc.tuple(fc.nat(n - 1), fc.nat(n - 1)).filter(([i, j]) => i < j),
            { selector: ([i, j]) => `${i}/${j}`, maxLength: 20 },
          ),
        )
      ),
      ([n, apart]) => {
        const letters = compactLetters(n, apart);
        const isApart = new Set(apart.map(([i, j]) => `${i}/${j}`));
        for (let i = 0; i < n; i++) {
          if (letters[i].length === 0) return false;
          for (let j = i + 1; j < n; j++) {
            const share = letters[i].some((l) => letters[j].includes(l));
            if (share === isApart.has(`${i}/${j}`)) return false;
          }
        }
        // absorbed: no letter's items are all under another letter
        const items = new Map<string, number[]>();
        letters.forEach((ls, i) =>
          ls.forEach((l) => items.set(l, [...(items.get(l) ?? []), i]))
        );
        const cols = [...items.values()];
        return cols.every((c, k) =>
          !cols.some((d, l) => l !== k && c.every((x) => d.includes(x)))
        );
      },
    ),
    FC,
  );
});

Deno.test("compactLetters names letters from the first item on, past z", () => {
  // five items each apart from all others: five letters a..e
  const all: [number, number][] = [];
  for (let i = 0; i < 5; i++) for (let j = i + 1; j < 5; j++) all.push([i, j]);
  assert.deepEqual(compactLetters(5, all), [["a"], ["b"], ["c"], ["d"], ["e"]]);
  const many: [number, number][] = [];
  for (let i = 0; i < 28; i++) {
    for (let j = i + 1; j < 28; j++) many.push([i, j]);
  }
  const letters = compactLetters(28, many);
  assert.deepEqual(letters.slice(24).map((l) => l[0]), ["y", "z", "aa", "ab"]);
  assert.throws(() => compactLetters(2, [[0, 2]]), /must name two items of 2/);
  assert.throws(() => compactLetters(2, [[1, 1]]), /must name two items of 2/);
});

Deno.test("rankModels: the rank interval counts the models significantly better and worse", () => {
  // four models; only 0 < 3 and 1 < 3 are told apart
  const r = rankModels([1, 2, 3, 9], [
    { a: 0, b: 1, difference: -1, pValue: 0.5 },
    { a: 0, b: 2, difference: -2, pValue: 0.2 },
    { a: 0, b: 3, difference: -8, pValue: 0.0001 },
    { a: 1, b: 2, difference: -1, pValue: 0.6 },
    { a: 1, b: 3, difference: -7, pValue: 0.001 },
    { a: 2, b: 3, difference: -6, pValue: 0.03 },
  ], 0.05);
  assert.deepEqual(
    r.ranking.map((m) => [m.model, m.groups.join(""), m.rankLo, m.rankHi]),
    [[0, "a", 1, 3], [1, "a", 1, 3], [2, "ab", 1, 4], [3, "b", 3, 4]],
  );
  assert.deepEqual(r.better, [null, null, 0, null, 1, null]);
  assert.deepEqual(r.ranking[3].worseThan, [0, 1]);
});

Deno.test("rankModels: a significant pair with a difference of 0 is not told apart, and the loss order decides the places", () => {
  const r = rankModels([5, 5, 1], [
    { a: 0, b: 1, difference: 0, pValue: 0 },
  ], 0.05);
  assert.deepEqual(r.better, [null]);
  assert.deepEqual(r.ranking.map((m) => m.model), [2, 0, 1]);
  assert.deepEqual(r.ranking.map((m) => m.groups), [["a"], ["a"], ["a"]]);
  assert.throws(() => rankModels([1, 2], [], 1), /alpha must be in \(0, 1\)/);
  assert.throws(
    () =>
      rankModels([1, 2], [{ a: 0, b: 2, difference: 1, pValue: 0.5 }], 0.05),
    /pair 0 must name two of the 2 models/,
  );
});
