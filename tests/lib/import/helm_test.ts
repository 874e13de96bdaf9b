import assert from "node:assert/strict";
import {
  detectHelm,
  helmImporter,
  loadHelmRun,
  parseHelmRun,
} from "../../../lib/import/helm.ts";
import { severityResolver } from "../../../lib/import/mapping.ts";
import { decisionSchema } from "../../../lib/decision/decision.ts";
import { tempDir } from "../../_helpers.ts";

const RUN = "tests/fixtures/helm/recon_model=example_recon-7b";
const FLAT = "tests/fixtures/helm/recon_model=example_no-logprobs";
const HIGH = () => "HIGH" as const;

type Entry = Record<string, unknown>;
const stat = (name: string, x: number, count = 1) => ({
  name: { name, split: "test" },
  count,
  sum: x * count,
  sum_squared: x * x * count,
  min: x,
  max: x,
  mean: count > 0 ? x : null,
  variance: 0,
  stddev: 0,
});

function entry(id: string, patch: Entry = {}, extra: unknown[] = []): Entry {
  return {
    instance_id: id,
    train_trial_index: 0,
    stats: [
      stat("exact_match", 1),
      stat("max_prob", 0.6),
      stat("logprob", Math.log(0.6)),
      stat("num_prompt_tokens", 50),
      stat("num_completion_tokens", 1),
      stat("inference_runtime", 0.5),
      ...extra,
    ],
    ...patch,
  };
}

const runSpec = {
  name: "r",
  adapter_spec: { model: "org/m", method: "multiple_choice_joint" },
};
const parse = (entries: Entry[], options: Record<string, unknown> = {}) =>
  parseHelmRun({ runSpec, perInstanceStats: entries }, {
    path: "runs/r",
    severityOf: HIGH,
    ...options,
  });

async function fixtureEntries(dir: string): Promise<Entry[]> {
  return JSON.parse(await Deno.readTextFile(`${dir}/per_instance_stats.json`));
}

function statOf(e: Entry, name: string): { sum: number; mean: number } {
  return (e.stats as { name: { name: string }; sum: number; mean: number }[])
    .find((s) => s.name.name === name)!;
}

Deno.test("loadHelmRun() reads one decision per instance and train trial, model and run id from run_spec", async () => {
  const { decisions, notes } = await loadHelmRun(RUN, { severityOf: HIGH });
  const entries = (await fixtureEntries(RUN)).filter((e) =>
    e.perturbation === undefined
  );
  assert.equal(decisions.length, entries.length);
  assert.deepEqual(notes, { "perturbed:typos": 2 });
  entries.forEach((e, i) => {
    const d = decisions[i];
    assert.equal(d.runId, "recon:model=example_recon-7b");
    assert.equal(d.modelId, "example/recon-7b");
    assert.equal(d.taskId, e.instance_id);
    assert.equal(d.trial, e.train_trial_index);
    assert.equal(
      d.predClass,
      statOf(e, "exact_match").mean === 1
        ? "verdict:correct"
        : "verdict:incorrect",
    );
    assert.equal(d.pCorrect, statOf(e, "max_prob").mean);
    assert.equal(d.pCorrectSource, "logprob-token");
    assert.equal(d.tokensIn, statOf(e, "num_prompt_tokens").sum);
    assert.equal(d.tokensOut, statOf(e, "num_completion_tokens").sum);
    // inference_runtime is in seconds
    assert.ok(
      Math.abs(d.latencyMs! - 1000 * statOf(e, "inference_runtime").sum) < 1e-9,
    );
    // HELM records no price: unavailable, never zero
    assert.deepEqual(d.cost, { completeness: "unavailable", usd: null });
    assert.ok(decisionSchema.safeParse(d).success);
  });
  assert.deepEqual([...new Set(decisions.map((d) => d.trial))], [0, 1]);
});

