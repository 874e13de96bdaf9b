// lm-evaluation-harness, HELM and promptfoo logs through the CLI: detected
// from content, scored, imported, and refused with exit 2 and one line that
// names the file, the item and the field.
import assert from "node:assert/strict";
import { runCli, tempDir } from "../_helpers.ts";

const MC =
  "tests/fixtures/lm_eval/samples_recon_mc_2026-11-30T10-00-00.123456.jsonl";
const GEN =
  "tests/fixtures/lm_eval/samples_recon_net_2026-11-30T11-00-00.654321.jsonl";
const HELM = "tests/fixtures/helm/recon_model=example_recon-7b";
const PF = "tests/fixtures/promptfoo/results.json";

async function refused(args: string[], pattern: RegExp): Promise<void> {
  const r = await runCli(args);
  assert.equal(r.code, 2, r.stderr);
  const lines = r.stderr.trim().split("\n");
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], pattern);
}

Deno.test("score detects lm-eval, HELM and promptfoo logs from their content", async () => {
  for (
    const [args, format, n] of [
      [[MC], "lm-eval", 8],
      [[GEN, "--filter", "flexible-extract"], "lm-eval", 5],
      [[HELM], "helm", 8],
      [[PF, "--correct", "equals"], "promptfoo", 5],
    ] as const
  ) {
    const r = await runCli([
      "score",
      ...args,
      "--severity",
      "HIGH",
      "--resamples",
      "20",
      "--json",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.format, format);
    assert.equal(doc.decisions, n);
  }
});

Deno.test("score refuses an lm-eval file with several filters and none chosen, naming file and doc", async () => {
  await refused(
    ["score", GEN, "--severity", "HIGH"],
    /^lossbook score: Cannot load lm-eval samples .*samples_recon_net_.*\.jsonl: doc_id 0 appears once per filter .*--filter NAME$/,
  );
});

Deno.test("score refuses lm-eval samples without a results file or --model-id", async () => {
  const dir = await tempDir();
  const path = `${dir}/samples_recon_mc_2026-11-30T10-00-00.123456.jsonl`;
  await Deno.copyFile(MC, path);
  await refused(
    ["score", path, "--format", "lm-eval", "--severity", "HIGH"],
    /Cannot load lm-eval samples .*: the model is not on sample lines .*give --model-id NAME$/,
  );
  const r = await runCli([
    "score",
    path,
    "--format",
    "lm-eval",
    "--severity",
    "HIGH",
    "--model-id",
    "EleutherAI/pythia-160m",
    "--json",
    "--resamples",
    "20",
  ]);
  assert.equal(r.code, 0, r.stderr);
});

Deno.test("score refuses a HELM run whose exact_match is fractional, naming instance and stat", async () => {
  const dir = `${await tempDir()}/recon:model=x`;
  await Deno.mkdir(dir);
  for (const f of ["run_spec.json", "scenario_state.json"]) {
    await Deno.copyFile(`${HELM}/${f}`, `${dir}/${f}`);
  }
  const entries = JSON.parse(
    await Deno.readTextFile(`${HELM}/per_instance_stats.json`),
  );
  const em = entries[2].stats.find((s: { name: { name: string } }) =>
    s.name.name === "exact_match"
  );
  em.sum =
    em.mean =
    em.min =
    em.max =
      0.5;
  await Deno.writeTextFile(
    `${dir}/per_instance_stats.json`,
    JSON.stringify(entries),
  );
  await refused(
    ["score", dir, "--severity", "HIGH"],
    /Cannot load HELM run .*recon:model=x: per_instance_stats\.json\[2\] \(instance_id "id101", train_trial_index 0\): stat exact_match must be 0 or 1/,
  );
});

Deno.test("score refuses a promptfoo file without --correct, or whose results lack the named assertion", async () => {
  await refused(
    ["score", PF, "--severity", "HIGH"],
    /Cannot load promptfoo results .*results\.json: --correct TYPE\[,TYPE\] is required/,
  );
  await refused(
    ["score", PF, "--severity", "HIGH", "--correct", "icontains"],
    /results\.results\[0\] \(testIdx 0\): gradingResult\.componentResults has no assertion of type icontains/,
  );
});

Deno.test("score refuses an lm-eval, HELM or promptfoo log without a severity source", async () => {
  for (const args of [[MC], [HELM], [PF, "--correct", "equals"]]) {
    await refused(
      ["score", ...args],
      /--severity LEVEL, --severity-map FILE or --severity-field PATH/,
    );
  }
});

Deno.test("import writes lm-eval decisions with their probability source", async () => {
  const out = `${await tempDir()}/d.jsonl`;
  const r = await runCli([
    "import",
    MC,
    "--severity-field",
    "doc.severity",
    "--out",
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const lines = (await Deno.readTextFile(out)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assert.equal(lines.length, 8);
  assert.ok(lines.every((d) => d.pCorrectSource === "logprob-option"));
  const doc = (await Deno.readTextFile(MC)).trim().split("\n").map((l) =>
    JSON.parse(l).doc.severity
  );
  assert.deepEqual(lines.map((d) => d.severity), doc);
});
