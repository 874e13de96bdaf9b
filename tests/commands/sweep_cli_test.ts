import assert from "node:assert/strict";
import { decision, runCli, tempFile } from "../_helpers.ts";

const EXAMPLE = "data/examples/model_ab.jsonl";

/**
 * The issue's example as a run export: A misses 100 LOW and 40 HIGH
 * exceptions, B 3,000 LOW and 30 HIGH, on 3,100 decisions each.
 */
async function issueExample(): Promise<string> {
  const lines: string[] = [];
  const add = (
    modelId: string,
    severity: "LOW" | "HIGH",
    miss: boolean,
    count: number,
  ) => {
    for (let i = 0; i < count; i++) {
      const trueClass = severity === "LOW" ? "DUPLICATE" : "AMOUNT_MISMATCH";
      lines.push(JSON.stringify(decision({
        modelId,
        taskId: `${severity}-${miss ? "miss" : "ok"}-${i}`,
        severity,
        trueClass,
        predClass: miss ? "MATCH" : trueClass,
        outcome: miss ? "model_failure" : "resolved",
      })));
    }
  };
  add("A", "LOW", true, 100);
  add("A", "HIGH", true, 40);
  add("A", "LOW", false, 2960);
  add("B", "LOW", true, 3000);
  add("B", "HIGH", true, 30);
  add("B", "LOW", false, 70);
  return await tempFile("issue_example.jsonl", lines.join("\n") + "\n");
}

Deno.test("sweep --json reports the 5.8 crossover exactly, one flip, tau per grid point and win shares", async () => {
  const file = await issueExample();
  const { code, stdout, stderr } = await runCli(["sweep", file, "--json"]);
  assert.equal(code, 0, stderr);
  const doc = JSON.parse(stdout);
  // exact crossover: K(LOW) = 0.2, K(HIGH) = 10 r: 20 + 400 r = 600 + 300 r at r = 5.8
  const { interval, noCrossShare, ...point } = doc.crossovers[0];
  assert.equal(doc.crossovers.length, 1);
  assert.deepEqual(point, {
    a: "A",
    b: "B",
    ratio: 5.8,
    exact: "29/5",
    span: 1450,
  });
  // posterior draws of both models' coefficients: the interval holds the point
  assert.ok(interval.lo < 5.8 && 5.8 < interval.hi, JSON.stringify(interval));
  assert.ok(noCrossShare >= 0 && noCrossShare < 0.05);
  assert.equal(doc.flips, 1);
  assert.deepEqual(doc.winnerChanges, [{
    ratio: 5.8,
    exact: "29/5",
    from: ["A"],
    to: ["B"],
  }]);
  assert.equal(doc.kendallTau.length, 61);
  assert.equal(doc.grid.ratios.length, 61);
  assert.deepEqual([doc.kendallTau[0], doc.kendallTau[60]], [1, -1]);
  assert.deepEqual(Object.keys(doc.winShare), ["A", "B"]);
  assert.ok(Math.abs(doc.winShare.A + doc.winShare.B - 1) < 1e-12);
  assert.equal(doc.family.base, "reconciliation@1.0.0");
  assert.deepEqual(doc.family.scaled, ["HIGH", "CRITICAL"]);
  assert.equal(doc.registryDraws, null);
  assert.deepEqual(doc.profiles.map((p: { id: string }) => p.id), [
    "flat",
    "reconciliation",
    "review_heavy",
    "principal_risk",
  ]);
  // Per run gives the same crossover (same decisions per model).
  const perRun = JSON.parse(
    (await runCli(["sweep", file, "--json", "--per", "run"])).stdout,
  );
  assert.equal(perRun.crossovers[0].ratio, 5.8);
});

