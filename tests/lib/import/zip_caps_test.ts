// The decompression caps of the `.eval` reader: a bomb is refused at its
// cap, naming the entry, with the peak memory of the whole command (a child
// process, measured by /usr/bin/time) under 512 MB; real logs pass.
import assert from "node:assert/strict";
import { deflateRawSync } from "node:zlib";
import { storedEntry, zipArchive } from "../../../scripts/_zip_write.ts";
import {
  bigEvalEntries,
  bigEvalHeader,
} from "../../../scripts/make_big_eval.ts";
import {
  crc32Of,
  readZipEntries,
  zipEntryBytes,
} from "../../../lib/import/_zip_read.ts";
import {
  DEFAULT_MAX_ENTRY_BYTES,
  DEFAULT_MAX_ENTRY_RATIO,
} from "../../../lib/import/_zip_caps.ts";
import { deflateSync } from "fflate";
import { score } from "../../../mod.ts";
import { runCli, tempDir } from "../../_helpers.ts";

const MIB = 1024 * 1024;
const enc = new TextEncoder();
const EXAMPLE = "data/examples/harness/inspect_qwen.eval";

// a finished log of one sample whose entry is `bomb`
function bombLog(bomb: { method: 8 | 93; packed: Uint8Array; size: number }) {
  return zipArchive([
    { name: "samples/1_epoch_1.json", crc: 0, ...bomb },
    storedEntry(
      "header.json",
      JSON.stringify({
        version: 2,
        status: "success",
        eval: { run_id: "r", model: "m", dataset: { sample_ids: [1] } },
        results: { total_samples: 1 },
      }),
    ),
  ]);
}

// one zstd frame of `size` zero bytes, as RLE blocks of 128 KiB (RFC 8878
// section 3.1.1: frame header with single-segment content size, then
// blocks of type 1, each one byte repeated Block_Size times)
function zstdZeroFrame(size: number): Uint8Array {
  const blocks = Math.ceil(size / 131072);
  const out = new Uint8Array(9 + blocks * 4);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0xfd2fb528, true);
  out[4] = 0xa0; // 4-byte content size, single segment
  v.setUint32(5, size, true);
  for (let b = 0; b < blocks; b++) {
    const n = Math.min(131072, size - b * 131072);
    const h = (n << 3) | (1 << 1) | (b === blocks - 1 ? 1 : 0);
    out.set([h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff, 0], 9 + b * 4);
  }
  return out;
}

