import assert from "node:assert/strict";
import {
  anchorValue,
  deriveProfile,
  profileFromAnchor,
  profileSpan,
  SEVERITIES,
  severityRank,
  SHIPPED_REGISTRY,
} from "../../../lib/costs/mod.ts";

Deno.test("profileFromAnchor() maps low, log-midpoint, typical and high onto the ladder for every anchor", () => {
  for (const a of SHIPPED_REGISTRY.anchors) {
    const p = profileFromAnchor(SHIPPED_REGISTRY, a.id, { reviewCost: 1 });
    assert.equal(p.K.LOW, a.low);
    assert.ok(
      Math.abs(p.K.MEDIUM - Math.sqrt(a.low * a.typical)) < 1e-9 * a.typical,
    );
    assert.equal(p.K.HIGH, a.typical);
    assert.equal(p.K.CRITICAL, a.high);
    // K never falls as severity rises, because low <= typical <= high.
    for (const s of SEVERITIES.slice(1)) {
      assert.ok(p.K[s] >= p.K[SEVERITIES[severityRank(s) - 1]], `${a.id} ${s}`);
    }
    assert.equal(profileSpan(p), a.high / a.low);
    assert.equal(p.unit, a.unit);
    assert.match(p.notes!.HIGH!, new RegExp(`anchor ${a.id} at typical`));
  }
});

Deno.test("deriveProfile() cites each anchor's sources and states the point and scale used", () => {
  const p = deriveProfile(SHIPPED_REGISTRY, {
    id: "payments",
    K: {
      LOW: { anchor: "chargeback" },
      MEDIUM: { anchor: "misposted_ach", at: "low" },
      HIGH: { anchor: "misrouted_wire", at: "low", scale: 0.1 },
      CRITICAL: { anchor: "settlement_failure", at: "high" },
    },
    reviewCost: { anchor: "false_positive_review" },
    judgeCost: 0.02,
  });
  assert.deepEqual(p.K, { LOW: 40, MEDIUM: 500, HIGH: 100_000, CRITICAL: 1e9 });
  assert.equal(p.reviewCost, 6.5);
  assert.equal(p.judgeCost, 0.02);
  assert.match(
    p.notes!.HIGH!,
    /misrouted_wire at low \(1000000 USD per incident\) x 0\.1/,
  );
  assert.match(p.notes!.judgeCost!, /Stated directly/);
  const ids = p.sources.map((s) => s.id).sort();
  assert.deepEqual(ids, [
    "bis_fx_settlement",
    "card_network_fee_schedules",
    "fed_payments_study_2024",
    "fedwire_about",
    "lexisnexis_aml_compliance",
  ]);
  // all four K anchors are "USD per incident", so the profile takes that unit
  assert.equal(p.unit, "USD per incident");
  const mixed = deriveProfile(SHIPPED_REGISTRY, {
    id: "mixed",
    K: {
      LOW: { anchor: "fraud_multiplier" },
      MEDIUM: { anchor: "chargeback" },
      HIGH: { anchor: "chargeback" },
      CRITICAL: { anchor: "chargeback" },
    },
    reviewCost: 1,
  });
  assert.equal(mixed.unit, "mixed units (see notes)");
});

Deno.test("deriveProfile() rejects an unknown anchor and a negative scale", () => {
  const K = {
    LOW: { anchor: "chargeback" },
    MEDIUM: { anchor: "chargeback" },
    HIGH: { anchor: "chargeback" },
  };
  assert.throws(
    () =>
      deriveProfile(SHIPPED_REGISTRY, {
        id: "x",
        K: { ...K, CRITICAL: { anchor: "meteor" } },
        reviewCost: 1,
      }),
    /Cannot find cost anchor "meteor"/,
  );
  assert.throws(
    () =>
      deriveProfile(SHIPPED_REGISTRY, {
        id: "x",
        K: { ...K, CRITICAL: { anchor: "chargeback", scale: -2 } },
        reviewCost: 1,
      }),
    /scale must be a finite number >= 0, got -2/,
  );
});

Deno.test("anchorValue() logmid is the geometric mean of low and typical", () => {
  const a = SHIPPED_REGISTRY.anchors.find((x) => x.id === "missed_sar")!;
  // sqrt(1e6 * 1e7) = 10^6.5
  assert.ok(Math.abs(anchorValue(a, "logmid") - 10 ** 6.5) < 1e-3);
});