Deno.test("loadHelmRun() takes answer and target texts from scenario_state, through the output mapping", async () => {
  const { decisions } = await loadHelmRun(RUN, { severityOf: HIGH });
  for (const d of decisions) {
    assert.ok(typeof d.answer === "string" && typeof d.target === "string");
    // exact_match compares the mapped answer with the correct reference
    assert.equal(d.answer === d.target, d.predClass === "verdict:correct");
  }
});

Deno.test("loadHelmRun() gives no probability when the run's logprobs are all zero (HELM's rule)", async () => {
  const entries = await fixtureEntries(FLAT);
  // max_prob is exp(0) = 1 there, which is not a probability
  assert.ok(entries.every((e) => statOf(e, "max_prob").mean === 1));
  const r = await loadHelmRun(FLAT, { severityOf: HIGH });
  assert.ok(
    r.decisions.every((d) => d.pCorrect === null && d.pCorrectSource === null),
  );
  assert.match(r.messages[1], /logprobs are all zero/);
});

Deno.test("parseHelmRun() gives null to an entry whose own logprob is zero in a run that has logprobs", () => {
  const zero = entry("id2", {}, []);
  (zero.stats as ReturnType<typeof stat>[])[2] = stat("logprob", 0);
  const { decisions, notes } = parse([entry("id1"), zero]);
  assert.equal(decisions[0].pCorrect, 0.6);
  assert.equal(decisions[1].pCorrect, null);
  assert.equal(notes.zeroLogprobEntries, 1);
});

Deno.test("loadHelmRun() reads a perturbation's entries only when asked, and refuses one the run lacks", async () => {
  const r = await loadHelmRun(RUN, { severityOf: HIGH, perturbation: "typos" });
  assert.equal(r.decisions.length, 2);
  assert.ok(r.decisions.every((d) => d.taskId === "id100"));
  assert.ok(r.notes.unperturbedSetAside > 0);
  await assert.rejects(
    () => loadHelmRun(RUN, { severityOf: HIGH, perturbation: "dialect" }),
    /no entry has perturbation "dialect"; the run has \(unperturbed\), typos/,
  );
});

Deno.test("parseHelmRun() decides with --metric when given", () => {
  const e = entry("id1", {}, [stat("quasi_exact_match", 0)]);
  assert.equal(parse([e]).decisions[0].predClass, "verdict:correct");
  assert.equal(
    parse([e], { metric: "quasi_exact_match" }).decisions[0].predClass,
    "verdict:incorrect",
  );
});

Deno.test("parseHelmRun() refuses a missing or fractional metric, naming instance, trial and stat", () => {
  assert.throws(
    () =>
      parse([entry("id1"), entry("id7", { stats: [stat("max_prob", 0.5)] })]),
    (e: Error) =>
      e instanceof TypeError &&
      e.message ===
        'Cannot load HELM run runs/r: per_instance_stats.json[1] (instance_id "id7", train_trial_index 0): stat exact_match is missing (choose another with --metric NAME)',
  );
  const half = entry("id3");
  (half.stats as ReturnType<typeof stat>[])[0] = stat("exact_match", 0.5);
  assert.throws(
    () => parse([half]),
    /\(instance_id "id3", train_trial_index 0\): stat exact_match must be 0 or 1 .*got 0\.5/,
  );
  const empty = entry("id4");
  (empty.stats as ReturnType<typeof stat>[])[0] = stat("exact_match", 1, 0);
  assert.throws(() => parse([empty]), /stat exact_match has count 0, no value/);
});

Deno.test("parseHelmRun() refuses a repeated entry, a repeated stat and a fractional token count", () => {
  assert.throws(
    () => parse([entry("id1"), entry("id1")]),
    /per_instance_stats\.json\[1\] \(instance_id "id1", train_trial_index 0\): repeats per_instance_stats\.json\[0\]/,
  );
  assert.throws(
    () => parse([entry("id1", {}, [stat("exact_match", 0)])]),
    /stat exact_match appears 2 times in one entry/,
  );
  const e = entry("id1");
  (e.stats as ReturnType<typeof stat>[])[3] = stat("num_prompt_tokens", 1.5);
  assert.throws(
    () => parse([e]),
    /stat num_prompt_tokens must sum to a whole number/,
  );
});

