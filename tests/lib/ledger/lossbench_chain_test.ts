import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  LOSSBENCH_GENESIS,
  verifyLossbenchLedger,
  verifyLossbenchLedgerFile,
} from "../../../lib/ledger/lossbench_chain.ts";
import { parseLossbenchLedger } from "../../../lib/import/lossbench.ts";

const EXAMPLE = new URL(
  "../../../data/examples/lossbench_ledger.jsonl",
  import.meta.url,
);
const text = await Deno.readTextFile(EXAMPLE);
const lines = text.split("\n").slice(0, -1);
const bytesOf = (ls: string[], end = "\n") =>
  new TextEncoder().encode(ls.join("\n") + end);

Deno.test("verifyLossbenchLedger() verifies LossBench's own chain hashes from the raw event bytes", async () => {
  const v = verifyLossbenchLedger(bytesOf(lines));
  assert.deepEqual([v.valid, v.records, v.firstBadSeq], [true, 10, null]);
  assert.equal(v.head, JSON.parse(lines[9]).chain_hash);
  assert.equal((await verifyLossbenchLedgerFile(EXAMPLE.pathname)).valid, true);
  // independently: sha256(event text + "|" + prev_hash), the event text cut from the line
  const first = JSON.parse(lines[0]);
  const event = lines[0].slice(
    lines[0].indexOf('"event":') + 8,
    lines[0].lastIndexOf(',"prev_hash":'),
  );
  assert.equal(first.prev_hash, LOSSBENCH_GENESIS);
  assert.equal(
    createHash("sha256").update(`${event}|GENESIS`).digest("hex"),
    first.chain_hash,
  );
  // Python wrote 0.0 where JavaScript would write 0: re-serialising could never verify
  assert.match(event, /"human_cost":0\.0/);
});

Deno.test("verifyLossbenchLedger() names the edited event", () => {
  const edited = [...lines];
  edited[3] = edited[3].replace(
    '"calibrated_probability":0.1',
    '"calibrated_probability":0.9',
  );
  const v = verifyLossbenchLedger(bytesOf(edited), { path: "lb.jsonl" });
  assert.deepEqual([v.firstBadSeq, v.problem], [4, "edited"]);
  assert.match(
    v.reason!,
    /^lb\.jsonl: record 4 \(line 4\) does not match its hash/,
  );
});

Deno.test("verifyLossbenchLedger() names deleted, reordered and torn lines", () => {
  assert.deepEqual(
    (({ firstBadSeq, problem }) => [firstBadSeq, problem])(
      verifyLossbenchLedger(bytesOf(lines.filter((_, i) => i !== 5))),
    ),
    [6, "deleted"],
  );
  const swapped = [...lines];
  [swapped[1], swapped[2]] = [swapped[2], swapped[1]];
  assert.deepEqual(
    (({ firstBadSeq, problem }) => [firstBadSeq, problem])(
      verifyLossbenchLedger(bytesOf(swapped)),
    ),
    [2, "reordered"],
  );
  const torn = bytesOf(lines).subarray(0, text.length - 50);
  assert.deepEqual(
    (({ firstBadSeq, problem }) => [firstBadSeq, problem])(
      verifyLossbenchLedger(torn),
    ),
    [10, "torn"],
  );
});

Deno.test("verifyLossbenchLedger() reports a line that is not compact key-sorted JSON as malformed instead of guessing", () => {
  const pretty = [...lines];
  pretty[2] = JSON.stringify(JSON.parse(pretty[2]), null, 0).replace(
    '{"chain_hash"',
    '{"seq":3,"chain_hash"',
  );
  const v = verifyLossbenchLedger(bytesOf(pretty));
  assert.deepEqual([v.firstBadSeq, v.problem], [3, "malformed"]);
  assert.match(
    v.reason!,
    /not a LossBench ledger line: .*not compact key-sorted JSON/,
  );
});

Deno.test("a verified LossBench ledger imports with the probability meaning stated", () => {
  assert.equal(verifyLossbenchLedger(bytesOf(lines)).valid, true);
  const { decisions } = parseLossbenchLedger(text, { probability: "correct" });
  assert.ok(decisions.length > 0);
  assert.throws(
    () => parseLossbenchLedger(text, { probability: undefined as never }),
    /say what calibrated_probability means/,
  );
});