// exit code, stderr and peak resident memory of `lossbook score FILE`
async function scoreMeasured(
  file: string,
): Promise<{ code: number; stderr: string; peakMb: number }> {
  const out = await new Deno.Command("/usr/bin/time", {
    args: [
      "-v",
      Deno.execPath(),
      "run",
      "-A",
      new URL("../../../cli.ts", import.meta.url).pathname,
      "score",
      file,
      "--severity",
      "HIGH",
      "--profile",
      "flat",
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  assert.ok(kb !== null, stderr);
  return { code: out.code, stderr, peakMb: Number(kb[1]) / 1024 };
}

async function assertRefusedSmall(
  log: Uint8Array,
  name: string,
  message: RegExp,
): Promise<void> {
  const file = `${await tempDir()}/${name}.eval`;
  await Deno.writeFile(file, log);
  const r = await scoreMeasured(file);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /entry samples\/1_epoch_1\.json: /);
  assert.match(r.stderr, message);
  assert.ok(r.peakMb < 512, `peak ${r.peakMb.toFixed(0)} MB`);
}

Deno.test("score refuses a 1 GiB deflate entry of zeros at a cap, naming it, under 512 MB of memory", async () => {
  const packed = deflateRawSync(new Uint8Array(1024 * MIB), { level: 1 });
  // the directory states the true size: refused before inflating
  await assertRefusedSmall(
    bombLog({ method: 8, packed, size: 1024 * MIB }),
    "zeros",
    /its stated size is 1024 MiB, above --max-entry-bytes 268435456/,
  );
  // the directory understates it: refused while inflating, at its word
  await assertRefusedSmall(
    bombLog({ method: 8, packed, size: 10 * MIB }),
    "zeros_lying",
    /inflates past the 10485760 bytes the directory says/,
  );
});

Deno.test("score refuses 2,048 zstd frames of 1 MiB at a cap, naming the entry, under 512 MB of memory", async () => {
  const frame = zstdZeroFrame(MIB);
  const packed = new Uint8Array(frame.length * 2048);
  for (let i = 0; i < 2048; i++) packed.set(frame, i * frame.length);
  await assertRefusedSmall(
    bombLog({ method: 93, packed, size: 2048 * MIB - 1 }),
    "frames",
    /above --max-entry-bytes 268435456/,
  );
  // a stated size within both caps is no licence to inflate past it
  await assertRefusedSmall(
    bombLog({ method: 93, packed, size: MIB }),
    "frames_lying",
    /inflates past the 1048576 bytes the directory says/,
  );
});

Deno.test("zipEntryBytes() refuses an entry whose size passes --max-entry-ratio, and reads it whole with the cap raised", () => {
  const data = new Uint8Array(8 * MIB);
  const packed = deflateSync(data, { level: 9 });
  const zip = zipArchive([
    { name: "z.bin", method: 8, packed, crc: crc32Of(data), size: data.length },
  ]);
  const entry = readZipEntries(zip, "z.zip").get("z.bin")!;
  assert.throws(
    () => zipEntryBytes(zip, entry, "z.zip"),
    /entry z\.bin: its stated size is 8388608 bytes from \d+ compressed \(\d+ to 1\), above --max-entry-ratio 200/,
  );
  // with the cap raised, the same entry reads whole
  assert.equal(
    zipEntryBytes(zip, entry, "z.zip", { maxEntryRatio: 100_000 }).length,
    data.length,
  );
});

Deno.test("the default caps admit a log of 200,000 samples with 1 KB messages: each entry's size and ratio do not grow with N", () => {
  // 2,000 samples, as make_big_eval.ts writes 200,000: sample entries are
  // the same whatever N, and only the header grows (by its sample ids)
  const entries = [...bigEvalEntries(2000)];
  const header = enc.encode(JSON.stringify(bigEvalHeader(200_000)));
  const headerPacked = deflateSync(header, { level: 6 });
  const sizes = [
    ...entries.map((e) => ({ size: e.size, packed: e.packed.length })),
    { size: header.length, packed: headerPacked.length },
  ];
  const worst = Math.max(...sizes.map((s) => s.size / s.packed));
  const largest = Math.max(...sizes.map((s) => s.size));
  // prose compresses some 2 to 5 to 1, far inside the ratio cap
  assert.ok(worst < DEFAULT_MAX_ENTRY_RATIO / 10, `worst ratio ${worst}`);
  assert.ok(largest < DEFAULT_MAX_ENTRY_BYTES / 100, `largest ${largest}`);
  const zip = zipArchive(entries);
  for (const e of readZipEntries(zip, "big.eval").values()) {
    assert.equal(zipEntryBytes(zip, e, "big.eval").length, e.size);
  }
});

Deno.test("--max-entry-bytes and maxEntryBytes reach the .eval reader, with the same error", async () => {
  const cli = await runCli([
    "score",
    EXAMPLE,
    "--severity",
    "HIGH",
    "--max-entry-bytes",
    "100",
  ]);
  assert.equal(cli.code, 2);
  assert.match(
    cli.stderr,
    /entry .*: its stated size is \d+ bytes, above --max-entry-bytes 100/,
  );
  await assert.rejects(
    () => score([EXAMPLE], { severity: "HIGH", maxEntryBytes: 100 }),
    (e: Error) => cli.stderr.includes(e.message),
  );
  const ratio = await runCli([
    "score",
    EXAMPLE,
    "--severity",
    "HIGH",
    "--max-entry-ratio",
    "0",
  ]);
  assert.equal(ratio.code, 2);
  assert.match(
    ratio.stderr,
    /--max-entry-ratio must be an integer >= 1, got "0"/,
  );
  const lm = await runCli([
    "score",
    "data/examples/harness/lm_eval/samples_recon_mc_2026-11-30T10-00-00.000000.jsonl",
    "--severity",
    "HIGH",
    "--max-entry-bytes",
    "100",
  ]);
  assert.equal(lm.code, 2);
  assert.match(
    lm.stderr,
    /--max-entry-bytes applies to --format inspect, not to lm-eval/,
  );
});
