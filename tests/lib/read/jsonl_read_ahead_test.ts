// Reading a large JSONL file ahead (workers started before the command's
// modules load) changes nothing but when the reading starts: the reader
// takes the workers and gives what fresh workers give; a read-ahead of
// another file, or of a changed file, is not taken, and stopping it ends
// its workers.
import assert from "node:assert/strict";
import {
  readAheadPath,
  SEGMENT_BYTES,
  startReadAhead,
  stopReadAhead,
  takeReadAhead,
} from "../../../lib/read/_jsonl_read_ahead.ts";
import { jsonlStatsFile } from "../../../lib/read/jsonl_stats.ts";
import {
  startReadAheadFor,
  stopReadAhead as stopPublicReadAhead,
} from "../../../lib/read/read_ahead.ts";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import { decision, tempPath } from "../../_helpers.ts";

// a file of a little more than two segments, so that it is read by workers
async function bigFile(): Promise<string> {
  const path = await tempPath("ahead.jsonl");
  const lines: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < 2 * SEGMENT_BYTES + 100_000; i++) {
    const l = JSON.stringify(decision({
      modelId: i % 3 === 0 ? "small" : "frontier",
      taskId: `task-${i}`,
      severity: SEVERITIES[i % 4],
      predClass: i % 7 === 0 ? "AMOUNT_MISMATCH" : "MATCH",
      pCorrect: i % 11 === 0 ? null : (i % 1000) / 1000,
    }));
    lines.push(l);
    bytes += l.length + 1;
  }
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  return path;
}

Deno.test("a file read ahead gives what fresh workers give, and the reader takes the read-ahead", async () => {
  const path = await bigFile();
  const fresh = await jsonlStatsFile(path);
  assert.equal(startReadAhead(path), navigator.hardwareConcurrency > 1);
  const ahead = await jsonlStatsFile(path);
  assert.deepEqual(ahead, fresh);
  // it was taken: nothing is left to take or stop
  const size = (await Deno.stat(path)).size;
  assert.equal(takeReadAhead(path, size, SEGMENT_BYTES), null);
});

Deno.test("a read-ahead of another file, another size or another segment size is not taken, and stopping it ends its workers", async () => {
  const path = await bigFile();
  const size = (await Deno.stat(path)).size;
  if (!startReadAhead(path)) return; // one core: nothing reads ahead
  assert.equal(takeReadAhead(path + "x", size, SEGMENT_BYTES), null);
  assert.equal(takeReadAhead(path, size + 1, SEGMENT_BYTES), null);
  assert.equal(takeReadAhead(path, size, SEGMENT_BYTES / 2), null);
  // a fresh read of the file does not take a read-ahead made for other bytes
  stopReadAhead();
  assert.equal(takeReadAhead(path, size, SEGMENT_BYTES), null);
  // (the test ends with no worker left running: Deno's sanitizers check)
});

Deno.test("a file that grew after its read-ahead began is read whole, with the new lines", async () => {
  const path = await bigFile();
  if (!startReadAhead(path)) return;
  const extra = JSON.stringify(decision({ taskId: "late", modelId: "small" }));
  await Deno.writeTextFile(path, extra + "\n", { append: true });
  const after = await jsonlStatsFile(path);
  stopReadAhead();
  const want = await jsonlStatsFile(path);
  assert.deepEqual(after, want);
});

Deno.test("small files and missing files start no read-ahead", async () => {
  const path = await tempPath("small.jsonl");
  await Deno.writeTextFile(path, JSON.stringify(decision()) + "\n");
  assert.equal(startReadAhead(path), false);
  assert.equal(startReadAhead(path + ".missing"), false);
  assert.equal(readAheadPath(["score", "x.jsonl", "--engine=postgres"]), null);
});

Deno.test("startReadAheadFor reads ahead the one JSONL file a command line names, and the reader takes it", async () => {
  const path = await bigFile();
  const fresh = await jsonlStatsFile(path);
  assert.equal(
    startReadAheadFor([path, "--engine", "duckdb"]),
    false,
  );
  assert.equal(startReadAheadFor(["--json", path, "other.jsonl"]), false);
  assert.equal(
    startReadAheadFor(["--json", path]),
    navigator.hardwareConcurrency > 1,
  );
  assert.deepEqual(await jsonlStatsFile(path), fresh);
  const size = (await Deno.stat(path)).size;
  assert.equal(takeReadAhead(path, size, SEGMENT_BYTES), null);
  stopPublicReadAhead(); // nothing left: does nothing
});

Deno.test("cli.ts reads ahead through lib/read/read_ahead.ts, importing none of the reader's private modules", async () => {
  const cli = await Deno.readTextFile(
    new URL("../../../cli.ts", import.meta.url),
  );
  const imports = [...cli.matchAll(/from\s+"(\.\/lib\/read\/[^"]+)"/g)].map((
    m,
  ) => m[1]);
  assert.deepEqual(imports, ["./lib/read/read_ahead.ts"]);
});
