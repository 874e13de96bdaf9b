/**
 * Which format an input is, decided in one place: a harness importer that
 * claims it from its content (each importer's `detect`), a `.json` that
 * opens like a ReconForge per-task file, or else a Decision run export (by
 * extension). Ambiguous and unrecognised inputs are refused, never guessed.
 *
 * @module
 */

import {
  DETECT_HEAD_BYTES,
  type DetectInput,
  HARNESS_FORMATS,
  HARNESS_IMPORTERS,
  type HarnessFormat,
} from "./harness.ts";
import { InputTypeError } from "../input_error.ts";
import { regularFile } from "../read/_regular_file.ts";

/**
 * Read the part of an input that detection looks at.
 *
 * @param path A file or folder.
 * @returns Its {@linkcode DetectInput}.
 * @throws `Deno.errors.NotFound` when the path does not exist.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectInput } from "./detect.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const input = await detectInput(dir);
 * assert.equal(input.isDirectory, true);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function detectInput(path: string): Promise<DetectInput> {
  const info = await Deno.stat(path);
  if (info.isDirectory) {
    return { path, isDirectory: true, head: new Uint8Array(0) };
  }
  // a FIFO or a device is refused before it is opened, which could block
  await regularFile(path, `Cannot read ${path}`);
  using file = await Deno.open(path);
  const head = new Uint8Array(DETECT_HEAD_BYTES);
  let filled = 0;
  while (filled < head.length) {
    const n = await file.read(head.subarray(filled));
    if (n === null) break;
    filled += n;
  }
  return { path, isDirectory: false, head: head.subarray(0, filled) };
}

/**
 * The harness formats whose importer recognises an input.
 *
 * @param input From {@linkcode detectInput}.
 * @returns The formats that claim it (none, one, or, if detection were ambiguous, several).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectHarnessFormats } from "./detect.ts";
 *
 * const head = new TextEncoder().encode('{"run": "x", "per_task": []}');
 * assert.deepEqual(detectHarnessFormats({ path: "a.json", isDirectory: false, head }), []);
 * ```
 */
export function detectHarnessFormats(input: DetectInput): HarnessFormat[] {
  return HARNESS_FORMATS.filter((f) =>
    HARNESS_IMPORTERS[f]?.detect(input) ?? false
  );
}

/** Whether the head of a `.json` file opens like a ReconForge per-task file. */
function looksLikeReconforge(head: Uint8Array): boolean {
  const t = new TextDecoder().decode(head).replace(/^\uFEFF/, "");
  return /^\s*\{\s*"run"\s*:/.test(t) || /"per_task"\s*:\s*\[/.test(t);
}

/**
 * The format of an input, from its content where that is unambiguous: a
 * harness importer that claims it; a `.json` that opens like a ReconForge
 * file; otherwise a Decision run export (by extension, as before). A `.json`
 * that is neither ReconForge nor a harness log, and a folder no importer
 * claims, are refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectFormat } from "./detect.ts";
 *
 * assert.equal(await detectFormat("data/examples/harness/inspect_sonnet.json"), "inspect");
 * assert.equal(await detectFormat("data/examples/reconforge_run.json"), "reconforge");
 * assert.equal(await detectFormat("data/examples/model_ab.jsonl"), "decisions");
 * ```
 */
export async function detectFormat(path: string): Promise<string> {
  const input = await detectInput(path);
  const claims = detectHarnessFormats(input);
  if (claims.length > 1) {
    throw new InputTypeError(
      `${path} could be ${claims.join(" or ")}; say which with --format`,
    );
  }
  if (claims.length === 1) return claims[0];
  if (input.isDirectory) {
    throw new InputTypeError(
      `${path} is a folder that no importer recognises (a HELM run folder holds run_spec.json, scenario_state.json and per_instance_stats.json); pass --format`,
    );
  }
  if (/\.json$/i.test(path)) {
    if (looksLikeReconforge(input.head)) return "reconforge";
    throw new InputTypeError(
      `Cannot tell what ${path} is: it is neither a ReconForge per-task file ({"run": ..., "per_task": [...]}) nor an inspect_ai log ({"version": ..., "status": ..., "eval": ...}); pass --format`,
    );
  }
  return "decisions";
}
