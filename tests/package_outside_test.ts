// The researcher's path, tried as a new user would: each test works in a
// temporary folder outside the repository. A project there links this
// repository (`{"links": [<repository>]}` in its deno.json), which Deno
// resolves as the package `jsr:@lossbook/lossbook` with lossbook's own
// import map; or a `lossbook` command is installed from the repository with
// `deno install -g` and run from another folder. Everything runs offline,
// from Deno's npm cache.
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { type CommandText, commandText, tempDir } from "./_helpers.ts";
import { VERSION } from "../version.ts";
import { check } from "../scripts/run_notebooks.ts";

/** The repository's folder, without a trailing slash. */
const REPO = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");

/**
 * Run `command` in `cwd`, with this test's Deno first on `PATH` (the shim
 * `deno install` writes runs `deno` from `PATH`).
 */
async function run(
  command: string,
  args: readonly string[],
  cwd: string,
): Promise<CommandText> {
  return commandText(
    await new Deno.Command(command, {
      args: [...args],
      cwd,
      stdout: "piped",
      stderr: "piped",
      env: {
        NO_COLOR: "1",
        PATH: `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? ""}`,
      },
    }).output(),
  );
}

/** `ran` exited 0, or the assertion says what it printed on stderr. */
function assertRan(ran: CommandText, what: string): void {
  assert.equal(
    ran.code,
    0,
    `${what} exited ${ran.code}:\n${
      ran.stderr.split("\n").slice(-15).join("\n")
    }`,
  );
}

/** A fresh folder outside the repository, for a project or an install. */
async function outsideFolder(prefix: string): Promise<string> {
  const dir = await tempDir(prefix);
  assert.ok(!`${dir}/`.startsWith(`${REPO}/`), `${dir} is inside ${REPO}`);
  return dir;
}

/** A researcher's project: a folder whose deno.json links the repository. */
async function linkedProject(): Promise<string> {
  const dir = await outsideFolder("lossbook-project-");
  await Deno.writeTextFile(
    `${dir}/deno.json`,
    `${JSON.stringify({ links: [REPO] })}\n`,
  );
  return dir;
}

Deno.test("a chart shown by a linked lossbook finds the pinned font as a file, not an npm: address", async () => {
  const project = await linkedProject();
  await Deno.writeTextFile(
    `${project}/chart.ts`,
    [
      `import { show } from "jsr:@lossbook/lossbook/display";`,
      `const bundle = await show({`,
      `  $schema: "https://vega.github.io/schema/vega-lite/v6.json",`,
      `  title: "Errors",`,
      `  data: { values: [{ severity: "HIGH", errors: 10 }] },`,
      `  mark: "bar",`,
      `  encoding: {`,
      `    x: { field: "severity", type: "nominal" },`,
      `    y: { field: "errors", type: "quantitative" },`,
      `  },`,
      `});`,
      `console.log(String(bundle?.["image/png"]).slice(0, 12));`,
      "",
    ].join("\n"),
  );
  const ran = await run(Deno.execPath(), ["run", "-A", "chart.ts"], project);
  assertRan(ran, "deno run chart.ts in a linked project");
  // base64 of the PNG signature \x89PNG\r\n\x1a\n
  assert.equal(ran.stdout.trim(), "iVBORw0KGgoA");
});

Deno.test("deno install -g gives a lossbook command that runs from any folder and prints the package's version", async () => {
  const root = await outsideFolder("lossbook-install-");
  const installed = await run(Deno.execPath(), [
    "install",
    "-g",
    "-A",
    "-f",
    "-n",
    "lossbook",
    "--root",
    root,
    "--config",
    `${REPO}/deno.json`,
    `${REPO}/cli.ts`,
  ], root);
  assertRan(installed, "deno install -g");
  const lossbook = `${root}/bin/lossbook`;
  const elsewhere = await outsideFolder("lossbook-elsewhere-");

  const version = await run(lossbook, ["--version"], elsewhere);
  assertRan(version, "lossbook --version");
  const denoJson = JSON.parse(await Deno.readTextFile(`${REPO}/deno.json`));
  assert.equal(version.stdout, `${denoJson.version}\n`);
  assert.equal(VERSION, denoJson.version);

  // an example log by absolute path: the document is the golden one, up to
  // the repository's folder in the file paths it names
  const harness = `${REPO}/data/examples/harness`;
  const scored = await run(lossbook, [
    "score",
    `${harness}/inspect_qwen.eval`,
    "--severity-map",
    `${harness}/inspect_severity.csv`,
    "--json",
  ], elsewhere);
  assertRan(scored, "lossbook score");
  const golden = await Deno.readTextFile(
    `${REPO}/tests/golden/score_inspect_eval.json`,
  );
  assert.equal(scored.stdout.replaceAll(`${REPO}/`, ""), golden);
});

const HARNESS = `${REPO}/data/examples/harness`;

