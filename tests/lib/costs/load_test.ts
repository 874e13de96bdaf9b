import assert from "node:assert/strict";
import {
  loadProfileFile,
  loadRegistryFile,
} from "../../../lib/read/cost_files.ts";
import {
  combineProfiles,
  getProfile,
  parseProfile,
  parseRegistry,
  profileSpan,
  SEVERITIES,
  SHIPPED_PROFILES,
  SHIPPED_REGISTRY,
} from "../../../lib/costs/mod.ts";
import { tempFile } from "../../_helpers.ts";

Deno.test("SHIPPED_PROFILES hold the four profiles of third-number with their spans", () => {
  // third-number profile table: K for LOW/MEDIUM/HIGH/CRITICAL, span, review cost.
  const expected = {
    flat: { K: [1, 1, 1, 1], span: 1, review: 1 },
    reconciliation: { K: [0.2, 1, 10, 50], span: 250, review: 1 },
    review_heavy: { K: [1, 5, 50, 250], span: 250, review: 25 },
    principal_risk: { K: [1, 10, 1000, 100000], span: 100000, review: 1 },
  };
  assert.deepEqual(SHIPPED_PROFILES.map((p) => p.id), Object.keys(expected));
  for (const [id, e] of Object.entries(expected)) {
    const p = getProfile(id);
    assert.deepEqual(SEVERITIES.map((s) => p.K[s]), e.K, id);
    assert.ok(Math.abs(profileSpan(p)! - e.span) < 1e-9, id);
    assert.equal(p.reviewCost, e.review, id);
  }
});

Deno.test("every shipped K, review and judge cost carries a note, and every note's sources resolve", () => {
  for (const p of SHIPPED_PROFILES) {
    for (const slot of [...SEVERITIES, "reviewCost", "judgeCost"] as const) {
      assert.ok(
        (p.notes?.[slot] ?? "").length > 10,
        `${p.id}.${slot} has no note`,
      );
    }
    assert.ok(p.sources.length > 0, `${p.id} has no sources`);
  }
});

Deno.test("SHIPPED_REGISTRY holds the ten anchors of docs/sources.md", () => {
  // docs/sources.md cost registry anchors (USD).
  const expected: Record<string, [string, number, number, number]> = {
    misposted_ach: ["payments", 500, 3881, 50000],
    misrouted_wire: ["payments", 1e6, 5e6, 1e7],
    chargeback: ["payments", 15, 40, 100],
    fraud_multiplier: ["payments", 2.5, 3.75, 5.0],
    missed_sar: ["aml", 1e6, 1e7, 1e8],
    false_positive_review: ["aml", 3, 6.5, 10],
    insurance_fraud: ["insurance", 1000, 100000, 5e6],
    prior_auth_manual: ["healthcare", 2.56, 12.43, 12.43],
    improper_payment: ["healthcare", 100, 1500, 10000],
    settlement_failure: ["settlement", 1e5, 1e6, 1e9],
  };
  assert.deepEqual(
    SHIPPED_REGISTRY.anchors.map((a) => a.id),
    Object.keys(expected),
  );
  for (const a of SHIPPED_REGISTRY.anchors) {
    assert.deepEqual(
      [a.domain, a.low, a.typical, a.high],
      expected[a.id],
      a.id,
    );
    assert.ok(
      a.sources.length > 0 && a.sources.every((s) => s.title.length > 0),
      a.id,
    );
    assert.ok(["low", "medium", "high"].includes(a.confidence), a.id);
  }
});

const goodProfile = {
  id: "desk",
  version: "1",
  K: {
    LOW: { value: 1, note: "n", sources: ["s1"] },
    MEDIUM: 2,
    HIGH: 3,
    CRITICAL: 4,
  },
  reviewCost: 1,
  sources: [{ id: "s1", title: "A source" }],
};

function profileText(patch: (p: Record<string, unknown>) => void): string {
  const p = structuredClone(goodProfile) as Record<string, unknown>;
  patch(p);
  return JSON.stringify(p);
}

Deno.test("parseProfile() reads a good JSON profile and keeps its notes", () => {
  const p = parseProfile(JSON.stringify(goodProfile), { path: "desk.json" });
  assert.deepEqual(p.K, { LOW: 1, MEDIUM: 2, HIGH: 3, CRITICAL: 4 });
  assert.equal(p.notes?.LOW, "n");
  assert.equal(p.judgeCost, 0);
});