Deno.test("sweep --base, --from, --to and --points set the family and the grid", async () => {
  const { code, stdout, stderr } = await runCli([
    "sweep",
    EXAMPLE,
    "--json",
    "--base",
    "flat",
    "--to",
    "1000",
    "--points",
    "4",
    "--mode",
    "strict",
  ]);
  assert.equal(code, 0, stderr);
  const doc = JSON.parse(stdout);
  assert.deepEqual(doc.grid.ratios, [1, 10, 100, 1000]);
  assert.equal(doc.matrix, "strict");
  assert.equal(doc.family.base, "flat@1.0.0");
  // Under the flat base, r = 1 is the flat profile: loss ranks as accuracy.
  assert.equal(doc.kendallTau[0], 1);
  assert.deepEqual(doc.winners[0], doc.accuracyWinners);
});

Deno.test("sweep --registry-draws is seeded and reports win shares within the registry ranges", async () => {
  const args = [
    "sweep",
    EXAMPLE,
    "--json",
    "--registry-draws",
    "500",
    "--seed",
    "3",
  ];
  const a = JSON.parse((await runCli(args)).stdout);
  const b = JSON.parse((await runCli(args)).stdout);
  assert.deepEqual(a.registryDraws, b.registryDraws);
  assert.equal(a.registryDraws.draws, 500);
  assert.equal(a.registryDraws.mapping.HIGH, "misrouted_wire");
  const total = Object.values(
    a.registryDraws.winShare as Record<string, number>,
  )
    .reduce((x, y) => x + y, 0);
  assert.ok(Math.abs(total - 1) < 1e-12);
  const tri = JSON.parse(
    (await runCli([...args, "--distribution", "triangular"])).stdout,
  );
  assert.equal(tri.registryDraws.distribution, "triangular");
});

Deno.test("sweep prints the crossovers, the winner changes and the profiles without --json", async () => {
  const { code, stdout } = await runCli(["sweep", await issueExample()]);
  assert.equal(code, 0);
  assert.match(stdout, /B overtakes A\s+29\/5\s+5\.8/);
  assert.match(
    stdout,
    /winner changes over \[1, 100,000\]: 1\n {2}at r = 5\.8 \(29\/5\): A -> B/,
  );
  assert.match(stdout, /principal_risk/);
});

Deno.test("sweep exits 2 with one line on bad input", async () => {
  for (
    const [args, message] of [
      [
        ["sweep", EXAMPLE, "--from", "0"],
        /--from must be a number > 0, got "0"/,
      ],
      [
        ["sweep", EXAMPLE, "--to", "0.5"],
        /--to must be a number >= --from \(1\), got "0.5"/,
      ],
      [
        ["sweep", EXAMPLE, "--points", "1"],
        /--points must be an integer from 2 to 100,000, got "1"/,
      ],
      [
        ["sweep", EXAMPLE, "--registry-draws=-5"],
        /--registry-draws must be an integer/,
      ],
      [
        ["sweep", EXAMPLE, "--scaled", "HIGH,HUGE"],
        /--scaled must list severities .* got "HUGE"/,
      ],
      [["sweep", EXAMPLE, "--base", "nope"], /Unknown cost profile "nope"/],
      [
        ["sweep", EXAMPLE, "--distribution", "normal"],
        /--distribution must be one of log-uniform, triangular, log-triangular/,
      ],
      [
        ["sweep", EXAMPLE, "--per", "month"],
        /--per must be decision or run, got "month"/,
      ],
      [["sweep", EXAMPLE, "--mode", "lenient"], /--mode must be one of/],
      [["sweep", EXAMPLE, "--seed", "x"], /--seed must be an integer/],
      [["sweep", EXAMPLE, "--bogus"], /Unknown option '--bogus'/],
      [["sweep"], /expected one or more run files, got none/],
      [["sweep", "nope.jsonl"], /Cannot read nope\.jsonl: no such file/],
    ] as const
  ) {
    const { code, stderr } = await runCli([...args]);
    assert.equal(code, 2, `${args.join(" ")}: ${stderr}`);
    assert.match(stderr, message);
    assert.equal(stderr.trim().split("\n").length, 1, stderr);
  }
});

Deno.test("sweep refuses an empty run: there are no decisions to sweep", async () => {
  const file = await tempFile("empty.jsonl", "");
  const { code, stderr } = await runCli(["sweep", file]);
  assert.equal(code, 2);
  assert.match(stderr, /^lossbook sweep: no decisions in .*empty\.jsonl$/m);
});
