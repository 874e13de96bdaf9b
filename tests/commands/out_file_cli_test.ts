// An output never overwrites an input: every command that writes --out
// compares it with every file it reads by device and inode, so a hard link
// or a symlink to an input is refused as surely as the input's own path.
import assert from "node:assert/strict";
import { runCli, tempDir } from "../_helpers.ts";

const root = new URL("../../", import.meta.url).pathname;
const QWEN_EVAL = `${root}tests/fixtures/inspect/qwen_zstd.eval`;
const SUITE = `${root}data/tasks/reconciliation_777_300.jsonl`;

async function sha(path: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    await Deno.readFile(path),
  );
  return Array.from(new Uint8Array(digest), (b) => b.toString(16)).join("");
}

Deno.test("import --out naming its own --severity-map is refused even with --force, and the map is kept", async () => {
  const dir = await tempDir();
  const map = `${dir}/map.csv`;
  const ids = ["1", "2", "3", "4", "5"];
  await Deno.writeTextFile(
    map,
    `key,severity\n${ids.map((id) => `${id},HIGH\n`).join("")}`,
  );
  const before = await sha(map);
  const r = await runCli([
    "import",
    QWEN_EVAL,
    "--severity-map",
    map,
    "--out",
    map,
    "--force",
  ]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /^lossbook import: --out .*map\.csv is the same file as the input --severity-map .*map\.csv; lossbook never overwrites an input, not even with --force\n$/,
  );
  assert.equal(await sha(map), before);
});

Deno.test("import --out naming a hard link to the input log is refused even with --force, and the log is kept", async () => {
  const dir = await tempDir();
  const log = `${dir}/run.eval`;
  await Deno.copyFile(QWEN_EVAL, log);
  const link = `${dir}/decisions.jsonl`;
  await Deno.link(log, link);
  const before = await sha(log);
  const r = await runCli([
    "import",
    log,
    "--severity",
    "HIGH",
    "--out",
    link,
    "--force",
  ]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /--out .*decisions\.jsonl is the same file as the input log .*run\.eval/,
  );
  assert.equal(await sha(log), before);
});

Deno.test("export-tasks and simulate refuse an --out that is a hard link to their task file", async () => {
  const dir = await tempDir();
  const suite = `${dir}/suite.jsonl`;
  await Deno.copyFile(SUITE, suite);
  const link = `${dir}/out.jsonl`;
  await Deno.link(suite, link);
  const before = await sha(suite);
  const exported = await runCli([
    "export-tasks",
    suite,
    "--format",
    "inspect",
    "--out",
    link,
    "--force",
  ]);
  assert.equal(exported.code, 2, exported.stderr);
  assert.match(exported.stderr, /is the same file as the input suite/);
  const simulated = await runCli([
    "simulate",
    "--tasks",
    suite,
    "--model",
    "frontier_even",
    "--out",
    link,
    "--force",
  ]);
  assert.equal(simulated.code, 2, simulated.stderr);
  assert.match(simulated.stderr, /is the same file as the input --tasks/);
  assert.equal(await sha(suite), before);
});