Deno.test("parseProfile() names file, entry and field for a negative K", () => {
  const text = profileText((p) => ((p.K as Record<string, unknown>).HIGH = -3));
  assert.throws(() => parseProfile(text, { path: "profiles/desk.json" }), {
    name: "RangeError",
    message:
      'Cannot load cost profile profiles/desk.json: entry "desk": K.HIGH must be >= 0, got -3',
  });
  const nested = profileText((
    p,
  ) => ((p.K as Record<string, { value: number }>).LOW.value = -1));
  assert.throws(
    () => parseProfile(nested, { path: "desk.json" }),
    /desk\.json: entry "desk": K\.LOW\.value must be >= 0, got -1/,
  );
});

Deno.test("parseProfile() names file, entry and field for an unknown severity", () => {
  const text = profileText((
    p,
  ) => ((p.K as Record<string, unknown>).SEVERE = 9));
  assert.throws(() => parseProfile(text, { path: "desk.json" }), {
    name: "RangeError",
    message:
      'Cannot load cost profile desk.json: entry "desk": K has unknown severity "SEVERE"; expected LOW, MEDIUM, HIGH, CRITICAL',
  });
});

Deno.test("parseProfile() names a missing field, a wrong type and an unknown field", () => {
  const missing = profileText((p) =>
    delete (p.K as Record<string, unknown>).CRITICAL
  );
  assert.throws(() => parseProfile(missing, { path: "d.json" }), {
    name: "TypeError",
    message:
      'Cannot load cost profile d.json: entry "desk": K.CRITICAL is missing',
  });
  const wrong = profileText((p) => (p.reviewCost = "cheap"));
  assert.throws(
    () => parseProfile(wrong, { path: "d.json" }),
    /d\.json: entry "desk": reviewCost/,
  );
  const extra = profileText((p) => (p.colour = "red"));
  assert.throws(
    () => parseProfile(extra, { path: "d.json" }),
    /d\.json: entry "desk": unknown field "colour"/,
  );
});

Deno.test("parseProfile() rejects a note that cites an unknown source", () => {
  const text = profileText((
    p,
  ) => ((p.K as Record<string, { sources: string[] }>).LOW.sources = ["nope"]));
  assert.throws(
    () => parseProfile(text, { path: "d.json" }),
    /d\.json: entry "desk": K\.LOW\.sources names unknown source "nope"/,
  );
});

Deno.test("parseProfile() reports invalid JSON and YAML as SyntaxError naming the file", () => {
  assert.throws(() => parseProfile("{ nope", { path: "bad.json" }), {
    name: "SyntaxError",
    message: /^Cannot load cost profile bad\.json: /,
  });
  assert.throws(() => parseProfile("id: [unclosed", { path: "bad.yaml" }), {
    name: "SyntaxError",
    message: /^Cannot load cost profile bad\.yaml: .*line 1/,
  });
});

Deno.test("loadProfileFile() reads a user's YAML profile from disk", async () => {
  const path = await tempFile(
    "mine.yaml",
    [
      "id: mine",
      "version: '2026-11'",
      "unit: USD",
      "currency: USD",
      "K:",
      "  LOW: 5",
      "  MEDIUM: { value: 40, note: chargeback fees }",
      "  HIGH: 3881",
      "  CRITICAL: 1000000",
      "reviewCost: 6.5",
    ].join("\n"),
  );
  const p = await loadProfileFile(path);
  assert.deepEqual(p.K, { LOW: 5, MEDIUM: 40, HIGH: 3881, CRITICAL: 1e6 });
  assert.equal(p.currency, "USD");
  assert.equal(p.notes?.MEDIUM, "chargeback fees");
  await assert.rejects(
    () => loadProfileFile(`${path}.missing`),
    Deno.errors.NotFound,
  );
});

const goodRegistry = {
  version: "t",
  sources: { s: { title: "A study" } },
  entries: [
    {
      id: "a",
      domain: "payments",
      low: 1,
      typical: 2,
      high: 3,
      unit: "USD",
      sources: ["s"],
      confidence: "high",
      note: "n",
    },
    {
      id: "b",
      domain: "aml",
      low: 10,
      typical: 20,
      high: 30,
      unit: "USD",
      sources: ["s"],
      confidence: "low",
      note: "n",
    },
  ],
};

