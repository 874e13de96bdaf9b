// Private: the three path functions the harness importers use, as
// node:path's POSIX ones compute them. Written here because importing any
// `node:` module makes Deno set up its Node compatibility layer, a cost paid
// at every process start, and format detection, which every run goes
// through, needs them. A fast-check property holds them against
// node:path/posix. On Windows a backslash also separates names.

const WINDOWS = Deno.build.os === "windows";

function isSep(c: string): boolean {
  return c === "/" || (WINDOWS && c === "\\");
}

/**
 * The last name of a path, as `path.posix.basename(p)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { basename } from "./_path.ts";
 *
 * assert.equal(basename("runs/helm/per_instance_stats.json"), "per_instance_stats.json");
 * assert.equal(basename("runs/helm/"), "helm");
 * ```
 */
export function basename(p: string): string {
  let end = p.length;
  while (end > 0 && isSep(p[end - 1])) end--;
  let start = end;
  while (start > 0 && !isSep(p[start - 1])) start--;
  return p.slice(start, end);
}

/**
 * The folder of a path, as `path.posix.dirname(p)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dirname } from "./_path.ts";
 *
 * assert.equal(dirname("runs/helm/per_instance_stats.json"), "runs/helm");
 * assert.equal(dirname("file.json"), ".");
 * assert.equal(dirname("/file.json"), "/");
 * ```
 */
export function dirname(p: string): string {
  if (p.length === 0) return ".";
  const rooted = isSep(p[0]);
  // the separator just before the last name (trailing ones passed over);
  // the first character is never that separator
  let end = -1;
  let named = false;
  for (let i = p.length - 1; i >= 1; i--) {
    if (!isSep(p[i])) named = true;
    else if (named) {
      end = i;
      break;
    }
  }
  if (end === -1) return rooted ? "/" : ".";
  if (rooted && end === 1) return "//";
  return p.slice(0, end);
}

/**
 * Paths joined and normalized, as `path.posix.join(...parts)`: empty parts
 * dropped, `.` and `..` resolved, repeated separators made one, a trailing
 * one kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "./_path.ts";
 *
 * assert.equal(join("runs/helm", "run_spec.json"), "runs/helm/run_spec.json");
 * assert.equal(join(".", "results.json"), "results.json");
 * assert.equal(join("a/b", "../c/"), "a/c/");
 * ```
 */
export function join(...parts: string[]): string {
  const joined = parts.filter((s) => s.length > 0).join("/");
  if (joined.length === 0) return ".";
  const rooted = isSep(joined[0]);
  const trailing = isSep(joined[joined.length - 1]);
  const names: string[] = [];
  for (const name of joined.split(WINDOWS ? /[\\/]/ : "/")) {
    if (name === "" || name === ".") continue;
    if (name === "..") {
      if (names.length > 0 && names[names.length - 1] !== "..") names.pop();
      else if (!rooted) names.push("..");
      continue;
    }
    names.push(name);
  }
  let out = names.join("/");
  if (rooted) out = "/" + out;
  if (out.length === 0) return rooted ? "/" : trailing ? "./" : ".";
  return trailing && out !== "/" ? out + "/" : out;
}
