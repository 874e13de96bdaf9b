/**
 * Where chdb, ClickHouse's embedded engine, lives on this machine, and how
 * `lossbook engine install chdb` puts it there: the platform package of
 * chdb 3.4.0 (`@chdb/lib-linux-x64-gnu`, which holds `libchdb.so`) is
 * fetched from the npm registry, checked against the integrity pinned
 * below, and its `libchdb.so` unpacked into the cache folder. Nothing else
 * downloads it: a run that never asks for chdb never touches the network.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { CHDB_PACKAGE, chdbLibraryPath } from "./chdb_install.ts";
 *
 * assert.equal(CHDB_PACKAGE.version, "26.7.3-stable.1");
 * assert.match(chdbLibraryPath({ XDG_CACHE_HOME: "/c" }), /^\/c\/lossbook\/chdb-26\.7\.3-stable\.1\/libchdb\.so$/);
 * ```
 *
 * @module
 */

import { createHash } from "node:crypto";

/** The npm package that holds `libchdb.so`, as chdb 3.4.0 pins it. */
export const CHDB_PACKAGE = {
  name: "@chdb/lib-linux-x64-gnu",
  version: "26.7.3-stable.1",
  tarball:
    "https://registry.npmjs.org/@chdb/lib-linux-x64-gnu/-/lib-linux-x64-gnu-26.7.3-stable.1.tgz",
  /** The registry's `dist.integrity` of the tarball (SRI, SHA-512). */
  integrity:
    "sha512-XP97mMqnc5tZpKQywR8N7cLTsHNiTmHr30pC5mzo3jWmukjKn2IBa60c2B/gWUNcuFjOMjWoorQICCqBVj5wpw==",
  /** The library's path inside the tarball. */
  member: "package/libchdb.so",
} as const;

/** The environment variables {@linkcode chdbLibraryPath} reads. */
export interface CacheEnv {
  /** The cache folder's parent, when set and not empty. */
  readonly XDG_CACHE_HOME?: string;
  /** The home folder, for `~/.cache` when `XDG_CACHE_HOME` is not set. */
  readonly HOME?: string;
}

function envOf(): CacheEnv {
  return {
    XDG_CACHE_HOME: Deno.env.get("XDG_CACHE_HOME"),
    HOME: Deno.env.get("HOME"),
  };
}

/**
 * The folder lossbook caches engines in: `$XDG_CACHE_HOME/lossbook`, or
 * `~/.cache/lossbook`.
 *
 * @param env The variables to read. Default: the process's.
 * @returns The folder's path.
 * @throws {Error} When neither `XDG_CACHE_HOME` nor `HOME` is set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lossbookCacheDir } from "./chdb_install.ts";
 *
 * assert.equal(lossbookCacheDir({ HOME: "/home/a" }), "/home/a/.cache/lossbook");
 * ```
 */
export function lossbookCacheDir(env: CacheEnv = envOf()): string {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && xdg !== "") return `${xdg}/lossbook`;
  const home = env.HOME;
  if (home === undefined || home === "") {
    throw new Error(
      "Cannot find the cache folder: neither XDG_CACHE_HOME nor HOME is set",
    );
  }
  return `${home}/.cache/lossbook`;
}

/**
 * Where `libchdb.so` is once installed: a folder named after the package
 * version under {@linkcode lossbookCacheDir}.
 *
 * @param env The variables to read. Default: the process's.
 * @returns The library's path (which may not exist).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { chdbLibraryPath } from "./chdb_install.ts";
 *
 * assert.equal(chdbLibraryPath({ HOME: "/h" }), "/h/.cache/lossbook/chdb-26.7.3-stable.1/libchdb.so");
 * ```
 */
export function chdbLibraryPath(env: CacheEnv = envOf()): string {
  return `${lossbookCacheDir(env)}/chdb-${CHDB_PACKAGE.version}/libchdb.so`;
}

/** The command that installs chdb, as the refusals name it. */
export const CHDB_INSTALL_COMMAND = "lossbook engine install chdb";

/**
 * The installed `libchdb.so`, or `null` when it is not installed.
 *
 * @param env The variables to read. Default: the process's.
 * @returns The library's path, or `null`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { installedChdb } from "./chdb_install.ts";
 *
 * assert.equal(installedChdb({ XDG_CACHE_HOME: "/nonexistent" }), null);
 * ```
 */
