import assert from "node:assert/strict";
import fc from "fast-check";
import { getProfile } from "../../../lib/costs/load.ts";
import {
  CONSEQUENCE_MATRIX,
  defineCostMatrix,
  STRICT_MATRIX,
} from "../../../lib/metrics/loss.ts";
import { ledgerText } from "../../../lib/ledger/chain.ts";
import { ledgerColumns } from "../../../lib/ledger/columns.ts";
import { decisionRecord } from "../../../lib/ledger/decision_record.ts";
import { thresholdPolicy } from "../../../lib/ledger/policy.ts";
import { ledgerEntries } from "../../../lib/ledger/read.ts";
import type { LedgerRecord } from "../../../lib/ledger/record.ts";
import {
  costCurve,
  linearThresholds,
  replay,
} from "../../../lib/ledger/replay.ts";
import { openReview, resolveReview } from "../../../lib/ledger/review.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
import {
  type SimTask,
  SIMULATED_MODELS,
  simulateRun,
} from "../../../lib/tasks/simulate.ts";
import { decisionRec, FC, smallMonth } from "./_fixtures.ts";

const RECON = getProfile("reconciliation");

Deno.test("replay() makes zero model calls: the runners that recorded the month throw during replay", async () => {
  // record a month through model runners, as a harness would
  const tasks: SimTask[] = Array.from({ length: 600 }, (_, i) => ({
    id: `t${i}`,
    gold: i % 3 === 0 ? { exceptionType: null, severity: "LOW" } : {
      exceptionType: i % 2 ? "AMOUNT_MISMATCH" : "DUPLICATE",
      severity: i % 2 ? "HIGH" : "LOW",
    },
  }));
  const calls = { n: 0 };
  const runnerFor = (id: string) => {
    const run = simulateRun(tasks, SIMULATED_MODELS[id], { seed: 5 });
    return (i: number): Decision => {
      calls.n++;
      return run[i];
    };
  };
  const runners: Record<string, (i: number) => Decision> = {
    small_severity_shaped: runnerFor("small_severity_shaped"),
    frontier_even: runnerFor("frontier_even"),
  };
  const policy = thresholdPolicy("desk", 0.2);
  const records: LedgerRecord[] = [];
  tasks.forEach((t, i) => {
    for (const [model, run] of Object.entries(runners)) {
      const served = model === "small_severity_shaped";
      const r = decisionRecord(run(i), {
        at: "2026-03-01T09:00:00Z",
        id: `${t.id}/${model}`,
        policy,
        profile: RECON,
        served,
      });
      records.push(r);
      if (served && r.decision.action === "escalate") {
        records.push(openReview(r));
        records.push(
          resolveReview(
            r,
            r.decision.predClass === t.gold.exceptionType
              ? "approve"
              : "reject",
            {
              at: "2026-03-01T10:00:00Z",
              reviewer: "ana",
            },
          ),
        );
      }
    }
  });
  assert.equal(calls.n, 1200);
  const bytes = new TextEncoder().encode(ledgerText(records).text);
  // from here on, any model call, network request or subprocess fails the test
  for (const id of Object.keys(runners)) {
    runners[id] = () => {
      throw new Error(`model ${id} was called during replay`);
    };
  }
  const { fetch } = globalThis;
  const Command = Deno.Command;
  globalThis.fetch = () => Promise.reject(new Error("fetch during replay"));
  (Deno as { Command: unknown }).Command = class {
    constructor() {
      throw new Error("subprocess during replay");
    }
  };
  try {
    const cols = ledgerColumns(ledgerEntries(bytes));
    const results = [
      replay(cols, { threshold: 0.05 }),
      replay(cols, { threshold: "chow" }, {
        profile: getProfile("principal_risk"),
      }),
      replay(cols, { route: "frontier_even" }),
      replay(cols, {
        route: { HIGH: "frontier_even" },
        threshold: { LOW: 1, MEDIUM: 1, HIGH: 0.01, CRITICAL: 0 },
      }),
    ];
    costCurve(cols, linearThresholds(0, 1), { route: "frontier_even" });
    assert.ok(results.every((r) => r.changed.cases > 0));
    assert.ok(results[2].changed.rerouted === 600);
  } finally {
    globalThis.fetch = fetch;
    (Deno as { Command: unknown }).Command = Command;
  }
  assert.equal(calls.n, 1200);
  // and the replay modules do not reach for a network or a process at all
  for (
    const file of [
      "replay.ts",
      "_answer_costs.ts",
      "columns.ts",
      "policy.ts",
      "read.ts",
    ]
  ) {
    const src = await Deno.readTextFile(
      new URL(`../../../lib/ledger/${file}`, import.meta.url),
    );
    assert.doesNotMatch(
      src,
      /\bfetch\(|Deno\.Command|Deno\.run|WebSocket|XMLHttpRequest/,
      file,
    );
  }
});

Deno.test("replay() is deterministic: the same ledger and policy give byte-identical JSON", () => {
  const month = smallMonth();
  const text = ledgerText(month.records).text;
  const run = () => {
    const cols = ledgerColumns(ledgerEntries(new TextEncoder().encode(text)));
    return JSON.stringify(
      replay(cols, { threshold: 0.4, route: { CRITICAL: "frontier_even" } }, {
        seed: 3,
      }),
    );
  };
  const a = run();
  assert.equal(run(), a);
  assert.ok(a.length > 1000);
});

Deno.test("replay() under the recorded policy changes nothing", () => {
  const cols = ledgerColumns(ledgerText(smallMonth().records).entries);
  for (
    const policy of [{}, { threshold: 0.2 }, {
      threshold: 0.2,
      route: "small_severity_shaped",
    }] as const
  ) {
    const r = replay(cols, policy);
    assert.equal(r.changed.cases, 0);
    assert.deepEqual(r.after, r.before);
    assert.deepEqual(
      [r.difference.estimate, r.difference.lo, r.difference.hi],
      [0, 0, 0],
    );
    assert.equal(r.diff.length, 0);
  }
});

Deno.test("replay() counts a decision whose counterfactual outcome was never observed as unevaluable, never guessed", () => {
  const d = decisionRec("d1", {
    gold: null,
    action: "escalate",
    risk: 0.4,
    pred: "MATCH",
  });
  const open = openReview(d);
  const cols = ledgerColumns(
    ledgerText([decisionRec("d0", { risk: 0.1 }), d, open]).entries,
  );
  const r = replay(cols, { threshold: 0.5 });
  // escalated and never reviewed: acted on automatically it might be right (0) or a miss (10)
  assert.deepEqual(r.unevaluable, {
    cases: 1,
    noServedAnswer: 0,
    noRoutedAnswer: 0,
    outcomeUnknown: 1,
  });
  assert.equal(r.evaluable, 1);
  assert.equal(r.before.loss, 0);
  assert.equal(r.reviewLoad.after, 0);
  assert.equal(r.diff[0].costAfter, null);
  // once reviewed, it is evaluable
  const fixed = ledgerColumns(
    ledgerText([
      decisionRec("d0"),
      d,
      open,
      resolveReview(d, "amend", {
        at: "2026-03-01T10:00:00Z",
        reviewer: "ana",
        trueClass: "AMOUNT_MISMATCH",
      }),
    ]).entries,
  );
  assert.equal(replay(fixed, { threshold: 0.5 }).after.loss, 10);
});

Deno.test("replay() routes only to answers that were recorded, and counts the rest", () => {
  const records = [
    decisionRec("a1", { task: "t1", model: "small" }),
    decisionRec("b1", {
      task: "t1",
      model: "big",
      served: false,
      pred: "MATCH",
      gold: null,
      usd: 0.5,
    }),
    decisionRec("a2", { task: "t2", model: "small", pred: "MATCH" }),
  ];
  const cols = ledgerColumns(ledgerText(records).entries);
  const r = replay(cols, { route: "big" });
  assert.deepEqual([
    r.unevaluable.noRoutedAnswer,
    r.evaluable,
    r.changed.rerouted,
  ], [1, 1, 2]);
  // on t1 the big model would have missed a HIGH exception
  assert.deepEqual([r.before.loss, r.after.loss, r.after.modelUsd], [
    0,
    10,
    0.5,
  ]);
  assert.equal(replay(cols, { route: "nobody" }).unevaluable.noRoutedAnswer, 2);
});

Deno.test("replay() evaluates a rejected answer only when every outcome the rejection leaves open costs the same", () => {
  // rejected: the answer DUPLICATE is wrong, but the gold could be MATCH (a false alarm) or another class
  const d = decisionRec("d1", {
    gold: null,
    action: "escalate",
    pred: "DUPLICATE",
    risk: 0.6,
    severity: "LOW",
  });
  const cols = ledgerColumns(
    ledgerText([
      d,
      openReview(d),
      resolveReview(d, "reject", {
        at: "2026-03-01T10:00:00Z",
        reviewer: "ana",
      }),
    ]).entries,
  );
  // consequence: both cost a review; strict: both cost K(LOW)
  assert.equal(replay(cols, { threshold: 1 }).after.loss, 1);
  assert.equal(
    replay(cols, { threshold: 1 }, { matrix: STRICT_MATRIX }).after.loss,
    0.2,
  );
  const split = defineCostMatrix({
    ...CONSEQUENCE_MATRIX,
    id: "cheap_alarms",
    auto: {
      ...CONSEQUENCE_MATRIX.auto,
      falseAlarm: { of: "review", times: 0.5 },
    },
  });
  assert.equal(
    replay(cols, { threshold: 1 }, { matrix: split }).unevaluable
      .outcomeUnknown,
    1,
  );
});

Deno.test("replay() applies per-severity thresholds and Chow's rule under the replay profile", () => {
  const records = [
    decisionRec("h", { severity: "HIGH", risk: 0.15, pred: "MATCH" }),
    decisionRec("l", {
      severity: "LOW",
      risk: 0.5,
      pred: "MATCH",
      gold: "DUPLICATE",
    }),
  ];
  const cols = ledgerColumns(ledgerText(records).entries);
  const r = replay(cols, {
    threshold: { LOW: 0.9, MEDIUM: 0.9, HIGH: 0.1, CRITICAL: 0.1 },
  });
  assert.deepEqual(r.diff.map((d) => [d.taskId, d.actionAfter]), [[
    "h",
    "escalate",
  ]]);
  // reconciliation Chow: HIGH 1/10 = 0.1 (0.15 escalates), LOW 1/0.2 > 1 (never)
  assert.deepEqual(
    replay(cols, { threshold: "chow" }).diff.map((d) => d.taskId),
    ["h"],
  );
  // flat profile Chow: threshold 1 everywhere, nothing escalates
  assert.equal(
    replay(cols, { threshold: "chow" }, { profile: getProfile("flat") }).after
      .reviews,
    0,
  );
});

Deno.test("replay() gives a paired interval that is seeded and contains the estimate", () => {
  const cols = ledgerColumns(ledgerText(smallMonth().records).entries);
  const a = replay(cols, { threshold: 0.05 }, { seed: 11 });
  const b = replay(cols, { threshold: 0.05 }, { seed: 11 });
  assert.deepEqual(a.difference, b.difference);
  const d = a.difference;
  assert.ok(d.lo! <= d.estimate! && d.estimate! <= d.hi!);
  assert.equal(d.pairs, a.evaluable);
  assert.ok(Math.abs(d.estimate! - (a.after.loss - a.before.loss)) < 1e-9);
});

Deno.test("costCurve() equals replay() at every threshold, from one sort and prefix sums", () => {
  const rowArb = fc.record({
    severity: fc.constantFrom("LOW", "MEDIUM", "HIGH", "CRITICAL"),
    risk: fc.option(fc.constantFrom(0, 0.1, 0.25, 0.5, 0.75, 1, 0.3333), {
      nil: null,
    }),
    pred: fc.constantFrom("MATCH", "DUPLICATE", "AMOUNT_MISMATCH"),
    gold: fc.option(fc.constantFrom("MATCH", "DUPLICATE", "AMOUNT_MISMATCH"), {
      nil: null,
    }),
    action: fc.constantFrom("auto", "escalate"),
  });
  fc.assert(
    fc.property(
      fc.array(rowArb, { maxLength: 40 }),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), {
        minLength: 1,
        maxLength: 12,
      }),
      fc.constantFrom("escalate", "auto"),
      fc.constantFrom("reconciliation", "principal_risk", "flat"),
      (rows, thresholds, missingRisk, profileId) => {
        // a recorded decision whose gold is unknown was escalated, so the recorded side is always evaluable
        const records = rows.map((r, i) =>
          decisionRec(
            `d${i}`,
            { ...r, action: r.gold === null ? "escalate" : r.action } as never,
          )
        );
        const cols = ledgerColumns(ledgerText(records).entries);
        const profile = getProfile(profileId);
        const curve = costCurve(cols, thresholds, { missingRisk, profile });
        thresholds.forEach((t, i) => {
          const r = replay(cols, { threshold: t, missingRisk }, {
            profile,
            diff: false,
            resamples: 1,
          });
          assert.ok(
            Math.abs(curve.loss[i] - r.after.loss) < 1e-9,
            `loss at ${t}`,
          );
          assert.equal(curve.reviews[i], r.reviewLoad.after);
          assert.equal(curve.unevaluable[i], r.unevaluable.cases);
          assert.equal(curve.autoErrors[i], r.after.autoErrors);
        });
        // on common support every point covers the same cases, and none is unevaluable
        const same = costCurve(cols, thresholds, {
          missingRisk,
          profile,
          support: "common",
        });
        assert.ok([...same.unevaluable].every((u) => u === 0));
        assert.ok(
          [...same.evaluable].every((e) => e === cols.cases - same.excluded),
        );
        assert.ok(same.excluded >= Math.max(...curve.unevaluable));
      },
    ),
    FC,
  );
});