function registryText(patch: (r: typeof goodRegistry) => void): string {
  const r = structuredClone(goodRegistry);
  patch(r);
  return JSON.stringify(r);
}

Deno.test("parseRegistry() names file, entry and field when low > typical or typical > high", () => {
  assert.throws(
    () =>
      parseRegistry(registryText((r) => (r.entries[1].low = 25)), {
        path: "reg.json",
      }),
    {
      name: "RangeError",
      message:
        'Cannot load cost registry reg.json: entry "b": low must be <= typical, got low 25 > typical 20',
    },
  );
  assert.throws(
    () =>
      parseRegistry(registryText((r) => (r.entries[0].high = 1.5)), {
        path: "reg.json",
      }),
    /reg\.json: entry "a": typical must be <= high, got typical 2 > high 1\.5/,
  );
});

Deno.test("parseRegistry() rejects a duplicate id, a negative figure, an unknown source and a bad confidence", () => {
  assert.throws(
    () =>
      parseRegistry(registryText((r) => (r.entries[1].id = "a")), {
        path: "reg.json",
      }),
    {
      name: "RangeError",
      message:
        'Cannot load cost registry reg.json: entry "a": id is a duplicate',
    },
  );
  assert.throws(
    () =>
      parseRegistry(registryText((r) => (r.entries[1].low = -10)), {
        path: "reg.json",
      }),
    /reg\.json: entry "b": low must be >= 0, got -10/,
  );
  assert.throws(
    () =>
      parseRegistry(registryText((r) => (r.entries[0].sources = ["ghost"])), {
        path: "reg.json",
      }),
    /reg\.json: entry "a": sources names unknown source "ghost"/,
  );
  // a name every object answers to is not a listed source
  for (const inherited of ["constructor", "toString", "__proto__"]) {
    assert.throws(
      () =>
        parseRegistry(
          registryText((r) => (r.entries[0].sources = [inherited])),
          { path: "reg.json" },
        ),
      new RegExp(`sources names unknown source "${inherited}"`),
      inherited,
    );
  }
  assert.throws(
    () =>
      parseRegistry(
        registryText((r) => (r.entries[0].confidence = "certain")),
        { path: "reg.json" },
      ),
    /reg\.json: entry "a": confidence must be "low", "medium" or "high", got "certain"/,
  );
  assert.throws(
    () =>
      parseRegistry(
        registryText((r) =>
          delete (r.entries[1] as Partial<typeof r.entries[1]>).unit
        ),
        { path: "reg.json" },
      ),
    {
      name: "TypeError",
      message: 'Cannot load cost registry reg.json: entry "b": unit is missing',
    },
  );
});

Deno.test("loadRegistryFile() reads the shipped registry file identically to SHIPPED_REGISTRY", async () => {
  const r = await loadRegistryFile(
    new URL("../../../data/registry.json", import.meta.url).pathname,
  );
  assert.deepEqual(r, SHIPPED_REGISTRY);
});

Deno.test("loadProfileFile() reads every shipped profile file, through the schema, identically to SHIPPED_PROFILES", async () => {
  // the shipped profiles are built without the schema when lossbook starts;
  // this is where their files meet it
  const dir = new URL("../../../data/profiles/", import.meta.url).pathname;
  const files = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) =>
    n.endsWith(".json")
  ).sort();
  assert.deepEqual(
    files,
    SHIPPED_PROFILES.map((p) => `${p.id}.json`).sort(),
  );
  for (const p of SHIPPED_PROFILES) {
    assert.deepEqual(await loadProfileFile(`${dir}${p.id}.json`), p, p.id);
  }
});

Deno.test("combineProfiles() and getProfile() refuse duplicates and unknown ids", () => {
  assert.throws(
    () => combineProfiles([SHIPPED_PROFILES[1], SHIPPED_PROFILES[1]]),
    {
      name: "RangeError",
      message: 'Cannot combine cost profiles: duplicate id "reconciliation"',
    },
  );
  assert.throws(
    () => getProfile("recon"),
    /Unknown cost profile "recon": known profiles are flat, reconciliation/,
  );
});
