// `lossbook card`: every figure on the card is the one score, sweep and
// calibrate print for the same inputs; the card in Markdown and HTML, the
// Every Eval Ever records and the model-index block; and what it refuses.
import assert from "node:assert/strict";
import { formatRateMethod } from "../../lib/format/numbers.ts";
import { formatNumber } from "../../commands/_command.ts";
import { parse as parseYaml } from "yaml";
import {
  card,
  type CardDocument,
  costReportBy,
  decisionsToJsonl,
  loadDecisions,
} from "../../mod.ts";
import { everyEvalEverErrors } from "../../lib/report/every_eval_ever.ts";
import { cardMarkdown } from "../../api/card_render.ts";
import { decision, runCli, tempDir, tempFile } from "../_helpers.ts";

const AB = "data/examples/model_ab.jsonl";
const QWEN = "data/examples/harness/inspect_qwen.eval";
const SONNET = "data/examples/harness/inspect_sonnet.json";
const MAP = "data/examples/harness/inspect_severity.csv";
const IN_PROGRESS = "tests/fixtures/inspect/qwen_in_progress.eval";

async function json(args: string[]): Promise<Record<string, unknown>> {
  const r = await runCli([...args, "--json"]);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

// deno-lint-ignore no-explicit-any
type Doc = any;

/** Hold a card to the documents of score, sweep and calibrate for the same inputs and flags. */
async function assertCardFigures(
  inputs: string[],
  reading: string[],
  scoring: string[] = [],
): Promise<CardDocument> {
  const doc = await json(["card", ...inputs, ...reading, ...scoring]) as Doc;
  const score = await json(["score", ...inputs, ...reading, ...scoring]) as Doc;
  const seed = scoring.includes("--seed")
    ? ["--seed", scoring[scoring.indexOf("--seed") + 1]]
    : [];
  const sweep = await json(["sweep", ...inputs, ...reading, ...seed]) as Doc;
  for (
    const k of [
      "format",
      "decisions",
      "mode",
      "matrix",
      "level",
      "seed",
      "resamples",
      "interval",
      "lossIntervalMethod",
      "profiles",
      "notes",
      "pCorrectSources",
      "setAside",
      "inputs",
    ]
  ) assert.deepEqual(doc[k], score[k], k);
  assert.deepEqual(doc.sweep.family, sweep.family);
  assert.deepEqual(doc.sweep.winnerChanges, sweep.winnerChanges);
  assert.equal(doc.sweep.flips, sweep.flips);
  assert.deepEqual(
    [doc.sweep.grid.from, doc.sweep.grid.to, doc.sweep.grid.points],
    [sweep.grid.from, sweep.grid.to, sweep.grid.points],
  );
  assert.deepEqual(
    doc.models.map((m: Doc) => m.modelId),
    score.models.map((m: Doc) => m.modelId),
  );
  const anyP = doc.models.some((m: Doc) => m.calibration !== null);
  const calibrate = anyP
    ? await json(["calibrate", ...inputs, ...reading, ...seed]) as Doc
    : null;
  score.models.forEach((s: Doc, i: number) => {
    const m = doc.models[i];
    const where = m.modelId;
    assert.equal(m.decisions, s.n, where);
    assert.equal(m.accuracy, s.accuracy, where);
    assert.deepEqual(m.accuracyInterval, s.intervals.accuracy, where);
    assert.equal(m.severityWeightedRecall, s.severityWeightedRecall, where);
    assert.deepEqual(
      m.severityWeightedRecallInterval,
      s.intervals.severityWeightedRecall,
      where,
    );
    assert.deepEqual(m.loss, s.loss, where);
    assert.deepEqual(m.lossIntervals, s.intervals.loss, where);
    assert.deepEqual(m.pBest, s.pBest, where);
    // the spans hold exactly the grid points sweep names the model a winner at
    sweep.grid.ratios.forEach((r: number, j: number) => {
      const inSpan = m.wins.some((w: Doc) => w.from <= r && r <= w.to);
      const strictly = m.wins.some((w: Doc) => w.from < r && r < w.to);
      const wins = sweep.winners[j].includes(m.modelId);
      if (wins) assert.ok(inSpan, `${where} wins at r = ${r}`);
      if (strictly) assert.ok(wins, `${where} does not win at r = ${r}`);
    });
    for (const w of m.wins) {
      for (const s of doc.sweep.family.scaled) {
        assert.equal(w.K.from[s], doc.sweep.family.K[s] * w.from);
        assert.equal(w.K.to[s], doc.sweep.family.K[s] * w.to);
      }
    }
    if (m.calibration !== null) {
      const c = calibrate.models.find((x: Doc) => x.modelId === m.modelId);
      assert.equal(m.calibration.n, c.n, where);
      assert.equal(m.calibration.ece, c.ece, where);
      assert.deepEqual(m.calibration.eceInterval, c.eceInterval, where);
      assert.equal(m.calibration.brier, c.brier, where);
    }
  });
  if (calibrate !== null) {
    assert.deepEqual(doc.calibration, {
      bins: calibrate.binsRequested,
      strategy: calibrate.strategy,
    });
  }
  return doc;
}

Deno.test("card: every figure is score's, sweep's and calibrate's for the same inputs (a JSONL run, two profiles, another seed and level)", async () => {
  const doc = await assertCardFigures([AB], [], [
    "--profile",
    "reconciliation",
    "--profile",
    "flat",
    "--ci",
    "0.9",
    "--seed",
    "3",
  ]);
  assert.equal(doc.tasks, 800);
  assert.equal(doc.sameTasks, true);
  assert.deepEqual(doc.severities, { from: "inputs" });
  // cost evidence: lib/evidence's cost report of the same decisions
  const table = await loadDecisions(AB);
  const books = costReportBy(table.array("modelId") as string[], {
    costCompleteness: table.array("costCompleteness") as never,
    costUsd: table.array("costUsd") as (number | null)[],
    outcome: table.array("outcome") as never,
  });
  for (const m of doc.models) {
    const b = books.find((x) => x.group === m.modelId)!;
    assert.deepEqual(m.cost, {
      attempts: b.attempts,
      complete: b.completeCount,
      partial: b.partialCount,
      unavailable: b.unavailableCount,
      notApplicable: b.notApplicableCount,
      completeUsd: b.completeUsd,
      successes: b.successes,
      costPerSuccessUsd: b.costPerSuccessUsd,
      costPerSuccessLabel: b.costPerSuccessLabel,
    });
  }
});

Deno.test("card: harness logs with a severity map: figures as score, sweep and calibrate print them; the map's SHA-256; the task and dataset the logs name", async () => {
  const doc = await assertCardFigures([QWEN, SONNET], ["--severity-map", MAP]);
  const digest = await crypto.subtle.digest(
    "SHA-256",
    await Deno.readFile(MAP),
  );
  assert.deepEqual(doc.severities, {
    from: "--severity-map",
    file: MAP,
    sha256: Array.from(
      new Uint8Array(digest),
      (b) => b.toString(16).padStart(2, "0"),
    ).join(""),
    key: null,
  });
  assert.deepEqual(doc.evaluation, {
    taskTypes: ["recon_yes_no"],
    datasetTypes: ["recon_yes_no.jsonl"],
    datasetNames: ["recon_yes_no"],
  });
  const qwen = doc.models.find((m) => m.modelId === "ollama/qwen2.5:0.5b")!;
  assert.deepEqual(qwen.calibration?.pCorrectSources, {
    "agreement@2": 6,
    "logprob-token": 2,
  });
  assert.equal(
    doc.command,
    `lossbook card ${QWEN} ${SONNET} --severity-map ${MAP}`,
  );
});

Deno.test("card: the printed figures are the ones score prints in its report", async () => {
  const args = [QWEN, SONNET, "--severity-map", MAP];
  const md = await runCli(["card", ...args]);
  assert.equal(md.code, 0, md.stderr);
  const human = await runCli(["score", ...args]);
  assert.equal(human.code, 0, human.stderr);
  // accuracy with its interval, and each loss with its interval: what
  // score --json holds, as score's report prints it and as the card does
  const doc = JSON.parse((await runCli(["score", ...args, "--json"])).stdout);
  const pct = (v: number) => (v * 100).toFixed(2);
  for (const m of doc.models) {
    const ci = m.intervals.accuracy;
    const range = `[${pct(ci.lo)}, ${pct(ci.hi)}]`;
    const method = formatRateMethod(ci);
    assert.ok(
      human.stdout.includes(`${pct(m.accuracy)}% ${range} (95% ${method}`),
    );
    assert.ok(
      md.stdout.includes(
        `${pct(m.accuracy)}% (95% ${method}: ${pct(ci.lo)}% to ${pct(ci.hi)}%)`,
      ),
      `the card prints ${m.modelId}'s accuracy as score does`,
    );
  }
  // each loss with its interval and method, as score --json holds them
  for (const m of doc.models) {
    for (const p of doc.profiles) {
      const ci = m.intervals.loss[p.id];
      const row = `| ${formatNumber(m.loss[p.id])} | [${formatNumber(ci.lo)}, ${
        formatNumber(ci.hi)
      }] | ${ci.method} |`;
      assert.ok(md.stdout.includes(row), `the card prints ${row}`);
      assert.ok(
        human.stdout.includes(
          `[${formatNumber(ci.lo)}, ${formatNumber(ci.hi)}]`,
        ),
        `score prints ${m.modelId}'s ${p.id} interval`,
      );
    }
  }
  // calibrate's ECE and Brier, to its four decimals
  const cal = await runCli(["calibrate", ...args]);
  for (const figure of ["ECE 0.2125", "Brier 0.2813"]) {
    assert.ok(cal.stdout.includes(figure), `calibrate prints ${figure}`);
    assert.ok(md.stdout.includes(figure), `the card prints ${figure}`);
  }
  // each import says what it found once, though the inputs are read four times
  assert.equal(
    md.stderr.match(/inspect_qwen\.eval: scorer: match/g)?.length,
    1,
  );
});

Deno.test("card() returns the --json document byte for byte", async () => {
  const cli = await runCli([
    "card",
    QWEN,
    "--severity",
    "HIGH",
    "--profile",
    "flat",
    "--json",
  ]);
  assert.equal(cli.code, 0, cli.stderr);
  const doc = await card([QWEN], { severity: "HIGH", profiles: ["flat"] });
  assert.equal(JSON.stringify(doc, null, 2) + "\n", cli.stdout);
  assert.deepEqual(doc.severities, { from: "--severity", value: "HIGH" });
  assert.equal(doc.models[0].wins.length, 1);
});

Deno.test("card: when the models did not answer the same tasks, the card says so with the counts, and the figures stay score's", async () => {
  const lines = [
    ...["t1", "t2", "t3"].map((taskId) => decision({ modelId: "A", taskId })),
    ...["t2", "t3", "t4", "t5"].map((taskId, i) =>
      decision({
        modelId: "B",
        taskId,
        predClass: i === 0 ? "MATCH" : "AMOUNT_MISMATCH",
        cost: { completeness: "unavailable", usd: null },
      })
    ),
  ];
  const run = await tempFile("uneven.jsonl", decisionsToJsonl(lines));
  const doc = await assertCardFigures([run], []);
  assert.equal(doc.sameTasks, false);
  assert.deepEqual(
    [doc.tasks, doc.sharedTasks, doc.models.map((m) => m.tasks)],
    [5, 2, [3, 4]],
  );
  const md = cardMarkdown(doc);
  assert.match(
    md,
    /the models did not all answer the same tasks: A 3, B 4, of 5 tasks in all, 2 answered by every model/,
  );
  assert.equal(doc.models[0].cost.costPerSuccessLabel, "complete");
  assert.equal(doc.models[1].cost.costPerSuccessLabel, "incomplete");
  assert.match(md, /cost per success USD 0\.001 \(complete\)/);
});

Deno.test("card: a harness log read with --allow-incomplete carries its sample counts onto the card", async () => {
  const doc = await assertCardFigures([IN_PROGRESS], [
    "--severity",
    "LOW",
    "--allow-incomplete",
  ]);
  assert.equal(doc.inputs?.length, 1);
  const [i] = doc.inputs!;
  const md = cardMarkdown(doc);
  assert.ok(
    md.includes(
      `read with \`--allow-incomplete\`: \`${IN_PROGRESS}\`, status ${i.status}, ${i.samplesRead} of ${
        i.samplesExpected === null ? "an unstated number of" : i.samplesExpected
      } samples.`,
    ),
    md,
  );
});

Deno.test("card --out writes the Markdown; refuses an existing file without --force and an input even with it; --html writes the same card as HTML", async () => {
  const dir = await tempDir();
  const out = `${dir}/card.md`;
  const args = ["card", QWEN, "--severity-map", MAP];
  const first = await runCli([...args, "--out", out]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /^wrote the card of 1 model to .*card\.md\n$/);
  const md = await Deno.readTextFile(out);
  assert.equal(md, (await runCli(args)).stdout);
  assert.match(md, /^## Consequence card\n/);
  assert.match(md, /\n### ollama\/qwen2\.5:0\.5b\n/);
  assert.match(md, /lossbook 0\.1\.0/);
  const again = await runCli([...args, "--out", out]);
  assert.equal(again.code, 2, again.stderr);
  assert.match(again.stderr, /the file exists; pass --force/);
  const html = await runCli([...args, "--out", out, "--force", "--html"]);
  assert.equal(html.code, 0, html.stderr);
  const page = await Deno.readTextFile(out);
  assert.match(page, /^<!DOCTYPE html>\n/);
  assert.match(page, /<h3>ollama\/qwen2\.5:0\.5b<\/h3>/);
  assert.match(
    page,
    /44\.44% \(95% Clopper-Pearson, 4\.76471 effective tasks: 6\.49% to 88\.50%\)/,
  );
  // the map is an input: never written over
  const before = await Deno.readFile(MAP);
  const onMap = await runCli([...args, "--out", MAP, "--force"]);
  assert.equal(onMap.code, 2);
  assert.match(onMap.stderr, /is the same file as the input --severity-map/);
  assert.deepEqual(await Deno.readFile(MAP), before);
  const onLog = await runCli([...args, "--out", QWEN, "--force"]);
  assert.equal(onLog.code, 2);
  assert.match(onLog.stderr, /is the same file as the input input/);
});

Deno.test("card refuses --html with --json and no --out, one file for two outputs, and the standard input", async () => {
  const a = await runCli(["card", AB, "--html", "--json"]);
  assert.equal(a.code, 2);
  assert.match(a.stderr, /--html writes the card to --out FILE/);
  const dir = await tempDir();
  const b = await runCli([
    "card",
    AB,
    "--out",
    `${dir}/x`,
    "--model-index",
    `${dir}/x`,
  ]);
  assert.equal(b.code, 2);
  assert.match(b.stderr, /--out and --model-index name the same file/);
  await assert.rejects(
    () => card(["/dev/stdin"]),
    /card reads each input more than once .* not the standard input or a pipe \(\/dev\/stdin\)/,
  );
});

Deno.test("card --every-eval-ever writes one record per model, valid against the vendored schema 0.3.0, loss lower-is-better with its interval's own method", async () => {
  const dir = await tempDir();
  const r = await runCli([
    "card",
    QWEN,
    SONNET,
    "--severity-map",
    MAP,
    "--every-eval-ever",
    dir,
    "--json",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as CardDocument;
  const files: string[] = [];
  for await (const dev of Deno.readDir(dir)) {
    for await (const model of Deno.readDir(`${dir}/${dev.name}`)) {
      for await (const f of Deno.readDir(`${dir}/${dev.name}/${model.name}`)) {
        files.push(`${dev.name}/${model.name}/${f.name}`);
      }
    }
  }
  assert.equal(files.length, 2);
  for (const f of files) {
    assert.match(
      f,
      /^(anthropic\/claude-sonnet-4-0|ollama\/qwen2\.5_0\.5b)\/[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.json$/,
    );
    const rec = JSON.parse(await Deno.readTextFile(`${dir}/${f}`));
    assert.deepEqual(everyEvalEverErrors(rec), []);
    assert.equal(rec.schema_version, "0.3.0");
    const m = doc.models.find((x) => x.modelId === rec.model_info.id)!;
    const byId = new Map(
      // deno-lint-ignore no-explicit-any
      rec.evaluation_results.map((e: any) => [e.metric_config.metric_id, e]),
    ) as Map<string, Doc>;
    const acc = byId.get("accuracy")!;
    assert.equal(acc.score_details.score, m.accuracy);
    assert.equal(acc.metric_config.lower_is_better, false);
    assert.deepEqual(acc.score_details.uncertainty.confidence_interval, {
      lower: m.accuracyInterval!.lo,
      upper: m.accuracyInterval!.hi,
      confidence_level: m.accuracyInterval!.level,
      method: m.accuracyInterval!.method,
    });
    for (const p of doc.profiles) {
      const loss = byId.get(`lossbook.loss.${p.id}`)!;
      const ci = m.lossIntervals[p.id];
      assert.equal(loss.score_details.score, m.loss[p.id]);
      assert.equal(loss.metric_config.lower_is_better, true);
      assert.deepEqual(loss.score_details.uncertainty.confidence_interval, {
        lower: ci.lo,
        upper: ci.hi,
        confidence_level: ci.level,
        method: ci.method,
      });
      // P(best) is a metric where score states it, and absent where not
      const best = byId.get(`lossbook.p_best.${p.id}`);
      if (m.pBest![p.id] === null) assert.equal(best, undefined);
      else assert.equal(best!.score_details.score, m.pBest![p.id]);
    }
    assert.equal(byId.get("ece")!.score_details.score, m.calibration!.ece);
    assert.equal(byId.get("ece")!.metric_config.lower_is_better, true);
    assert.equal(byId.get("brier")!.score_details.score, m.calibration!.brier);
    assert.equal(rec.evaluation_results[0].evaluation_name, "recon_yes_no");
  }
  assert.match(r.stderr, /wrote the Every Eval Ever record \(schema 0\.3\.0\)/);
});

Deno.test("card --every-eval-ever names each record by its content, and with SOURCE_DATE_EPOCH writes the same bytes twice", async () => {
  const run = async () => {
    const dir = await tempDir();
    const r = await runCli([
      "card",
      QWEN,
      SONNET,
      "--severity-map",
      MAP,
      "--every-eval-ever",
      dir,
      "--out",
      `${dir}.md`,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const out: Record<string, string> = {};
    for await (const dev of Deno.readDir(dir)) {
      for await (const model of Deno.readDir(`${dir}/${dev.name}`)) {
        const at = `${dir}/${dev.name}/${model.name}`;
        for await (const f of Deno.readDir(at)) {
          out[`${dev.name}/${model.name}/${f.name}`] = await Deno.readTextFile(
            `${at}/${f.name}`,
          );
        }
      }
    }
    return out;
  };
  Deno.env.set("SOURCE_DATE_EPOCH", "1796300000");
  try {
    const [a, b] = [await run(), await run()];
    assert.equal(Object.keys(a).length, 2);
    assert.deepEqual(a, b);
    for (const text of Object.values(a)) {
      assert.equal(JSON.parse(text).retrieved_timestamp, "1796300000");
    }
    Deno.env.set("SOURCE_DATE_EPOCH", "soon");
    const dir = await tempDir();
    const bad = await runCli([
      "card",
      QWEN,
      "--severity-map",
      MAP,
      "--every-eval-ever",
      dir,
      "--out",
      `${dir}.md`,
    ]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /SOURCE_DATE_EPOCH must be whole Unix seconds/);
  } finally {
    Deno.env.delete("SOURCE_DATE_EPOCH");
  }
  // without it, the timestamp moves and the names do not
  const [c, d] = [await run(), await run()];
  assert.deepEqual(Object.keys(c).sort(), Object.keys(d).sort());
});

Deno.test("the vendored Every Eval Ever schema refuses a record that breaks it", () => {
  const errors = everyEvalEverErrors({
    schema_version: "0.3.0",
    evaluation_id: "x",
    retrieved_timestamp: "1",
    source_metadata: {
      source_type: "evaluation_run",
      source_organization_name: "o",
      evaluator_relationship: "other",
    },
    eval_library: { name: "lossbook", version: "0" },
    model_info: {
      name: "m",
      id: "m",
      additional_details: {
        deployment_type: "unknown",
        model_availability: "unknown",
      },
    },
    evaluation_results: [{
      evaluation_name: "e",
      source_data: { dataset_name: "d", source_type: "other" },
      metric_config: { lower_is_better: "yes" },
      score_details: { score: 1 },
    }],
  });
  assert.ok(
    errors.some((e) => /lower_is_better must be boolean/.test(e)),
    errors.join("\n"),
  );
});

Deno.test("card --model-index writes one entry per model with task, dataset and metrics; without them named it refuses, naming the flag", async () => {
  const dir = await tempDir();
  const file = `${dir}/model-index.yaml`;
  const r = await runCli([
    "card",
    QWEN,
    SONNET,
    "--severity-map",
    MAP,
    "--model-index",
    file,
    "--dataset-type",
    "lossbook/recon_yes_no",
    "--json",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as CardDocument;
  // deno-lint-ignore no-explicit-any
  const y = parseYaml(await Deno.readTextFile(file)) as any;
  assert.equal(y["model-index"].length, 2);
  for (const entry of y["model-index"]) {
    const m = doc.models.find((x) => x.modelId === entry.name)!;
    const [result] = entry.results;
    assert.deepEqual(result.task, { type: "recon_yes_no" });
    assert.deepEqual(result.dataset, {
      type: "lossbook/recon_yes_no",
      name: "recon_yes_no",
    });
    const byType = new Map(
      // deno-lint-ignore no-explicit-any
      result.metrics.map((x: any) => [x.type, x]),
    ) as Map<string, Doc>;
    assert.deepEqual(byType.get("accuracy"), {
      type: "accuracy",
      value: m.accuracy,
      name: "Accuracy",
    });
    assert.equal(
      byType.get("lossbook.loss.reconciliation").value,
      m.loss.reconciliation,
    );
    assert.equal(byType.get("ece").value, m.calibration!.ece);
  }
  // a run export names no task: refused before anything is written
  const none = await runCli([
    "card",
    AB,
    "--model-index",
    `${dir}/none.yaml`,
  ]);
  assert.equal(none.code, 2);
  assert.match(
    none.stderr,
    /--model-index needs task\.type, and no input names one; give --task-type NAME/,
  );
  await assert.rejects(
    () => Deno.stat(`${dir}/none.yaml`),
    Deno.errors.NotFound,
  );
  const named = await runCli([
    "card",
    AB,
    "--model-index",
    `${dir}/named.yaml`,
    "--task-type",
    "reconciliation",
    "--dataset-type",
    "lossbook/model_ab",
    "--dataset-name",
    "model_ab",
  ]);
  assert.equal(named.code, 0, named.stderr);
  // deno-lint-ignore no-explicit-any
  const n = parseYaml(await Deno.readTextFile(`${dir}/named.yaml`)) as any;
  assert.deepEqual(
    n["model-index"].map((e: Doc) => e.results[0].task.type),
    ["reconciliation", "reconciliation"],
  );
  const exists = await runCli([
    "card",
    AB,
    "--model-index",
    `${dir}/named.yaml`,
    "--task-type",
    "t",
    "--dataset-type",
    "d/d",
    "--dataset-name",
    "d",
  ]);
  assert.equal(exists.code, 2);
  assert.match(exists.stderr, /the file exists; pass --force/);
});
