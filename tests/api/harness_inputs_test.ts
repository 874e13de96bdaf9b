// allowIncomplete reaches the library as --allow-incomplete reaches the
// command: the same refusal, and the same document with its inputs list.
import assert from "node:assert/strict";
import { score } from "../../mod.ts";
import { storedEntry, zipArchive } from "../../scripts/_zip_write.ts";
import { runCli, tempDir } from "../_helpers.ts";

// a finished log counting three samples and holding two
async function partialLog(): Promise<string> {
  const sample = (id: number, value: string) =>
    storedEntry(
      `samples/${id}_epoch_1.json`,
      JSON.stringify({
        id,
        epoch: 1,
        target: "A",
        scores: { match: { value, answer: "A" } },
      }),
    );
  const file = `${await tempDir()}/partial.eval`;
  await Deno.writeFile(
    file,
    zipArchive([
      sample(1, "C"),
      sample(2, "I"),
      storedEntry(
        "header.json",
        JSON.stringify({
          version: 2,
          status: "success",
          eval: { run_id: "r", model: "m", dataset: { sample_ids: [1, 2, 3] } },
          results: { total_samples: 3 },
        }),
      ),
    ]),
  );
  return file;
}

Deno.test("score() refuses an incomplete log as the command does, and with allowIncomplete prints its document, inputs included, byte for byte", async () => {
  const file = await partialLog();
  const flags = ["--severity", "HIGH", "--profile", "flat", "--json"];
  const refused = await runCli(["score", file, ...flags]);
  assert.equal(refused.code, 2);
  assert.match(
    refused.stderr,
    /it counts 3 samples but holds 2 \(first missing: 3\/1\)/,
  );
  await assert.rejects(
    () => score([file], { severity: "HIGH", profiles: ["flat"] }),
    (e: Error) => refused.stderr.includes(e.message),
  );
  const cli = await runCli(["score", file, ...flags, "--allow-incomplete"]);
  assert.equal(cli.code, 0, cli.stderr);
  const doc = await score([file], {
    severity: "HIGH",
    profiles: ["flat"],
    allowIncomplete: true,
  });
  assert.equal(JSON.stringify(doc, null, 2) + "\n", cli.stdout);
  assert.deepEqual(doc.inputs, [
    { file, status: "success", samplesExpected: 3, samplesRead: 2 },
  ]);
  assert.equal(doc.decisions, 2);
});
