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

Deno.test("a chart drawn by a linked lossbook finds the pinned font as a file, not an npm: address", async () => {
  const project = await linkedProject();
  // a module of the linked repository, so that its import map applies
  await Deno.writeTextFile(
    `${project}/chart.ts`,
    [
      `import { show } from ${JSON.stringify(`${REPO}/display.ts`)};`,
      `import { groupedBarChart } from ${
        JSON.stringify(`${REPO}/lib/charts/specs.ts`)
      };`,
      `const bundle = await show(groupedBarChart(`,
      `  [{ s: "HIGH", m: "A", v: 10 }],`,
      `  { x: "s", group: "m", y: "v", title: "t" },`,
      `));`,
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
