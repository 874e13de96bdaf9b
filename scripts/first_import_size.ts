// What the first import of lossbook installs, as docs/install.md states it:
// in a fresh folder that links this repository, a script imports what a
// notebook needs (`score` from the package, `show` from its display entry);
// `deno info --json` lists the npm packages that script's module graph
// resolves to, and this sums the size on disk of those Deno installed (a
// package for another platform is listed but never downloaded).
//
// Usage: deno run -A scripts/first_import_size.ts [--json]
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");

/** The two lines a notebook starts with. */
export const FIRST_IMPORT = [
  'import { score } from "jsr:@lossbook/lossbook";',
  'import { show } from "jsr:@lossbook/lossbook/display";',
  "",
].join("\n");

/** What the first import installs. */
export interface FirstImport {
  /** npm packages installed on this platform. */
  readonly packages: number;
  /** Their size on disk in bytes. */
  readonly bytes: number;
  /** The largest packages, with their size in bytes, largest first. */
  readonly largest: readonly { name: string; bytes: number }[];
}

interface NpmPackage {
  name: string;
  version: string;
  localPath?: string;
}

async function bytesIn(dir: string): Promise<number> {
  let total = 0;
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) total += await bytesIn(path);
    else if (e.isFile) total += (await Deno.lstat(path)).size;
  }
  return total;
}

/** Measure what the first import installs, in a fresh linked folder. */
export async function measureFirstImport(): Promise<FirstImport> {
  const dir = await Deno.makeTempDir({ prefix: "lossbook-first-import-" });
  try {
    await Deno.writeTextFile(
      `${dir}/deno.json`,
      `${JSON.stringify({ links: [REPO] })}\n`,
    );
    await Deno.writeTextFile(`${dir}/notebook.ts`, FIRST_IMPORT);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "notebook.ts"],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (out.code !== 0) {
      throw new Error(
        `deno info failed: ${new TextDecoder().decode(out.stderr)}`,
      );
    }
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
      npmPackages?: Record<string, NpmPackage>;
    };
    const sizes: { name: string; bytes: number }[] = [];
    for (const p of Object.values(info.npmPackages ?? {})) {
      if (p.localPath === undefined) continue;
      try {
        sizes.push({
          name: `${p.name}@${p.version}`,
          bytes: await bytesIn(p.localPath),
        });
      } catch (error) {
        // listed for another platform: resolved, never downloaded
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      }
    }
    sizes.sort((a, b) => b.bytes - a.bytes);
    return {
      packages: sizes.length,
      bytes: sizes.reduce((s, p) => s + p.bytes, 0),
      largest: sizes.slice(0, 5),
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const measured = await measureFirstImport();
  if (Deno.args.includes("--json")) {
    console.log(JSON.stringify(measured, null, 2));
  } else {
    const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
    console.log(
      `${measured.packages} npm packages, ${mb(measured.bytes)} on disk`,
    );
    for (const p of measured.largest) {
      console.log(`  ${p.name}  ${mb(p.bytes)}`);
    }
  }
}
