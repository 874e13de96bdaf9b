// Each WebAssembly module lossbook ships is committed as base64; those bytes
// must be what its WAT source assembles to (scripts/build_wasm.ts).
import assert from "node:assert/strict";
import { assembleWasm, WASM_MODULES } from "../../scripts/_wasm_build.ts";

for (const module of WASM_MODULES) {
  Deno.test(`the committed bytes of ${module.source} are what it assembles to`, async () => {
    const committed = await Deno.readTextFile(
      new URL(`../../${module.bytes}`, import.meta.url),
    );
    assert.equal(await assembleWasm(module), committed);
  });
}
