// Write a large inspect_ai `.eval` log for benchmarks and for the
// decompression caps: N samples, one epoch, each with a user message and an
// answer of about 1 KB of seeded, word-like text (so that it compresses as
// prose does, not as zeros), deflated entry by entry, with a header whose
// results count every sample.
//
// Usage: deno run --allow-write scripts/make_big_eval.ts --samples N --out FILE
import { parseArgs } from "node:util";
import { deflateSync } from "fflate";
import { crc32Of } from "../lib/import/_zip_read.ts";
import { type Prng, seededPrng } from "../lib/math/sampling.ts";
import { type RawZipEntry, zipParts } from "./_zip_write.ts";

const WORDS = (
  "ledger bank line amount value date currency match mismatch duplicate " +
  "settlement reference invoice payment account balance posted cleared " +
  "pending fee rate conversion counterparty batch entry statement period " +
  "the a of to and in for on with by is was not as at from this that"
).split(" ");

/**
 * Seeded, word-like text of about `bytes` bytes (it compresses as prose does).
 *
 * @param rng The text's generator.
 * @param bytes Its length, roughly.
 * @returns The text.
 */
export function prose(rng: Prng, bytes: number): string {
  const out: string[] = [];
  let n = 0;
  while (n < bytes) {
    const w = WORDS[Math.floor(rng.next() * WORDS.length)];
    const amount = rng.next() < 0.15
      ? ` ${(rng.next() * 100000).toFixed(2)}`
      : "";
    out.push(w + amount);
    n += w.length + amount.length + 1;
  }
  return out.join(" ");
}

const encoder = new TextEncoder();

function deflated(name: string, value: unknown): RawZipEntry {
  const data = encoder.encode(JSON.stringify(value));
  return {
    name,
    method: 8,
    packed: deflateSync(data, { level: 6 }),
    crc: crc32Of(data),
    size: data.length,
  };
}

/**
 * The header of an N-sample log: success, every sample id, one epoch, and
 * results counting N samples.
 *
 * @param samples N.
 * @returns The `header.json` value.
 */
export function bigEvalHeader(samples: number): Record<string, unknown> {
  const ids = Array.from({ length: samples }, (_, i) => i + 1);
  return {
    version: 2,
    status: "success",
    eval: {
      run_id: "BigEvalRun000000000000",
      task: "big_eval",
      model: "example/big-model",
      created: "2026-11-30T10:00:00+00:00",
      dataset: { name: "big_eval", samples, sample_ids: ids },
      config: { epochs: 1 },
    },
    plan: { name: "plan", steps: [] },
    results: { total_samples: samples, completed_samples: samples, scores: [] },
    stats: {},
  };
}

/**
 * The entries of an N-sample log, made one at a time.
 *
 * @param samples N.
 * @param seed Seed of the text.
 * @returns The entries: every sample, then `header.json`.
 */
export function* bigEvalEntries(
  samples: number,
  seed = 1,
): Generator<RawZipEntry> {
  const rng = seededPrng(seed);
  for (let id = 1; id <= samples; id++) {
    const question = prose(rng, 700);
    const answer = prose(rng, 300);
    const correct = rng.next() < 0.8;
    yield deflated(`samples/${id}_epoch_1.json`, {
      id,
      epoch: 1,
      input: question,
      target: "MATCH",
      messages: [
        { role: "user", content: question },
        { role: "assistant", content: answer },
      ],
      output: {
        model: "example/big-model",
        choices: [{ message: { role: "assistant", content: answer } }],
        completion: answer,
      },
      scores: {
        match: { value: correct ? "C" : "I", answer: correct ? "MATCH" : "X" },
      },
      metadata: { severity: "HIGH" },
      total_time: 1.5,
    });
  }
  yield deflated("header.json", bigEvalHeader(samples));
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { samples: { type: "string" }, out: { type: "string" } },
  });
  const samples = Number(values.samples);
  if (!Number.isInteger(samples) || samples < 1 || values.out === undefined) {
    console.error(
      "usage: deno run --allow-write scripts/make_big_eval.ts --samples N --out FILE",
    );
    Deno.exit(2);
  }
  const file = await Deno.open(values.out, {
    write: true,
    create: true,
    truncate: true,
  });
  const writer = file.writable.getWriter();
  for (const part of zipParts(bigEvalEntries(samples))) {
    await writer.write(part);
  }
  await writer.close();
  console.error(`wrote ${samples} samples to ${values.out}`);
}
