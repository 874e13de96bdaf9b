/**
 * Reading cost profiles and the cost registry from files (`.json`, `.yaml`
 * or `.yml`) as strict UTF-8; the parsing and its errors are
 * lib/costs/load.ts's.
 *
 * @module
 */

import {
  parseProfile,
  type ParseProfileOptions,
  parseRegistry,
} from "../costs/load.ts";
import type { CostProfile } from "../costs/profile.ts";
import type { CostRegistry } from "../costs/registry.ts";
import { readUtf8File } from "./_utf8.ts";

/**
 * Read a cost profile file (`.json`, `.yaml` or `.yml`).
 *
 * @param path Path of the file.
 * @returns The validated profile.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {SyntaxError | RangeError | TypeError} As {@linkcode parseProfile}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadProfileFile } from "./cost_files.ts";
 *
 * const p = await loadProfileFile(
 *   new URL("../../data/profiles/reconciliation.json", import.meta.url).pathname,
 * );
 * assert.equal(p.K.HIGH, 10);
 * ```
 */
export async function loadProfileFile(
  path: string,
  options: Omit<ParseProfileOptions, "path"> = {},
): Promise<CostProfile> {
  return parseProfile(
    await readUtf8File(path, `Cannot load cost profile ${path}`),
    { ...options, path },
  );
}

/**
 * Read a cost registry file (`.json`, `.yaml` or `.yml`).
 *
 * @param path Path of the file.
 * @returns The validated registry.
 * @throws {Deno.errors.NotFound} When the file does not exist.
 * @throws {SyntaxError | RangeError | TypeError} As {@linkcode parseRegistry}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRegistryFile } from "./cost_files.ts";
 *
 * const r = await loadRegistryFile(
 *   new URL("../../data/registry.json", import.meta.url).pathname,
 * );
 * assert.equal(r.anchors.length, 10);
 * ```
 */
export async function loadRegistryFile(path: string): Promise<CostRegistry> {
  return parseRegistry(
    await readUtf8File(path, `Cannot load cost registry ${path}`),
    { path },
  );
}
