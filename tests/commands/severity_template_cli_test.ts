// `lossbook severity-template`: the template written where --out says (or
// to stdout), never over an existing file without --force nor over an
// input at all, and filled in, read back by score --severity-map.
import assert from "node:assert/strict";
import { severityTemplate, severityTemplateCsv } from "../../mod.ts";
import { runCli, tempDir } from "../_helpers.ts";

const root = new URL("../../", import.meta.url).pathname;
const QWEN = "data/examples/harness/inspect_qwen.eval";
const SONNET = "data/examples/harness/inspect_sonnet.json";
const PROMPTFOO = "data/examples/harness/promptfoo_results.json";

Deno.test("severity-template --out writes the CSV severityTemplateCsv() makes of severityTemplate(), and says so; --json prints the document", async () => {
  const out = `${await tempDir()}/map.csv`;
  const r = await runCli([
    "severity-template",
    PROMPTFOO,
    "--correct",
    "equals",
    "--out",
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    `wrote 11 rows (3 metadata columns) to ${out}; fill in each severity and pass it to --severity-map\n`,
  );
  const doc = await severityTemplate([PROMPTFOO], { correct: "equals" });
  assert.equal(await Deno.readTextFile(out), severityTemplateCsv(doc));
  assert.match(r.stderr, /set aside 1 errored call/);
  const json = await runCli([
    "severity-template",
    PROMPTFOO,
    "--correct",
    "equals",
    "--json",
  ]);
  assert.equal(json.code, 0, json.stderr);
  assert.equal(json.stdout, JSON.stringify(doc, null, 2) + "\n");
});

Deno.test("severity-template without --out prints the template on stdout, keyed by --severity-map-key when given", async () => {
  const r = await runCli([
    "severity-template",
    QWEN,
    SONNET,
    "--severity-map-key",
    "field:metadata.class",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    [
      "key,severity,metadata.severity,metadata.class",
      "AMOUNT_MISMATCH,,HIGH,AMOUNT_MISMATCH",
      "MATCH,,LOW,MATCH",
      "BENEFICIARY_MISMATCH,,HIGH,BENEFICIARY_MISMATCH",
      "VALUE_DATE_MISMATCH,,MEDIUM,VALUE_DATE_MISMATCH",
      "DUPLICATE,,LOW,DUPLICATE",
      "",
    ].join("\n"),
  );
});

Deno.test("the template, filled in, is read by score --severity-map (and --severity-map-key); unfilled, it is refused naming file and line", async () => {
  const dir = await tempDir();
  for (
    const keyed of [[], ["--severity-map-key", "field:metadata.class"]]
  ) {
    const map = `${dir}/map${keyed.length}.csv`;
    const made = await runCli([
      "severity-template",
      QWEN,
      ...keyed,
      "--out",
      map,
    ]);
    assert.equal(made.code, 0, made.stderr);
    if (keyed.length > 0) {
      assert.match(
        made.stdout,
        /pass it to --severity-map with --severity-map-key field:metadata\.class\n$/,
      );
    }
    const unfilled = await runCli([
      "score",
      QWEN,
      "--severity-map",
      map,
      ...keyed,
    ]);
    assert.equal(unfilled.code, 2);
    assert.match(
      unfilled.stderr,
      new RegExp(
        `^lossbook score: Cannot read severity map ${map}: line 2: the severity of key "(1|AMOUNT_MISMATCH)" is empty; fill it in with one of LOW, MEDIUM, HIGH, CRITICAL\\n$`,
      ),
    );
    // filled in with the severity each item's metadata states
    const text = await Deno.readTextFile(map);
    const filled = text.split("\n").map((line, i) => {
      if (i === 0 || line === "") return line;
      const [key, , severity, cls] = line.split(",");
      return [key, severity, severity, cls].join(",");
    }).join("\n");
    await Deno.writeTextFile(map, filled);
    const scored = await runCli([
      "score",
      QWEN,
      "--severity-map",
      map,
      ...keyed,
      "--profile",
      "reconciliation",
      "--json",
    ]);
    assert.equal(scored.code, 0, scored.stderr);
    const byField = await runCli([
      "score",
      QWEN,
      "--severity-field",
      "metadata.severity",
      "--profile",
      "reconciliation",
      "--json",
    ]);
    assert.deepEqual(
      JSON.parse(scored.stdout).models,
      JSON.parse(byField.stdout).models,
    );
  }
});

Deno.test("severity-template refuses an existing --out without --force and keeps it; --force overwrites it", async () => {
  const out = `${await tempDir()}/map.csv`;
  await Deno.writeTextFile(out, "key,severity\n1,HIGH\n");
  const refused = await runCli(["severity-template", QWEN, "--out", out]);
  assert.equal(refused.code, 2);
  assert.equal(
    refused.stderr,
    `lossbook severity-template: Cannot write ${out}: the file exists; pass --force to overwrite it\n`,
  );
  assert.equal(await Deno.readTextFile(out), "key,severity\n1,HIGH\n");
  const forced = await runCli([
    "severity-template",
    QWEN,
    "--out",
    out,
    "--force",
  ]);
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(await Deno.readTextFile(out), /^key,severity,metadata\./);
});

Deno.test("severity-template never writes over an input, even with --force: its own path, a symlink or a hard link to it", async () => {
  const dir = await tempDir();
  const log = `${dir}/run.eval`;
  await Deno.copyFile(`${root}${QWEN}`, log);
  await Deno.symlink(log, `${dir}/sym.csv`);
  await Deno.link(log, `${dir}/hard.csv`);
  const before = await Deno.readFile(log);
  for (const out of [log, `${dir}/sym.csv`, `${dir}/hard.csv`]) {
    const r = await runCli([
      "severity-template",
      log,
      "--out",
      out,
      "--force",
    ]);
    assert.equal(r.code, 2, out);
    assert.equal(
      r.stderr,
      `lossbook severity-template: --out ${out} is the same file as the input log ${log}; lossbook never overwrites an input, not even with --force\n`,
    );
  }
  assert.deepEqual(await Deno.readFile(log), before);
  // a map named .json would be read as JSON: refused before anything is read
  const json = await runCli([
    "severity-template",
    log,
    "--out",
    `${dir}/map.json`,
  ]);
  assert.equal(json.code, 2);
  assert.match(json.stderr, /a severity map named \.json is read as JSON/);
});

Deno.test("severity-template exits 2 on what it cannot read, naming file, item and field", async () => {
  const cases: [string[], RegExp][] = [
    [
      ["data/examples/model_ab.jsonl"],
      /^lossbook severity-template: severity-template reads harness logs \(inspect, lm-eval, helm, promptfoo\), whose items hold no severity; data\/examples\/model_ab\.jsonl is --format decisions, whose records carry their own\n$/,
    ],
    [
      [SONNET, "--severity-map-key", "field:metadata.none"],
      /^lossbook severity-template: Cannot import inspect log data\/examples\/harness\/inspect_sonnet\.json: sample 1 epoch 1: metadata\.none must be a string or number to key the severity map, got nothing\n$/,
    ],
    [[PROMPTFOO], /--correct/],
    [
      [QWEN, "--metric", "acc"],
      /--metric applies to --format lm-eval or helm, not to inspect/,
    ],
    [[], /expected one or more harness logs, got none/],
  ];
  for (const [args, message] of cases) {
    const r = await runCli(["severity-template", ...args]);
    assert.equal(r.code, 2, args.join(" "));
    assert.match(r.stderr, message, args.join(" "));
    assert.equal(r.stdout, "", args.join(" "));
  }
});

Deno.test("severity-template --help says what the rows and columns are, in which order, and how the map is read back", async () => {
  const r = await runCli(["severity-template", "--help"]);
  assert.equal(r.code, 0);
  const text = r.stdout.replace(/\s+/g, " ");
  for (
    const said of [
      "Usage: lossbook severity-template <log>...",
      "--severity-map-key field:PATH",
      "one row per distinct value",
      "Rows come in the order their key is first seen",
      "as JSON text",
      "the columns after key,severity are ignored there",
      "a row left empty is refused naming its line",
      "never one of the inputs",
      "Example: deno task lossbook severity-template data/examples/harness/inspect_qwen.eval",
    ]
  ) assert.ok(text.includes(said), said);
});

Deno.test("the template README.md shows is the one its severity-template line writes (the line itself runs in tests/readme_paste_test.ts)", async () => {
  const readme = await Deno.readTextFile(`${root}README.md`);
  const line =
    "npx -y deno@2.9.6 task lossbook severity-template data/examples/harness/inspect_qwen.eval --out severity_map.csv --force";
  const at = readme.indexOf(`${line}\n\`\`\`\n\n\`\`\`\n`);
  assert.ok(at >= 0, "README.md lacks the line, followed by its output");
  const start = at + line.length + "\n```\n\n```\n".length;
  const shown = readme.slice(start, readme.indexOf("```\n", start));
  const out = `${await tempDir()}/severity_map.csv`;
  const r = await runCli(["severity-template", QWEN, "--out", out]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(shown, await Deno.readTextFile(out));
});
