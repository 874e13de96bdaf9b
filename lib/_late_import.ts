/**
 * Import a module when it is needed, and not before. Deno loads the target
 * of every `import("literal")` (and all it imports) before a program starts,
 * as if it were a static import; a specifier it cannot read ahead of time
 * loads only when the call runs. So the CLI names the modules that only some
 * runs need (a command, a file format's reader, an engine) through this
 * function, with the type of the module written out by the caller. Like any
 * such import, it needs read access to the module.
 *
 * @param url The module, absolute: `new URL("./x.ts", import.meta.url)`.
 * @returns The module's namespace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { importLater } from "./_late_import.ts";
 *
 * type Severity = typeof import("./costs/severity.ts");
 * const m = await importLater<Severity>(new URL("./costs/severity.ts", import.meta.url));
 * assert.deepEqual([...m.SEVERITIES], ["LOW", "MEDIUM", "HIGH", "CRITICAL"]);
 * ```
 */
export function importLater<T>(url: URL): Promise<T> {
  const specifier = url.href;
  return import(specifier);
}
