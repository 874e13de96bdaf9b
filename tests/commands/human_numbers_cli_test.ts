import assert from "node:assert/strict";
import { runCli } from "../_helpers.ts";
import { noisyNumbers } from "../_human_numbers.ts";

// The CLI's human output prints measured quantities to the digits they carry
// (no 0.43999999999999995, no E-AURC 0.000000000000000006939) and decision
// rules exactly, as the shortest decimal that round-trips (a bin edge of
// 0.30000000000000004 is the rule numpy and lossbook compute). So the rules,
// read from the same command's --json (keys `threshold` and `edges`), are
// taken out of the text before it is searched for noise.

const dir = await Deno.makeTempDir({ prefix: "lossbook-numbers-" });
const run = `${dir}/run.jsonl`;
const perfect = `${dir}/perfect.jsonl`;

function ruleValues(doc: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, key: string) => {
    if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) walk(x, k);
    } else if (
      typeof v === "number" && /^(threshold|thresholds|edges)$/.test(key)
    ) out.push(String(v));
  };
  walk(doc, "");
  return out.sort((a, b) => b.length - a.length);
}

async function human(args: string[]): Promise<string> {
  const text = await runCli(args);
  assert.equal(text.code, 0, text.stderr);
  const json = await runCli([...args, "--json"]);
  assert.equal(json.code, 0, json.stderr);
  let out = text.stdout;
  for (const r of ruleValues(JSON.parse(json.stdout))) {
    out = out.replaceAll(r, "RULE");
  }
  return out;
}

Deno.test({
  name:
    "CLI human output prints no measured quantity with float noise (12+ significant digits or a row of zeros)",
  async fn() {
    try {
      const sim = await runCli([
        "simulate",
        "--tasks",
        "data/tasks/reconciliation_777_300.jsonl",
        "--model",
        "frontier_even",
        "--model",
        "small_severity_shaped",
        "--seed",
        "1",
        "--out",
        run,
      ]);
      assert.equal(sim.code, 0, sim.stderr);
      // a ranking by P(correct) that is perfect, whose E-AURC is 0 up to
      // float noise (it printed as 6.939e-18 and 0.000000000000000006939)
      let s = 1;
      const r = () => (s = (s * 16807) % 2147483647) / 2147483647;
      const lines = Array.from({ length: 101 }, (_, i) => {
        const ok = r() > 0.3;
        return JSON.stringify({
          runId: "r1",
          modelId: "m",
          taskId: `t${i}`,
          trial: 0,
          severity: ["LOW", "MEDIUM", "HIGH", "CRITICAL"][i % 4],
          trueClass: "AMOUNT_MISMATCH",
          predClass: ok ? "AMOUNT_MISMATCH" : "DUPLICATE",
          parseOk: true,
          pCorrect: ok ? 0.6 + 0.39 * r() : 0.5 * r(),
          action: "auto",
          cost: { completeness: "complete", usd: 0.001 },
          outcome: "resolved",
        });
      });
      await Deno.writeTextFile(perfect, lines.join("\n") + "\n");
      const found: string[] = [];
      for (
        const args of [
          [
            "score",
            run,
            "--profile",
            "reconciliation",
            "--profile",
            "principal_risk",
          ],
          ["score", "data/examples/model_ab.jsonl"],
          [
            "compare",
            run,
            "--a",
            "frontier_even",
            "--b",
            "small_severity_shaped",
            "--profile",
            "principal_risk",
          ],
          ["breakeven", "--pj", "0.1", "--ce", "0.02", "--cr", "1"],
          ["calibrate", run],
          ["escalate", run],
          ["escalate", perfect],
          ["sweep", run],
        ]
      ) {
        found.push(
          ...noisyNumbers(await human(args)).map((n) => `${args[0]}: ${n}`),
        );
      }
      assert.deepEqual(found, []);
      const e = await runCli(["escalate", perfect]);
      assert.match(e.stdout, /E-AURC 0;/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