export function installedChdb(env: CacheEnv = envOf()): string | null {
  const path = chdbLibraryPath(env);
  try {
    return Deno.statSync(path).isFile ? path : null;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** What {@linkcode installChdb} did. */
export interface ChdbInstall {
  /** The library's path. */
  readonly path: string;
  /** `false` when the library was there already. */
  readonly downloaded: boolean;
}

/** Options of {@linkcode installChdb}. */
export interface InstallChdbOptions {
  /** The variables to read. Default: the process's. */
  readonly env?: CacheEnv;
  /** The tarball's address. Default: {@linkcode CHDB_PACKAGE}'s. */
  readonly tarball?: string;
  /** The SRI integrity the tarball must have. Default: {@linkcode CHDB_PACKAGE}'s. */
  readonly integrity?: string;
}

// Reads the tar stream `input` and writes the regular file `member` to
// `out`; true when it was found. A tar is 512-byte headers, each followed
// by its file's bytes padded to 512; hand-written because no dependency of
// lossbook reads tar, and this needs only the name and size of each entry.
async function extractMember(
  input: ReadableStream<Uint8Array>,
  member: string,
  out: string,
): Promise<boolean> {
  const reader = input.getReader();
  let buf = new Uint8Array(0);
  let done = false;
  async function fill(n: number): Promise<boolean> {
    while (buf.length < n && !done) {
      const r = await reader.read();
      if (r.done) done = true;
      else {
        const next = new Uint8Array(buf.length + r.value.length);
        next.set(buf);
        next.set(r.value, buf.length);
        buf = next;
      }
    }
    return buf.length >= n;
  }
  const text = (b: Uint8Array) =>
    new TextDecoder().decode(
      b.subarray(0, b.indexOf(0) < 0 ? b.length : b.indexOf(0)),
    );
  try {
    while (await fill(512)) {
      const header = buf.subarray(0, 512);
      if (header.every((x) => x === 0)) return false;
      const name = text(header.subarray(0, 100));
      const prefix = text(header.subarray(345, 500));
      const size = parseInt(text(header.subarray(124, 136)).trim() || "0", 8);
      const full = prefix === "" ? name : `${prefix}/${name}`;
      buf = buf.slice(512);
      const padded = Math.ceil(size / 512) * 512;
      const want = full === member && String.fromCharCode(header[156]) !== "5";
      const file = want
        ? await Deno.open(out, { write: true, create: true, truncate: true })
        : null;
      try {
        let left = padded;
        let data = size;
        while (left > 0) {
          if (buf.length === 0 && !(await fill(1))) {
            throw new SyntaxError(`The tarball ends inside ${full}`);
          }
          const take = Math.min(left, buf.length);
          const keep = Math.min(take, data);
          if (file !== null && keep > 0) {
            let chunk = buf.subarray(0, keep);
            while (chunk.length > 0) {
              chunk = chunk.subarray(await file.write(chunk));
            }
          }
          data -= keep;
          left -= take;
          buf = buf.slice(take);
        }
      } finally {
        file?.close();
      }
      if (want) return true;
    }
    return false;
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * Install chdb: fetch its platform package from the npm registry into the
 * cache folder, check the tarball's SHA-512 against the pinned integrity
 * before unpacking anything, and unpack `libchdb.so` beside it (written to
 * a temporary name, then renamed, so an interrupted install leaves no
 * library). Does nothing when the library is there already.
 *
 * @param options The cache folder's variables, and the tarball to fetch.
 * @returns The library's path, and whether it was downloaded.
 * @throws {Error} When the registry does not answer with the tarball, or
 * the tarball does not have the pinned integrity (the download is deleted).
 *
 * @example
 * ```ts ignore
 * import { installChdb } from "./chdb_install.ts";
 *
 * const { path } = await installChdb();
 * console.log(path);
 * ```
 */
export async function installChdb(
  options: InstallChdbOptions = {},
): Promise<ChdbInstall> {
  const env = options.env ?? envOf();
  const path = chdbLibraryPath(env);
  if (installedChdb(env) !== null) return { path, downloaded: false };
  const url = options.tarball ?? CHDB_PACKAGE.tarball;
  const integrity = options.integrity ?? CHDB_PACKAGE.integrity;
  const folder = path.slice(0, path.lastIndexOf("/"));
  await Deno.mkdir(folder, { recursive: true });
  const tgz = `${folder}/package.tgz.part`;
  const response = await fetch(url);
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new Error(
      `Cannot download ${url}: the registry answered ${response.status} ${response.statusText}`,
    );
  }
  const hash = createHash("sha512");
  const file = await Deno.open(tgz, {
    write: true,
    create: true,
    truncate: true,
  });
  try {
    for await (const chunk of response.body) {
      hash.update(chunk);
      let rest = chunk;
      while (rest.length > 0) rest = rest.subarray(await file.write(rest));
    }
  } finally {
    file.close();
  }
  const got = `sha512-${hash.digest("base64")}`;
  try {
    if (got !== integrity) {
      throw new Error(
        `Cannot install chdb: ${url} has integrity ${got}, not the pinned ${integrity}`,
      );
    }
    const part = `${path}.part`;
    const input = await Deno.open(tgz);
    const found = await extractMember(
      input.readable.pipeThrough(new DecompressionStream("gzip")),
      CHDB_PACKAGE.member,
      part,
    );
    if (!found) {
      await Deno.remove(part).catch(() => {});
      throw new Error(
        `Cannot install chdb: ${url} holds no ${CHDB_PACKAGE.member}`,
      );
    }
    await Deno.rename(part, path);
  } finally {
    await Deno.remove(tgz).catch(() => {});
  }
  return { path, downloaded: true };
}
