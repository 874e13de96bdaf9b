// Assemble each of lossbook's WAT sources (lib/read/_scan_wasm.wat) into
// its bytes module (the WebAssembly bytes as base64, so that a worker loads
// them without file access), with wabt's WAT parser. `--check` fails
// instead of writing when committed bytes differ from what their source
// assembles to.
//
//   deno run -A scripts/build_wasm.ts [--check]
import { assembleWasm, WASM_MODULES } from "./_wasm_build.ts";

const check = Deno.args.includes("--check");
let stale = 0;
for (const module of WASM_MODULES) {
  const text = await assembleWasm(module);
  const path = new URL(`../${module.bytes}`, import.meta.url);
  if (check) {
    const now = await Deno.readTextFile(path).catch(() => "");
    if (now !== text) {
      console.error(
        `${module.bytes} is not what ${module.source} assembles to: run deno run -A scripts/build_wasm.ts`,
      );
      stale++;
    } else console.log(`${module.bytes} matches its source`);
  } else {
    await Deno.writeTextFile(path, text);
    console.log(`wrote ${module.bytes}`);
  }
}
if (stale > 0) Deno.exit(1);
