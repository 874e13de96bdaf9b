import assert from "node:assert/strict";
import fc from "fast-check";
import { getProfile } from "../../../lib/costs/load.ts";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import { ledgerText } from "../../../lib/ledger/chain.ts";
import { ledgerColumns } from "../../../lib/ledger/columns.ts";
import {
  chowThresholds,
  policyAction,
  policyRecord,
  thresholdPolicy,
} from "../../../lib/ledger/policy.ts";
import { refitPolicy } from "../../../lib/ledger/refit.ts";
import { replay } from "../../../lib/ledger/replay.ts";
import {
  ledgerLabels,
  openReview,
  overdueReviews,
  resolveReview,
  reviewSummary,
} from "../../../lib/ledger/review.ts";
import { decisionRec, FC, smallMonth } from "./_fixtures.ts";

const esc = (id: string, pred = "MATCH") =>
  decisionRec(id, { gold: null, action: "escalate", risk: 0.5, pred });

Deno.test("openReview() opens reviews only for escalated served decisions, due after the SLA", () => {
  const d = esc("d1");
  const r = openReview(d, { slaHours: 8 });
  assert.deepEqual([r.decisionId, r.dueAt], ["d1", "2026-03-01T17:00:00.000Z"]);
  assert.throws(
    () => openReview(decisionRec("a")),
    /only an escalated served decision is reviewed/,
  );
  assert.throws(() => openReview({ ...d, served: false }), /a shadow answer/);
});

Deno.test("resolveReview() appends approve, reject and amend as new records; the decision record is never edited", () => {
  const d = esc("d1");
  const before = JSON.stringify(d);
  const at = { at: "2026-03-01T10:00:00Z", reviewer: "ana" };
  assert.equal(resolveReview(d, "approve", at).trueClass, "MATCH");
  assert.equal(resolveReview(d, "reject", at).trueClass, null);
  assert.equal(
    resolveReview(d, "amend", { ...at, trueClass: "DUPLICATE" }).trueClass,
    "DUPLICATE",
  );
  assert.throws(
    () => resolveReview(d, "amend", at),
    /an amendment must name a class other than/,
  );
  assert.throws(
    () => resolveReview(d, "amend", { ...at, trueClass: "MATCH" }),
    /other than the answer's "MATCH"/,
  );
  assert.throws(
    () => resolveReview(d, "approve", { ...at, trueClass: "X" }),
    /approve takes no class/,
  );
  assert.equal(JSON.stringify(d), before);
});

Deno.test("ledgerColumns() refuses resolutions without an open review, twice-resolved reviews and wrong approvals", () => {
  const d = esc("d1");
  const open = openReview(d);
  const ok = resolveReview(d, "approve", {
    at: "2026-03-01T10:00:00Z",
    reviewer: "ana",
  });
  assert.throws(
    () => ledgerColumns(ledgerText([d, ok]).entries),
    /record 2: review_resolved for decision "d1", which has no open review/,
  );
  assert.throws(
    () => ledgerColumns(ledgerText([d, open, ok, ok]).entries),
    /record 4: .*no open review \(resolved at record 3\)/,
  );
  assert.throws(
    () =>
      ledgerColumns(ledgerText([d, open, { ...ok, trueClass: "X" }]).entries),
    /an approval must name the answer's class "MATCH"/,
  );
  assert.throws(
    () => ledgerColumns(ledgerText([open]).entries),
    /not recorded before it/,
  );
  assert.throws(
    () => ledgerColumns(ledgerText([d, d]).entries),
    /decision id "d1" is used twice \(first at record 1\)/,
  );
  assert.throws(
    () =>
      ledgerColumns(
        ledgerText([
          decisionRec("a", { task: "t" }),
          decisionRec("b", { task: "t", model: "m2" }),
        ]).entries,
      ),
    /already has a served answer \(record 1\); record other models' answers with served: false/,
  );
  assert.throws(
    () =>
      ledgerColumns(
        ledgerText([
          decisionRec("a", { task: "t" }),
          decisionRec("b", {
            task: "t",
            served: false,
            severity: "LOW",
            model: "m2",
          }),
        ]).entries,
      ),
    /is LOW here but HIGH in an earlier record/,
  );
});

