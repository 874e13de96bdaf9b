// Assemble lib/runs/_scan_wasm.wat into lib/runs/_scan_wasm_bytes.ts (the
// WebAssembly bytes as base64, so that a worker loads them without file
// access), with wabt's WAT parser. `--check` fails instead of writing when
// the committed bytes differ from what the source assembles to.
//
//   deno run -A scripts/build_scan_wasm.ts [--check]
import { assembleScanWasm, SCAN_WASM_BYTES_PATH } from "./_scan_wasm_build.ts";

const check = Deno.args.includes("--check");
const text = await assembleScanWasm();
const path = new URL(`../${SCAN_WASM_BYTES_PATH}`, import.meta.url);
if (check) {
  const now = await Deno.readTextFile(path);
  if (now !== text) {
    console.error(
      `${SCAN_WASM_BYTES_PATH} is not what lib/runs/_scan_wasm.wat assembles to: run deno run -A scripts/build_scan_wasm.ts`,
    );
    Deno.exit(1);
  }
  console.log(`${SCAN_WASM_BYTES_PATH} matches its source`);
} else {
  await Deno.writeTextFile(path, text);
  console.log(`wrote ${SCAN_WASM_BYTES_PATH}`);
}
