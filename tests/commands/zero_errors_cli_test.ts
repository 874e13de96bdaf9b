// Zero observed is not zero risk: a run with no wrong answer still gets a
// loss interval with an upper bound above 0, from a real-shaped inspect_ai
// log (the fixture's samples, every answer scored correct) and from a
// Decision JSONL file, in score and compare, on the CLI and in the library.
import assert from "node:assert/strict";
import { compare, score } from "../../mod.ts";
import { decision, runCli, tempFile } from "../_helpers.ts";

const FIXTURES = new URL("../fixtures/inspect/", import.meta.url).pathname;

// the fixture run with every scored sample answered correctly: the same
// bytes (shape, samples, epochs, usage, metadata, bare NaN) but for the
// verdicts
async function allCorrect(name: string): Promise<string> {
  const text = await Deno.readTextFile(`${FIXTURES}${name}`);
  const edited = text.replace(/"value": "[IN]"/g, '"value": "C"');
  assert.notEqual(edited, text);
  return await tempFile(name, edited);
}

const HARNESS = ["--severity-field", "metadata.severity"];
const METHODS = ["auto", "fay-feuer", "jeffreys"] as const;

interface LossCi {
  lo: number;
  hi: number;
}

Deno.test("score of an inspect log with every answer correct: loss 0, upper bound above 0 under every profile with the default, fay-feuer and jeffreys, CLI and library alike", async () => {
  const file = await allCorrect("qwen.json");
  for (const method of METHODS) {
    const cli = await runCli([
      "score",
      file,
      ...HARNESS,
      "--interval",
      method,
      "--json",
    ]);
    assert.equal(cli.code, 0, cli.stderr);
    const doc = await score([file], {
      severityField: "metadata.severity",
      interval: method,
    });
    assert.equal(JSON.stringify(doc, null, 2) + "\n", cli.stdout);
    const [model] = doc.models;
    assert.equal(model.accuracy, 1);
    for (const [profile, ci] of Object.entries(model.intervals.loss)) {
      assert.equal(model.loss[profile], 0, `${method} ${profile}`);
      assert.ok(ci.hi! > 0, `${method} ${profile}: [${ci.lo}, ${ci.hi}]`);
      assert.ok(ci.lo! >= 0, `${method} ${profile}`);
    }
  }
});

Deno.test("compare of two inspect logs with every answer correct: the loss difference straddles 0 under every profile", async () => {
  const a = await allCorrect("qwen.json");
  const b = await allCorrect("sonnet.json");
  const flags = {
    a: "ollama/qwen2.5:0.5b",
    b: "anthropic/claude-sonnet-4-0",
    severityField: "metadata.severity",
  };
  const cli = await runCli([
    "compare",
    a,
    b,
    ...HARNESS,
    "--a",
    flags.a,
    "--b",
    flags.b,
    "--json",
  ]);
  assert.equal(cli.code, 0, cli.stderr);
  const doc = await compare([a, b], flags);
  assert.equal(JSON.stringify(doc, null, 2) + "\n", cli.stdout);
  for (const [profile, ci] of Object.entries(doc.differences.loss)) {
    const { lo, hi } = ci as LossCi;
    assert.equal(ci.estimate, 0, profile);
    assert.ok(lo < 0 && hi > 0, `${profile}: [${lo}, ${hi}]`);
  }
});

Deno.test("a Decision JSONL run with no wrong answer keeps an upper bound above 0: clean items only, exceptions only, one decision", async () => {
  const runs: Record<string, ReturnType<typeof decision>[]> = {
    "clean only": [0, 1, 2].map((i) =>
      decision({
        taskId: `t${i}`,
        severity: "LOW",
        trueClass: "MATCH",
        predClass: "MATCH",
      })
    ),
    "exceptions only": [0, 1, 2, 3].map((i) => decision({ taskId: `t${i}` })),
    "one decision": [decision({ severity: "CRITICAL" })],
  };
  for (const [name, decisions] of Object.entries(runs)) {
    const file = await tempFile(
      "zero.jsonl",
      decisions.map((d) => JSON.stringify(d)).join("\n") + "\n",
    );
    for (const method of METHODS) {
      const doc = await score([file], { interval: method });
      for (
        const [profile, ci] of Object.entries(doc.models[0].intervals.loss)
      ) {
        assert.equal(doc.models[0].loss[profile], 0);
        assert.ok(ci.hi! > 0, `${name}, ${method}, ${profile}: ${ci.hi}`);
      }
    }
  }
});