Deno.test("overdueReviews() lists open reviews past due, most overdue first; reviewSummary() counts the queue", () => {
  const ds = ["d1", "d2", "d3"].map((id) => esc(id, "MATCH")).map((
    d,
    i,
  ) => ({ ...d, at: `2026-03-0${i + 1}T09:00:00Z` }));
  const records = [
    ...ds.flatMap((d) => [d, openReview(d)]),
    resolveReview(ds[1], "approve", {
      at: "2026-03-04T09:00:00Z",
      reviewer: "ben",
    }), // a day late
  ];
  const cols = ledgerColumns(ledgerText(records).entries);
  const late = overdueReviews(cols.reviews, "2026-03-04T12:00:00Z");
  assert.deepEqual(late.map((r) => [r.decisionId, r.hoursOverdue]), [
    ["d1", 51],
    ["d3", 3],
  ]);
  assert.deepEqual(reviewSummary(cols.reviews, "2026-03-04T12:00:00Z"), {
    opened: 3,
    resolved: { approve: 1, reject: 0, amend: 0 },
    resolvedLate: 1,
    open: 2,
    overdue: 2,
  });
});

Deno.test("ledgerLabels() turns resolved reviews into labelled data, the latest record winning", () => {
  const d = esc("d1", "MATCH");
  const records = [
    decisionRec("a", { pred: "MATCH", gold: "AMOUNT_MISMATCH" }),
    d,
    openReview(d),
    resolveReview(d, "reject", { at: "2026-03-01T10:00:00Z", reviewer: "ana" }),
    esc("d2"), // never reviewed: no label
  ];
  const labels = ledgerLabels(ledgerColumns(ledgerText(records).entries));
  assert.deepEqual(labels.decisionId, ["a", "d1"]);
  assert.deepEqual([...labels.error], [1, 1]);
  assert.deepEqual(labels.trueClass, ["AMOUNT_MISMATCH", null]);
  assert.deepEqual(labels.source, ["record", "review"]);
});

Deno.test("chowThresholds() escalate exactly when risk × K(severity) exceeds the review cost", () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.constantFrom(...SEVERITIES),
      fc.constantFrom(
        "flat",
        "reconciliation",
        "review_heavy",
        "principal_risk",
      ),
      (risk, severity, id) => {
        const profile = getProfile(id);
        const p = thresholdPolicy("chow", chowThresholds(profile));
        const escalate = policyAction(p, severity, risk) === "escalate";
        const lhs = risk * profile.K[severity];
        // up to rounding at the boundary itself
        if (Math.abs(lhs - profile.reviewCost) > 1e-9) {
          assert.equal(escalate, lhs > profile.reviewCost);
        }
      },
    ),
    FC,
  );
});

Deno.test("refitPolicy() gives the refit a new revision, chained to its parent and recorded in the ledger", () => {
  const month = smallMonth(5);
  const parent = month.records[0];
  assert.equal(parent.kind, "policy");
  if (parent.kind !== "policy") return;
  const cols = ledgerColumns(ledgerText(month.records).entries);
  const refit = refitPolicy(cols, parent, { at: month.end, minLabelled: 20 });
  assert.equal(refit.record.parent, parent.revision);
  assert.notEqual(refit.record.revision, parent.revision);
  assert.equal(refit.record.basis!.method, "min-empirical-cost");
  assert.ok(refit.record.basis!.labelled > 0);
  // it fits the labels at least as well as the parent, severity by severity
  for (const s of refit.severities) {
    assert.ok(s.costAfter <= s.costBefore + 1e-9, s.severity);
  }
  // appended to the ledger, the revision is part of the record
  const more = ledgerColumns(
    ledgerText([...month.records, refit.record]).entries,
  );
  assert.equal(more.policies.at(-1)!.revision, refit.record.revision);
  // and replaying the month under it costs no more than the recorded policy on the labelled cases
  const r = replay(cols, { threshold: refit.policy.thresholds });
  assert.ok(r.after.loss <= r.before.loss);
  // refitting the same data twice gives the same revision
  assert.equal(
    refitPolicy(cols, parent, { at: month.end, minLabelled: 20 }).record
      .revision,
    refit.record.revision,
  );
  assert.equal(
    policyRecord(refit.policy, { at: month.end, parent: parent.revision })
      .revision,
    refit.record.revision,
  );
});

Deno.test("ledgerColumns() finds a decision recorded twice on its key fields, whatever its ids", () => {
  assert.throws(
    () =>
      ledgerColumns(
        ledgerText([
          decisionRec("r/openai/gpt-4o/t/0", { task: "t" }),
          decisionRec('["r","openai/gpt-4o","t",0]', { task: "t" }),
        ]).entries,
      ),
    /record 2: decision of run "r", model "m", task "t", trial 0 is recorded twice \(first at record 1/,
  );
});
