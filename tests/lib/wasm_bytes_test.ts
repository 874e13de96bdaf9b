// Each WebAssembly module lossbook ships is committed as base64; those bytes
// must be what its WAT source assembles to (scripts/build_wasm.ts), and
// base64Bytes must give them back.
import assert from "node:assert/strict";
import fc from "fast-check";
import { base64Bytes, base64BytesByLoop } from "../../lib/_base64.ts";
import { assembleWasm, WASM_MODULES } from "../../scripts/_wasm_build.ts";

for (const module of WASM_MODULES) {
  Deno.test(`the committed bytes of ${module.source} are what it assembles to`, async () => {
    const committed = await Deno.readTextFile(
      new URL(`../../${module.bytes}`, import.meta.url),
    );
    assert.equal(await assembleWasm(module), committed);
  });
}

Deno.test("base64Bytes() decodes what btoa encodes, any bytes, with the engine's decoder or without it (property, seed 71)", () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      const text = btoa(String.fromCharCode(...bytes));
      assert.deepEqual(base64Bytes(text), bytes);
      assert.deepEqual(base64BytesByLoop(text), bytes);
    }),
    { seed: 71, numRuns: 500 },
  );
});