Deno.test("parseHelmRun() refuses a run_spec without a model and entries of the wrong shape", () => {
  assert.throws(
    () =>
      parseHelmRun({
        runSpec: { name: "r", adapter_spec: {} },
        perInstanceStats: [],
      }, {
        path: "runs/r",
        severityOf: HIGH,
      }),
    /Cannot load HELM run runs\/r: run_spec\.json: adapter_spec\.model must be a non-empty string, got nothing/,
  );
  assert.throws(
    () => parse([{ instance_id: "id1", stats: [] }]),
    /\[0\] \(instance_id "id1"\): train_trial_index must be an integer >= 0, got nothing/,
  );
});

Deno.test("loadHelmRun() refuses a folder without per_instance_stats.json, naming the file", async () => {
  const dir = await tempDir();
  await Deno.copyFile(`${RUN}/run_spec.json`, `${dir}/run_spec.json`);
  await assert.rejects(
    () => loadHelmRun(dir, { severityOf: HIGH }),
    (e: Error) =>
      e instanceof Deno.errors.NotFound &&
      e.message.includes(dir) &&
      e.message.includes("per_instance_stats.json is missing"),
  );
});

Deno.test("loadHelmRun() reads severity from the scenario instance with --severity-field", async () => {
  const severityOf = severityResolver({
    kind: "field",
    path: ["instance", "split"],
  });
  await assert.rejects(
    () => loadHelmRun(RUN, { severityOf }),
    /\(instance_id "id100", train_trial_index 0\): instance\.split: severity must be one of LOW, MEDIUM, HIGH, CRITICAL, got "test"/,
  );
});

Deno.test("detectHelm() recognises a run folder and its per_instance_stats.json, and the importer is registered as helm", async () => {
  const none = new Uint8Array();
  assert.equal(detectHelm({ path: RUN, isDirectory: true, head: none }), true);
  assert.equal(
    detectHelm({
      path: `${RUN}/per_instance_stats.json`,
      isDirectory: false,
      head: none,
    }),
    true,
  );
  assert.equal(
    detectHelm({ path: "tests", isDirectory: true, head: none }),
    false,
  );
  const r = await helmImporter.import(RUN, { severityOf: HIGH });
  assert.equal(r.decisions.length, 8);
  assert.match(
    r.messages[0],
    /correctness from stat exact_match; model example\/recon-7b; unperturbed entries \(set aside: typos 2\)/,
  );
});

Deno.test("loadHelmRun() takes the run id from run_spec.json's name, whatever the folder is called, a name with ':' as HELM writes it included", async () => {
  const want = (await loadHelmRun(RUN, { severityOf: HIGH })).decisions;
  for (const name of ["recon:model=example_recon-7b", "copied run"]) {
    const dir = `${await tempDir()}/${name}`;
    await Deno.mkdir(dir);
    for await (const e of Deno.readDir(RUN)) {
      await Deno.copyFile(`${RUN}/${e.name}`, `${dir}/${e.name}`);
    }
    const got = (await loadHelmRun(dir, { severityOf: HIGH })).decisions;
    assert.deepEqual(got, want, name);
    assert.equal(got[0].runId, "recon:model=example_recon-7b");
  }
});

Deno.test("parseHelmRun() refuses a run spec without a name, naming the file and field", () => {
  assert.throws(
    () =>
      parseHelmRun({
        runSpec: { adapter_spec: { model: "m" } },
        perInstanceStats: [],
      }, { path: "runs/r", severityOf: HIGH }),
    {
      name: "TypeError",
      message:
        "Cannot load HELM run runs/r: run_spec.json: name must be a non-empty string, got nothing",
    },
  );
});
