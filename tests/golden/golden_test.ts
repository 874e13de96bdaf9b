import assert from "node:assert/strict";
import { GOLDEN_CASES } from "./_cases.ts";
import { runGolden } from "./_run.ts";

// Every command's --json document on the shipped examples, byte for byte as
// pinned (tests/golden/pin.ts re-pins on purpose, with a CHANGELOG entry).
for (const c of GOLDEN_CASES) {
  Deno.test(`lossbook ${c.args[0]} --json on the examples is unchanged: ${c.name}`, async () => {
    const expected = await Deno.readTextFile(
      new URL(`./${c.name}.json`, import.meta.url),
    );
    assert.equal(await runGolden(c), expected);
  });
}
