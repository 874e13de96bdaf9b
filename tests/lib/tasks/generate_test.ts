import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import {
  admit,
  classesBySeverity,
  domainClasses,
  DOMAINS,
  generateSuite,
  generateTask,
  generateTasks,
  makeCandidate,
  suiteHash,
  taskClass,
  taskRngs,
} from "../../../lib/tasks/mod.ts";

// Golden suite hashes: SHA-256 of the canonical JSONL of each suite (n = 1,000,
// default difficulty [0, 1] and mix). A change here changes every published
// suite: bump the rule table version and say so in the changelog.
const GOLDEN: Record<string, string> = {
  "reconciliation/7":
    "f3ff814e5530a2f6abea5d46c4cdcc70658230f3b80f9bcd37d9b75f07fc1294",
  "reconciliation/2026":
    "695f9c37a5eda55bd421ae0e0e5835358a4d6d2353d0d1194a4977339a89c90d",
  "payment_repair/7":
    "69e428f2f892cffe1629e7a4f1efa7746b42b52c546e72b7ecaf734a1e8c252c",
  "payment_repair/2026":
    "f68aede6df521e764e21906043b6d6e040de56ab55fe9751c318495265c18718",
  "settlement/7":
    "026a73632eee48320d21ef2434fcee5e198c7f36b8c6d1e7d9299eb6689a5cc7",
  "settlement/2026":
    "6485f5572a2d6d880d3f6612a4e3d0934c7ebdefcaca6242e3a2247e71776421",
};

Deno.test("generateSuite() reproduces the golden hashes of 3 domains x 2 seeds x 1,000 tasks", () => {
  for (const domain of DOMAINS) {
    for (const seed of [7, 2026]) {
      const { tasks } = generateSuite(domain, { seed, n: 1000 });
      assert.equal(
        suiteHash(tasks),
        GOLDEN[`${domain}/${seed}`],
        `${domain} seed ${seed}`,
      );
    }
  }
});

Deno.test("generateSuite() gives the same bytes on a second run and different bytes for another seed", () => {
  const a = suiteHash(
    generateSuite("payment_repair", { seed: 5, n: 200 }).tasks,
  );
  const b = suiteHash(
    generateSuite("payment_repair", { seed: 5, n: 200 }).tasks,
  );
  const c = suiteHash(
    generateSuite("payment_repair", { seed: 6, n: 200 }).tasks,
  );
  assert.equal(a, b);
  assert.notEqual(a, c);
});

Deno.test("generateTasks() makes a suite of n the n-prefix of any longer suite with the same seed", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...DOMAINS),
      fc.integer({ min: 0, max: 0xffff_ffff }),
      fc.integer({ min: 0, max: 30 }),
      fc.integer({ min: 0, max: 30 }),
      (domain, seed, n, extra) => {
        const short = generateSuite(domain, { seed, n }).tasks;
        const long = generateSuite(domain, { seed, n: n + extra }).tasks;
        assert.deepEqual(long.slice(0, n), short);
      },
    ),
    { seed: 4242, numRuns: 40, verbose: 1 },
  );
  // and any single task regenerates on its own
  const suite = generateSuite("settlement", { seed: 99, n: 60 }).tasks;
  assert.deepEqual(generateTask("settlement", 99, 59), suite[59]);
});

Deno.test("generateSuite() observes a requested severity mix within sampling tolerance", () => {
  const n = 3000;
  const mix = { HIGH: 0.5, MEDIUM: 0.3, LOW: 0.2 } as const;
  for (const domain of DOMAINS) {
    const { tasks } = generateSuite(domain, { seed: 31, n, mix });
    for (const s of SEVERITIES) {
      const p = (mix as Record<string, number>)[s] ?? 0;
      const observed = tasks.filter((t) => t.gold.severity === s).length / n;
      // four binomial standard errors
      const tol = 4 * Math.sqrt(p * (1 - p) / n) + 1e-12;
      assert.ok(
        Math.abs(observed - p) <= tol,
        `${domain} ${s}: ${observed} vs ${p} +- ${tol}`,
      );
    }
  }
  const critical = generateSuite("settlement", {
    seed: 3,
    n: 2000,
    mix: { CRITICAL: 0.25, LOW: 0.75 },
  }).tasks;
  const share = critical.filter((t) => t.gold.severity === "CRITICAL").length /
    2000;
  assert.ok(
    Math.abs(share - 0.25) <= 4 * Math.sqrt(0.25 * 0.75 / 2000),
    `CRITICAL share ${share}`,
  );
});

Deno.test("generateSuite() can produce every class of every domain, CRITICAL ones included", () => {
  for (const domain of DOMAINS) {
    const seen = new Set(
      generateSuite(domain, { seed: 8, n: 400 }).tasks.map(taskClass),
    );
    assert.deepEqual([...seen].sort(), domainClasses(domain).sort(), domain);
  }
  assert.deepEqual(classesBySeverity("payment_repair").CRITICAL, [
    "FRAUD_HOLD",
  ]);
  assert.deepEqual(classesBySeverity("settlement").CRITICAL, [
    "HERSTATT_EXPOSURE",
  ]);
  const fraud =
    generateSuite("payment_repair", { seed: 8, n: 50, mix: { CRITICAL: 1 } })
      .tasks;
  assert.ok(
    fraud.every((t) =>
      t.gold.repairSafe === false && t.gold.verdict === "HOLD"
    ),
  );
});

