// Inputs that are not files: a FIFO or a device is refused before it is
// opened (opening one could wait forever), while /dev/stdin and /dev/fd/N,
// what a shell's process substitution gives, are read as streams.
import assert from "node:assert/strict";
import { runCli, tempDir } from "../_helpers.ts";

const root = new URL("../../", import.meta.url).pathname;
const RUN = `${root}data/examples/model_ab.jsonl`;
const QWEN_EVAL = `${root}tests/fixtures/inspect/qwen_zstd.eval`;

// `lossbook ARGS` run by bash, so that ARGS may hold <(...) and redirections
async function viaBash(args: string): Promise<
  { code: number; stdout: string; stderr: string }
> {
  const out = await new Deno.Command("bash", {
    args: [
      "-c",
      `exec "$DENO" run --allow-read --allow-write --allow-env --allow-ffi --allow-sys --allow-run --allow-net cli.ts ${args}`,
    ],
    env: { DENO: Deno.execPath() },
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return {
    code: out.code,
    stdout: text.decode(out.stdout),
    stderr: text.decode(out.stderr),
  };
}

// the document without the key that names the input
function withoutFile(stdout: string): Record<string, unknown> {
  const { file: _file, ...rest } = JSON.parse(stdout);
  return rest;
}

Deno.test("score of a FIFO is refused at once, naming it, and does not wait for a writer", async () => {
  const fifo = `${await tempDir()}/run.jsonl`;
  const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
  assert.equal(made.code, 0);
  const started = Date.now();
  const r = await runCli(["score", fifo], { process: true });
  assert.equal(r.code, 2, r.stderr);
  assert.equal(
    r.stderr,
    `lossbook score: Cannot read ${fifo}: is a FIFO (named pipe), not a file; a stream is read only as /dev/stdin or /dev/fd/N, e.g. <(zstdcat run.jsonl.zst)\n`,
  );
  assert.ok(Date.now() - started < 30_000);
});

Deno.test("score of a character device is refused, naming it", async () => {
  const r = await runCli(["score", "/dev/null"]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /^lossbook score: Cannot read \/dev\/null: is a character device, not a file;/,
  );
  const zero = await runCli(["score", "/dev/zero", "--format", "decisions"]);
  assert.equal(zero.code, 2, zero.stderr);
  assert.match(zero.stderr, /\/dev\/zero: is a character device, not a file/);
});

Deno.test("score <(zstdcat run.jsonl.zst) reads the stream and prints what score of the file prints", async () => {
  const dir = await tempDir();
  const zst = `${dir}/run.jsonl.zst`;
  const packed = await new Deno.Command("zstd", {
    args: ["-q", "-o", zst, RUN],
  }).output();
  assert.equal(packed.code, 0, new TextDecoder().decode(packed.stderr));
  const file = await runCli(["score", RUN, "--resamples", "50", "--json"]);
  assert.equal(file.code, 0, file.stderr);
  const stream = await viaBash(
    `score <(zstdcat '${zst}') --resamples 50 --json`,
  );
  assert.equal(stream.code, 0, stream.stderr);
  assert.match(JSON.parse(stream.stdout).file, /^\/dev\/fd\/\d+$/);
  assert.deepEqual(withoutFile(stream.stdout), withoutFile(file.stdout));
});

Deno.test("score /dev/stdin reads a piped inspect log, and its messages name /dev/stdin", async () => {
  const file = await runCli([
    "score",
    QWEN_EVAL,
    "--severity",
    "HIGH",
    "--resamples",
    "50",
    "--json",
  ]);
  assert.equal(file.code, 0, file.stderr);
  const stream = await viaBash(
    `score /dev/stdin --severity HIGH --resamples 50 --json < '${QWEN_EVAL}'`,
  );
  assert.equal(stream.code, 0, stream.stderr);
  assert.equal(JSON.parse(stream.stdout).file, "/dev/stdin");
  assert.match(stream.stderr, /^\/dev\/stdin: scorer: match$/m);
  assert.doesNotMatch(stream.stderr + stream.stdout, /lossbook-stream-/);
  const { setAside, ...rest } = withoutFile(stream.stdout);
  const { setAside: fileSetAside, ...fileRest } = withoutFile(file.stdout);
  assert.deepEqual(rest, fileRest);
  assert.deepEqual(
    setAside,
    (fileSetAside as { file: string }[]).map((a) => ({
      ...a,
      file: "/dev/stdin",
    })),
  );
});

Deno.test("an error in a streamed input names the stream, not a temporary file", async () => {
  const r = await viaBash(`score <(printf '{"runId":1}\\n')`);
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /^lossbook score: Cannot load run export \/dev\/fd\/\d+: line 1: runId must be string, got 1\n$/,
  );
});

Deno.test("a severity map and a task file are read from /dev/stdin, which Deno opens by path only with every permission", async () => {
  const map = `${root}data/examples/harness/inspect_severity.csv`;
  const file = await runCli([
    "score",
    QWEN_EVAL,
    "--severity-map",
    map,
    "--resamples",
    "50",
    "--json",
  ]);
  assert.equal(file.code, 0, file.stderr);
  const stream = await viaBash(
    `score '${QWEN_EVAL}' --severity-map /dev/stdin --resamples 50 --json < '${map}'`,
  );
  assert.equal(stream.code, 0, stream.stderr);
  assert.deepEqual(JSON.parse(stream.stdout), JSON.parse(file.stdout));
  const out = `${await tempDir()}/run.jsonl`;
  const simulated = await viaBash(
    `simulate --tasks /dev/stdin --model frontier_even --out '${out}' --json < data/tasks/reconciliation_777_300.jsonl`,
  );
  assert.equal(simulated.code, 0, simulated.stderr);
  assert.equal(JSON.parse(simulated.stdout).tasks, 300);
});
