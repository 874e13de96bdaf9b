// Each WebAssembly module lossbook ships is committed as base64; those bytes
// must be what its WAT source assembles to (scripts/build_wasm.ts), and the
// engine's base64 decoder must give them back.
import assert from "node:assert/strict";
import { assembleWasm, WASM_MODULES } from "../../scripts/_wasm_build.ts";

for (const module of WASM_MODULES) {
  Deno.test(`the committed bytes of ${module.source} are what it assembles to, and decode to a module`, async () => {
    const url = new URL(`../../${module.bytes}`, import.meta.url);
    const committed = await Deno.readTextFile(url);
    assert.equal(await assembleWasm(module), committed);
    const base64 = (await import(url.href))[module.constant] as string;
    const bytes = Uint8Array.fromBase64(base64);
    assert.equal(btoa(String.fromCharCode(...bytes)), base64);
    assert.ok(WebAssembly.validate(bytes));
  });
}
