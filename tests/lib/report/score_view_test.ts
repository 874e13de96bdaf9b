import assert from "node:assert/strict";
import {
  escapeHtml,
  formatCell,
  isScoreView,
  scoreChart,
  scoreRows,
  scoreTable,
  type ScoreView,
  tableHtml,
} from "../../../lib/report/mod.ts";

const GOLDEN = new URL("../../golden/", import.meta.url);

/** Every `score --json` document pinned in tests/golden, by file name. */
function goldenScores(): [string, ScoreView][] {
  return [...Deno.readDirSync(GOLDEN)]
    .map((e) => e.name)
    .filter((n) => /^score_.*\.json$/.test(n))
    .sort()
    .map((n) => [n, JSON.parse(Deno.readTextFileSync(new URL(n, GOLDEN)))]);
}

/** A document of one model that scored no decision: every figure null. */
function emptyModel(): ScoreView {
  return {
    level: 0.9,
    profiles: [{ id: "flat", unit: null }],
    models: [{
      modelId: "idle",
      n: 0,
      accuracy: null,
      loss: { flat: null },
      intervals: { accuracy: null, loss: { flat: { lo: null, hi: null } } },
    }],
  };
}

Deno.test("isScoreView() recognises every golden score document and no other golden document", () => {
  const names = [...Deno.readDirSync(GOLDEN)].map((e) => e.name)
    .filter((n) => n.endsWith(".json"));
  assert.ok(names.filter((n) => n.startsWith("score_")).length >= 9);
  for (const name of names) {
    const doc = JSON.parse(Deno.readTextFileSync(new URL(name, GOLDEN)));
    assert.equal(isScoreView(doc), name.startsWith("score_"), name);
  }
});

Deno.test("isScoreView() refuses a document missing a profile's loss or its interval", () => {
  const [, doc] = goldenScores()[0];
  const id = doc.profiles[0].id;
  const noLoss = structuredClone(doc) as unknown as {
    models: { loss: Record<string, unknown>; intervals: { loss: object } }[];
  };
  delete noLoss.models[0].loss[id];
  assert.equal(isScoreView(noLoss), false);
  const noInterval = structuredClone(doc) as unknown as {
    models: { intervals: { loss: Record<string, unknown> } }[];
  };
  delete noInterval.models[0].intervals.loss[id];
  assert.equal(isScoreView(noInterval), false);
  assert.equal(isScoreView({ ...doc, level: "0.95" }), false);
  assert.equal(isScoreView(null), false);
});

Deno.test("scoreTable() holds every model, profile and figure of every golden score document", () => {
  for (const [name, doc] of goldenScores()) {
    const table = scoreTable(doc);
    const html = tableHtml(table.columns, table.rows, table);
    assert.equal(table.rows.length, doc.models.length * doc.profiles.length);
    const cell = (v: unknown) => escapeHtml(formatCell(v));
    for (const m of doc.models) {
      assert.ok(html.includes(`<td>${escapeHtml(m.modelId)}</td>`), name);
      assert.ok(html.includes(`<td class="num">${cell(m.n)}</td>`), name);
      assert.ok(
        html.includes(`<td class="num">${cell(m.accuracy)}</td>`),
        `${name}: ${m.modelId} accuracy`,
      );
      for (const p of doc.profiles) {
        const ci = m.intervals.loss[p.id];
        assert.ok(
          html.includes(`<td class="num">${cell(m.loss[p.id])}</td>`),
          `${name}: ${m.modelId} ${p.id} loss`,
        );
        assert.ok(
          html.includes(`<td>[${cell(ci.lo)}, ${cell(ci.hi)}]</td>`),
          `${name}: ${m.modelId} ${p.id} interval`,
        );
      }
    }
    assert.doesNotMatch(html, /<td[^>]*><\/td>|>NaN<|>undefined<|>null</);
  }
});

Deno.test("scoreTable() marks a model with no decisions n/a, never 0", () => {
  const table = scoreTable(emptyModel());
  const html = tableHtml(table.columns, table.rows, table);
  assert.deepEqual(table.columns, [
    "model",
    "n",
    "accuracy",
    "accuracy 90% CI",
    "profile",
    "loss",
    "loss 90% CI",
    "unit",
  ]);
  // accuracy, its interval, loss and its interval: n/a for no decisions
  assert.equal(
    (html.match(/title="no decisions scored[^"]*">n\/a</g) ?? []).length,
    4,
  );
  assert.match(html, /title="the profile names no unit">n\/a</);
  // the one 0 is n itself
  assert.equal((html.match(/>0</g) ?? []).length, 1);
});

Deno.test("scoreChart() plots every model under every profile with the document's loss and bounds", () => {
  for (const [name, doc] of goldenScores()) {
    const values = (scoreChart(doc).data as {
      values: Record<string, unknown>[];
    }).values;
    const rows = scoreRows(doc);
    assert.equal(values.length, rows.length, name);
    rows.forEach((r, i) => {
      const v = values[i];
      assert.deepEqual(
        [v.model, v.profile, v.loss, v.lossLo, v.lossHi],
        [r.model, r.profile, r.loss, r.lossLo, r.lossHi],
        name,
      );
    });
  }
});
