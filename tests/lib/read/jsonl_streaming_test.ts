// JSONL is read as a byte stream: a line split across read chunks, a
// multi-byte character split across chunks and CRLF line ends read the same
// as the whole text; invalid UTF-8 and a repeated JSON key are refused
// naming the line, by the streaming and the text readers alike.
import assert from "node:assert/strict";
import { decisionStats } from "../../../lib/decision/decision_stats.ts";
import { jsonlStatsFile } from "../../../lib/read/jsonl_stats.ts";
import { jsonlStats } from "../../../lib/read/jsonl_text_stats.ts";
import {
  decisionTable,
  parseDecisionsJsonl,
  readDecisionsJsonl,
} from "../../../lib/read/load_decisions.ts";
import { decision, tempFile } from "../../_helpers.ts";

function lines(): string[] {
  return [
    JSON.stringify(decision({ taskId: "é-1", pCorrect: 0.25 })),
    JSON.stringify(decision({ taskId: "日本-2", modelId: "mü" })),
    JSON.stringify(decision({ taskId: "3", trial: 1, pCorrect: null })),
    JSON.stringify(decision({ taskId: "3", trial: 0, answer: "€ 12,50" })),
  ];
}

async function write(bytes: Uint8Array | string): Promise<string> {
  const path = await tempFile("t.jsonl", "");
  if (typeof bytes === "string") await Deno.writeTextFile(path, bytes);
  else await Deno.writeFile(path, bytes);
  return path;
}

Deno.test("streamed JSONL equals the whole text at every chunk size from 1 byte, multi-byte characters and lines split across chunks, LF and CRLF", async () => {
  const text = lines().join("\n") + "\n";
  const want = jsonlStats(text);
  const wantRows = parseDecisionsJsonl(text);
  assert.deepEqual(want.stats, decisionStats(decisionTable(wantRows)));
  for (const eol of ["\n", "\r\n"]) {
    const path = await write(lines().join(eol) + eol);
    for (const chunkSize of [1, 2, 3, 5, 7, 64, 100, 1 << 20]) {
      assert.deepEqual(
        await jsonlStatsFile(path, { chunkSize }),
        want,
        `chunk ${chunkSize}, ${JSON.stringify(eol)}`,
      );
      assert.deepEqual(await readDecisionsJsonl(path, { chunkSize }), wantRows);
    }
  }
  // no newline at the end, blank lines, a BOM
  const path = await write("\ufeff" + lines().join("\n\n"));
  assert.deepEqual(await jsonlStatsFile(path, { chunkSize: 4 }), want);
});

Deno.test("a multi-byte character cut by a chunk boundary is decoded whole (the split falls inside the character)", async () => {
  const line = JSON.stringify(decision({ taskId: "€" }));
  const bytes = new TextEncoder().encode(line + "\n");
  const at = bytes.indexOf(0xe2); // € is e2 82 ac
  for (const chunkSize of [at + 1, at + 2]) {
    const path = await write(bytes);
    const [d] = await readDecisionsJsonl(path, { chunkSize });
    assert.equal(d.taskId, "€", `chunk ${chunkSize}`);
  }
});

Deno.test("invalid UTF-8 is refused naming file, line and byte, not replaced", async () => {
  const enc = new TextEncoder();
  const [a, b] = lines();
  const bad = enc.encode(b.replace('"mü"', '"m?"'));
  bad[bad.indexOf(0x3f)] = 0xff;
  const bytes = new Uint8Array([...enc.encode(a + "\n"), ...bad, 10]);
  const path = await write(bytes);
  for (
    const read of [
      () => jsonlStatsFile(path, { chunkSize: 3 }),
      () => readDecisionsJsonl(path),
    ]
  ) {
    await assert.rejects(read, {
      name: "SyntaxError",
      message:
        `Cannot load run export ${path}: line 2: not valid UTF-8 at byte ${
          bytes.indexOf(0xff)
        } (0xff)`,
    });
  }
});

Deno.test("a repeated JSON key is refused naming line and key, at the top and inside cost", async () => {
  const [a] = lines();
  const cases: [string, string][] = [
    [a.replace('{"runId":"r1"', '{"runId":"r0","runId":"r1"'), 'key "runId"'],
    [a.replace('"usd":0.001', '"usd":5,"usd":0.001'), 'cost: key "usd"'],
  ];
  for (const [line, key] of cases) {
    const text = `${a.replace('"é-1"', '"x"')}\n${line}\n`;
    const path = await write(text);
    const want = {
      name: "SyntaxError",
      message:
        `Cannot load run export ${path}: line 2: ${key} appears twice; a repeated key is ambiguous, so it is refused`,
    };
    await assert.rejects(() => jsonlStatsFile(path), want);
    await assert.rejects(() => readDecisionsJsonl(path), want);
    assert.throws(() => jsonlStats(text, { path }), want);
    assert.throws(() => parseDecisionsJsonl(text, { path }), want);
  }
  // a key-like text inside a string value is not a key
  const tricky = JSON.stringify(
    decision({ answer: 'say "runId": "x", \\"q\\":' }),
  );
  assert.equal(
    parseDecisionsJsonl(tricky)[0].answer,
    'say "runId": "x", \\"q\\":',
  );
});

Deno.test("a repeated decision in a streamed file names both lines, also when found by hash after many keys", async () => {
  const ls = Array.from(
    { length: 3000 },
    (_, i) => JSON.stringify(decision({ taskId: `t${i}` })),
  );
  ls.push(JSON.stringify(decision({ taskId: "t1234" })));
  const path = await write(ls.join("\r\n") + "\r\n");
  await assert.rejects(() => jsonlStatsFile(path, { chunkSize: 4096 }), {
    name: "RangeError",
    message:
      `Cannot load run export ${path}: line 3001: duplicate decision for runId "r1", modelId "m", taskId "t1234", trial 0 (first on line 1235)`,
  });
});