Deno.test("linearThresholds() spans the range with both ends and refuses a bad grid", () => {
  const t = linearThresholds(0, 1);
  assert.deepEqual([t.length, t[0], t[999]], [1000, 0, 1]);
  assert.throws(() => linearThresholds(0.5, 0.2), RangeError);
  assert.throws(() => linearThresholds(0, 1, { count: 1 }), RangeError);
});

Deno.test("replay() under Chow prices an error through the matrix: a risky predicted exception is escalated under strict, not under consequence", () => {
  const records = [
    // predicted an exception, 40% likely wrong: under consequence a wrong type
    // still reaches review (cost 1 = the review), so escalating never pays
    decisionRec("x", {
      severity: "HIGH",
      risk: 0.4,
      pred: "FX_CONVERSION_ERROR",
    }),
    decisionRec("h", { severity: "HIGH", risk: 0.15, pred: "MATCH" }),
  ];
  const cols = ledgerColumns(ledgerText(records).entries);
  const consequence = replay(cols, { threshold: "chow" });
  assert.deepEqual(consequence.diff.map((d) => d.taskId), ["h"]);
  assert.deepEqual(consequence.policy.thresholdIfFlagged, {
    LOW: 1,
    MEDIUM: 1,
    HIGH: 1,
    CRITICAL: 1,
  });
  // strict: K(HIGH) = 10 for either, so both risks above 0.1 escalate
  const strict = replay(cols, { threshold: "chow" }, { matrix: STRICT_MATRIX });
  assert.deepEqual(strict.diff.map((d) => d.taskId).sort(), ["h", "x"]);
  assert.equal(strict.policy.thresholdIfFlagged!.HIGH, 0.1);
  assert.equal(
    replay(cols, { threshold: 0.2 }).policy.thresholdIfFlagged,
    null,
  );
});
