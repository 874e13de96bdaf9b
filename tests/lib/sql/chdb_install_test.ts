// installChdb() on a package served from this machine: the library is
// unpacked only from a tarball with the pinned integrity, and an install
// that refuses leaves neither the library nor the download behind.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  CHDB_PACKAGE,
  chdbLibraryPath,
  installChdb,
  installedChdb,
} from "../../../lib/sql/chdb_install.ts";
import { tempDir } from "../../_helpers.ts";

// a package tarball as npm packs one (Debian tar and gzip): a few files
// under package/, the library among them, with bytes no other file has
async function fakePackage(dir: string): Promise<Uint8Array> {
  await Deno.mkdir(`${dir}/package`);
  await Deno.writeTextFile(`${dir}/package/package.json`, "{}");
  const lib = new Uint8Array(3000).map((_, i) => (i * 7) % 251);
  await Deno.writeFile(`${dir}/package/libchdb.so`, lib);
  await Deno.writeTextFile(`${dir}/package/index.js`, "// after the library");
  const tar = await new Deno.Command("tar", {
    args: [
      "-czf",
      `${dir}/p.tgz`,
      "-C",
      dir,
      "package/package.json",
      "package/libchdb.so",
      "package/index.js",
    ],
  }).output();
  assert.equal(tar.code, 0, new TextDecoder().decode(tar.stderr));
  return lib;
}

Deno.test("installChdb() unpacks libchdb.so from a tarball with the pinned integrity, once, and refuses any other tarball leaving nothing behind", async () => {
  const dir = await tempDir("lossbook-install-");
  const lib = await fakePackage(dir);
  const tgz = await Deno.readFile(`${dir}/p.tgz`);
  const integrity = `sha512-${
    createHash("sha512").update(tgz).digest("base64")
  }`;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response(tgz),
  );
  try {
    const tarball = `http://127.0.0.1:${server.addr.port}/p.tgz`;
    const refusedEnv = { XDG_CACHE_HOME: `${dir}/refused` };
    await assert.rejects(
      () =>
        installChdb({
          env: refusedEnv,
          tarball,
          integrity: CHDB_PACKAGE.integrity,
        }),
      /has integrity sha512-.*, not the pinned sha512-XP97/,
    );
    assert.equal(installedChdb(refusedEnv), null);
    const folder = chdbLibraryPath(refusedEnv).replace(/\/libchdb\.so$/, "");
    assert.deepEqual([...Deno.readDirSync(folder)], []);

    const env = { XDG_CACHE_HOME: `${dir}/cache` };
    assert.deepEqual(await installChdb({ env, tarball, integrity }), {
      path: chdbLibraryPath(env),
      downloaded: true,
    });
    assert.deepEqual(await Deno.readFile(chdbLibraryPath(env)), lib);
    assert.deepEqual(await installChdb({ env, tarball, integrity }), {
      path: chdbLibraryPath(env),
      downloaded: false,
    });
  } finally {
    await server.shutdown();
  }
});
