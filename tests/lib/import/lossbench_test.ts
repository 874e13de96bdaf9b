import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/mod.ts";
import { forModel } from "../../../lib/metrics/sufficient_stats.ts";
import { realisedLoss, STRICT_MATRIX } from "../../../lib/metrics/loss.ts";
import { decisionStats } from "../../../lib/decision/mod.ts";
import { decisionTable } from "../../../lib/read/mod.ts";
import {
  loadLossbenchLedger,
  parseLossbenchLedger,
  UNRECORDED_GOLD,
} from "../../../lib/import/lossbench.ts";

const FIXTURE = "data/examples/lossbench_ledger.jsonl";

function line(event: Record<string, unknown>, seq = 1): string {
  return JSON.stringify({ chain_hash: "h", event, prev_hash: "GENESIS", seq });
}

const final = {
  model_id: "m",
  task_id: "t1",
  calibrated_probability: 0.9,
  decision: "ALLOW",
  observed_outcome: {
    verdict: "MATCH",
    exception_type: null,
    severity: "HIGH",
    error: true,
  },
};

Deno.test("loadLossbenchLedger() scores final events, counts intermediate steps and numbers repeated trajectories as trials", async () => {
  const { decisions, notes } = await loadLossbenchLedger(FIXTURE, {
    probability: "correct",
  });
  assert.equal(decisions.length, 9);
  assert.deepEqual(notes, { intermediateSteps: 1 });
  const repeated = decisions.filter((d) =>
    d.modelId === "frontier" && d.taskId === "recon-003"
  );
  assert.deepEqual(repeated.map((d) => d.trial), [0, 1]);
  const escalated = decisions.find((d) =>
    d.modelId === "small" && d.taskId === "recon-004"
  )!;
  assert.equal(escalated.action, "escalate");
  const missed = decisions.find((d) =>
    d.modelId === "small" && d.taskId === "recon-003"
  )!;
  assert.deepEqual([missed.trueClass, missed.predClass, missed.outcome], [
    UNRECORDED_GOLD,
    "MATCH",
    "model_failure",
  ]);
});

Deno.test("loadLossbenchLedger() reads the probability as the caller says, never by guessing", async () => {
  const correct =
    (await loadLossbenchLedger(FIXTURE, { probability: "correct" })).decisions;
  const error =
    (await loadLossbenchLedger(FIXTURE, { probability: "error" })).decisions;
  assert.equal(correct[0].pCorrect, 0.9);
  assert.ok(Math.abs(error[0].pCorrect! - 0.1) < 1e-12);
  assert.throws(
    () =>
      parseLossbenchLedger(line(final), {
        probability: undefined as never,
        path: "l.jsonl",
      }),
    /Cannot load LossBench ledger l\.jsonl: say what calibrated_probability means with probability "correct" or "error"/,
  );
});

Deno.test("LossBench decisions score as a hand count: a wrong MATCH is a miss, a wrong exception a review", async () => {
  const { decisions } = await loadLossbenchLedger(FIXTURE, {
    probability: "correct",
  });
  const stats = decisionStats(decisionTable(decisions));
  const recon = getProfile("reconciliation");
  // small: recon-003 HIGH missed (10) + recon-004 escalated (review 1) = 11
  assert.equal(realisedLoss(forModel(stats, "small"), recon), 11);
  // frontier: recon-002 MEDIUM wrong exception type -> review 1 (consequence), K(MEDIUM) = 1 (strict)
  assert.equal(realisedLoss(forModel(stats, "frontier"), recon), 1);
  assert.equal(
    realisedLoss(forModel(stats, "frontier"), getProfile("review_heavy")),
    25,
  );
  assert.equal(
    realisedLoss(forModel(stats, "frontier"), getProfile("review_heavy"), {
      matrix: STRICT_MATRIX,
    }),
    5,
  );
});

Deno.test("parseLossbenchLedger() keeps a measured cost and never turns LossBench's default 0.0 into a complete zero", () => {
  const paid = parseLossbenchLedger(line({ ...final, model_cost: 0.02 }), {
    probability: "correct",
  }).decisions[0];
  assert.deepEqual(paid.cost, { completeness: "complete", usd: 0.02 });
  const unset = parseLossbenchLedger(line({ ...final, model_cost: 0 }), {
    probability: "correct",
  }).decisions[0];
  assert.deepEqual(unset.cost, { completeness: "unavailable", usd: null });
});

Deno.test("parseLossbenchLedger() names file, line and field on bad input", () => {
  const opts = { probability: "correct" as const, path: "l.jsonl" };
  assert.throws(
    () =>
      parseLossbenchLedger(
        [line(final), line({ ...final, calibrated_probability: 1.5 }, 2)].join(
          "\n",
        ),
        opts,
      ),
    {
      name: "RangeError",
      message:
        "Cannot load LossBench ledger l.jsonl: line 2: event.calibrated_probability must be in [0, 1], got 1.5",
    },
  );
  assert.throws(
    () =>
      parseLossbenchLedger(
        line({
          ...final,
          observed_outcome: { ...final.observed_outcome, severity: "BAD" },
        }),
        opts,
      ),
    /line 1: event\.observed_outcome\.severity must be one of LOW, MEDIUM, HIGH, CRITICAL, got "BAD"/,
  );
  assert.throws(
    () => parseLossbenchLedger(line({ ...final, decision: "DENY" }), opts),
    /line 1: event\.decision DENY on a final event cannot be scored/,
  );
  const { model_id: _, ...noModel } = final;
  assert.throws(() => parseLossbenchLedger(line(noModel), opts), {
    name: "TypeError",
    message: /line 1: event\.model_id is missing/,
  });
  assert.throws(() => parseLossbenchLedger("{oops", opts), {
    name: "SyntaxError",
    message: /l\.jsonl: line 1: invalid JSON/,
  });
  assert.throws(
    () => parseLossbenchLedger(JSON.stringify({ seq: 1, event: final }), opts),
    /line 1: prev_hash is missing/,
  );
});

Deno.test("parseLossbenchLedger() refuses token counts that are negative or fractional, naming line and field", () => {
  for (const bad of [-100, 1.5]) {
    assert.throws(
      () =>
        parseLossbenchLedger(
          line({ ...final, token_usage: { prompt_tokens: bad } }) + "\n",
          { probability: "correct", path: "lb.jsonl" },
        ),
      /lb\.jsonl: line 1: event\.token_usage\.prompt_tokens must be a whole number >= 0/,
    );
  }
  const ok = parseLossbenchLedger(
    line({
      ...final,
      token_usage: { prompt_tokens: 12, completion_tokens: 3 },
    }),
    { probability: "correct" },
  );
  assert.deepEqual([ok.decisions[0].tokensIn, ok.decisions[0].tokensOut], [
    12,
    3,
  ]);
});