Deno.test("generateSuite() refuses a mix or difficulty it cannot honour, naming the value", () => {
  assert.throws(
    () =>
      generateSuite("reconciliation", {
        seed: 1,
        n: 1,
        mix: { CRITICAL: 0.5, HIGH: 0.5 },
      }),
    {
      name: "RangeError",
      message:
        "Cannot generate reconciliation tasks: mix asks for CRITICAL but the domain has no CRITICAL class (it has LOW, MEDIUM, HIGH)",
    },
  );
  assert.throws(
    () => generateSuite("settlement", { seed: 1, n: 1, mix: { HIGH: 0.5 } }),
    {
      name: "RangeError",
      message:
        "Cannot generate settlement tasks: mix shares must sum to 1, got 0.5",
    },
  );
  assert.throws(
    () => generateSuite("settlement", { seed: 1, n: 1, difficulty: 1.5 }),
    {
      name: "RangeError",
      message:
        "Cannot generate settlement tasks: difficulty must be in [0, 1], got 1.5",
    },
  );
  assert.throws(
    () => generateSuite("settlement", { seed: -1, n: 1 }),
    RangeError,
  );
  assert.throws(
    () => generateSuite("fx" as never, { seed: 1, n: 1 }),
    /domain must be one of/,
  );
});

Deno.test("generateTasks() counts every rejected candidate by reason", () => {
  const it = generateTasks("reconciliation", { seed: 7, n: 1000 });
  let r = it.next();
  while (!r.done) r = it.next();
  const stats = r.value;
  const rejected = Object.values(stats.rejections).reduce((a, b) => a + b, 0);
  assert.equal(stats.tasks, 1000);
  assert.equal(stats.candidates - stats.tasks, rejected);
  assert.ok(
    rejected > 0,
    "the generator is imperfect, and the verifier catches it",
  );
  for (const reason of Object.keys(stats.rejections)) {
    assert.match(reason, /^[A-Z_]+ -> [A-Z_]+$|: gold\./);
  }
});

Deno.test("makeCandidate() agrees with the verifier before admission on at least 90% of candidates", () => {
  // The generator and the verifier are separate code; agreement that is not
  // forced by the admission filter is evidence both follow the rule table.
  for (const domain of DOMAINS) {
    const classes = domainClasses(domain);
    let agree = 0;
    const total = 3000;
    const rngs = taskRngs(123);
    for (let i = 0; i < total; i++) {
      const rng = rngs.next().value;
      if (
        admit(
          domain,
          makeCandidate(domain, rng, classes[i % classes.length], i % 1001),
        ) === null
      ) agree++;
    }
    assert.ok(agree / total >= 0.9, `${domain}: ${agree}/${total}`);
  }
});

Deno.test("admit() never admits a candidate whose intended label was changed", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...DOMAINS),
      fc.integer({ min: 0, max: 0xffff_ffff }),
      fc.integer({ min: 0, max: 1000 }),
      fc.nat(),
      (domain, seed, milli, k) => {
        const t = generateTask(domain, seed, 0, { difficulty: milli / 1000 });
        const classes = domainClasses(domain).filter((c) => c !== taskClass(t));
        const other = classes[k % classes.length];
        const clean = other === domainClasses(domain)[0];
        const lie = {
          state: t.state,
          gold: { ...t.gold, exceptionType: clean ? null : other },
        };
        assert.notEqual(admit(domain, lie), null);
        if (t.gold.severity !== "CRITICAL") {
          assert.notEqual(
            admit(domain, {
              state: t.state,
              gold: { ...t.gold, severity: "CRITICAL" },
            }),
            null,
          );
        }
      },
    ),
    { seed: 77, numRuns: 200, verbose: 1 },
  );
});

Deno.test("the verifiers share no code with the generators beyond types and rule tables", () => {
  const dir = new URL("../../../lib/tasks/", import.meta.url);
  const imports = (file: string) =>
    [
      ...readFileSync(new URL(file, dir), "utf8").matchAll(
        /^(?:import [^\n]*|\}) from "\.\/([a-z_]+)\.ts";$/gm,
      ),
    ]
      .map((m) => m[1]);
  const generatorSide = [
    "_gen_util",
    "task_rng",
    "generate_reconciliation",
    "generate_payment_repair",
    "generate_settlement",
    "generate",
  ];
  for (
    const v of [
      "verify_reconciliation",
      "verify_payment_repair",
      "verify_settlement",
      "_verify_util",
    ]
  ) {
    const used = imports(`${v}.ts`);
    assert.deepEqual(used.filter((m) => generatorSide.includes(m)), [], v);
    assert.ok(
      used.every((m) =>
        m === "_verify_util" || m.endsWith("_rules") || m === "task"
      ),
      `${v}: ${used}`,
    );
  }
  for (
    const g of [
      "generate_reconciliation",
      "generate_payment_repair",
      "generate_settlement",
      "_gen_util",
    ]
  ) {
    const used = imports(`${g}.ts`);
    assert.ok(
      used.every((m) => !m.startsWith("verify") && m !== "_verify_util"),
      `${g}: ${used}`,
    );
  }
});