Deno.test("score() of a linked package returns, byte for byte, the document lossbook score --json prints", async () => {
  const project = await linkedProject();
  const log = `${HARNESS}/inspect_qwen.eval`;
  const map = `${HARNESS}/inspect_severity.csv`;
  await Deno.writeTextFile(
    `${project}/score.ts`,
    [
      `import { score } from "jsr:@lossbook/lossbook";`,
      `import { show } from "jsr:@lossbook/lossbook/display";`,
      `const doc = await score([${JSON.stringify(log)}], {`,
      `  severityMap: ${JSON.stringify(map)},`,
      `  profiles: ["reconciliation", "principal_risk"],`,
      `  seed: 7,`,
      `});`,
      `const shown = await show(doc);`,
      `await Deno.writeTextFile(`,
      `  "shown.json",`,
      `  JSON.stringify(shown?.map((bundle) => Object.keys(bundle).sort())),`,
      `);`,
      `await Deno.stdout.write(`,
      `  new TextEncoder().encode(JSON.stringify(doc, null, 2) + "\\n"),`,
      `);`,
      "",
    ].join("\n"),
  );
  const api = await run(Deno.execPath(), ["run", "-A", "score.ts"], project);
  assertRan(api, "score() in a linked project");
  const cli = await run(Deno.execPath(), [
    "run",
    "-A",
    `${REPO}/cli.ts`,
    "score",
    log,
    "--severity-map",
    map,
    "--profile",
    "reconciliation",
    "--profile",
    "principal_risk",
    "--seed",
    "7",
    "--json",
  ], project);
  assertRan(cli, "lossbook score --json");
  assert.equal(api.stdout, cli.stdout);
  // the flags took effect: the two profiles asked for, the seed given
  const doc = JSON.parse(cli.stdout);
  assert.deepEqual(
    doc.profiles.map((p: { id: string }) => p.id),
    ["reconciliation", "principal_risk"],
  );
  assert.equal(doc.seed, 7);
  assert.equal(doc.file, log);
  // show() of the package's display entry: the table, then the chart
  assert.deepEqual(
    JSON.parse(await Deno.readTextFile(`${project}/shown.json`)),
    [
      ["text/html", "text/plain"],
      [
        "application/vnd.vegalite.v5+json",
        "application/vnd.vegalite.v6+json",
        "image/png",
        "text/plain",
      ],
    ],
  );
});

/** The cell of the README's "Use it in your own notebook" section. */
async function readmeCell(): Promise<string> {
  const readme = await Deno.readTextFile(`${REPO}/README.md`);
  const at = readme.indexOf("\n## Use it in your own notebook\n");
  assert.ok(at >= 0, 'README.md has no section "Use it in your own notebook"');
  const cell = /\n```ts[^\n]*\n([\s\S]*?)\n```\n/.exec(readme.slice(at));
  assert.ok(cell !== null, "the section has no ts block");
  return cell[1];
}

/** A linked project holding the example log the README's cell scores. */
async function readmeProject(): Promise<string> {
  const project = await linkedProject();
  await Deno.copyFile(
    `${HARNESS}/inspect_sonnet.json`,
    `${project}/inspect_sonnet.json`,
  );
  return project;
}

Deno.test("the README's notebook cell runs as a script in a linked project and shows a table and a chart", async () => {
  const project = await readmeProject();
  await Deno.writeTextFile(
    `${project}/cell.ts`,
    (await readmeCell()).replace(
      /await show\(([\s\S]*)\);\s*$/,
      "const shown = await show($1);\n" +
        "console.log(JSON.stringify(shown?.map((b) => Object.keys(b).sort())));\n",
    ),
  );
  const ran = await run(Deno.execPath(), ["run", "-A", "cell.ts"], project);
  assertRan(ran, "the README's cell");
  const shown = JSON.parse(ran.stdout.trim().split("\n").at(-1)!);
  assert.equal(shown.length, 2);
  assert.ok(shown[0].includes("text/html"));
  assert.ok(shown[1].includes("image/png"));
});

/** Whether `jupyter nbconvert` runs here. */
async function hasNbconvert(): Promise<boolean> {
  try {
    const out = await new Deno.Command("jupyter", {
      args: ["nbconvert", "--version"],
      stdout: "null",
      stderr: "null",
    }).output();
    return out.code === 0;
  } catch {
    return false;
  }
}

// Jupyter may be missing on a developer's machine; CI installs it (.ci/run),
// so there a missing Jupyter fails this test instead of skipping it.
const NO_JUPYTER = !(await hasNbconvert()) && Deno.env.get("CI") !== "true";

Deno.test({
  name:
    "a notebook in a linked project, run by plain jupyter nbconvert, shows the README cell's table and chart (a PNG)",
  ignore: NO_JUPYTER,
  async fn() {
    const project = await readmeProject();
    const notebook = {
      cells: [{
        cell_type: "code",
        execution_count: null,
        id: "score-and-show",
        metadata: {},
        outputs: [],
        source: await readmeCell(),
      }],
      metadata: {
        kernelspec: {
          display_name: "Deno",
          language: "typescript",
          name: "deno",
        },
        language_info: { name: "typescript" },
      },
      nbformat: 4,
      nbformat_minor: 5,
    };
    await Deno.writeTextFile(
      `${project}/scores.ipynb`,
      JSON.stringify(notebook, null, 1),
    );
    const ran = await run("jupyter", [
      "nbconvert",
      "--to",
      "notebook",
      "--execute",
      "--output",
      "executed.ipynb",
      "scores.ipynb",
    ], project);
    assertRan(ran, "jupyter nbconvert --execute");
    const executed = JSON.parse(
      await Deno.readTextFile(`${project}/executed.ipynb`),
    );
    const result = check(executed);
    assert.deepEqual(result.problems, []);
    const data = executed.cells[0].outputs
      .filter((o: { output_type: string }) => o.output_type === "display_data")
      .map((o: { data: Record<string, unknown> }) => o.data);
    assert.equal(data.length, 2);
    assert.match(String(data[0]["text/html"]), /<table/);
    assert.match(String(data[0]["text/html"]), /anthropic\/claude-sonnet-4-0/);
    assert.ok(
      atob(String(data[1]["image/png"]).replace(/\s/g, "")).startsWith(
        "\x89PNG",
      ),
    );
  },
});
