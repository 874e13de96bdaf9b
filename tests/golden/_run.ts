/**
 * Runs a golden case as a child process and normalises its output: the
 * scratch folder's and the repository's absolute paths become `<TMP>` and
 * `<ROOT>`, and keys holding timestamps or timings are dropped (a key named
 * in {@link VOLATILE_KEYS}). Nothing else is changed.
 *
 * @module
 */
import type { GoldenCase } from "./_cases.ts";

/** The repository's root folder, without a trailing slash. */
export const ROOT = new URL("../../", import.meta.url).pathname.replace(
  /\/$/,
  "",
);

/** Keys whose values are wall-clock times or durations, dropped before comparing. */
export const VOLATILE_KEYS: ReadonlySet<string> = new Set([
  "elapsedMs",
  "elapsedSeconds",
  "generatedAt",
  "startedAt",
  "finishedAt",
  "durationMs",
]);

async function cli(
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}/cli.ts`, ...args],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
  };
}

function dropVolatile(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropVolatile);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).filter(([k]) => !VOLATILE_KEYS.has(k)).map((
        [k, v],
      ) => [k, dropVolatile(v)]),
    );
  }
  return value;
}

/** Normalise one command's standard output for comparison. */
export function normalise(stdout: string, tmp: string): string {
  const text = stdout.replaceAll(tmp, "<TMP>").replaceAll(ROOT, "<ROOT>");
  // a document printed with --json: drop the volatile keys and print it
  // again the way the commands do, two-space indented with a final newline
  const docs = text.trim() === "" ? [] : [JSON.parse(text)];
  return docs.map((d) => JSON.stringify(dropVolatile(d), null, 2) + "\n")
    .join("");
}

/** Run one case in a fresh scratch folder; return its normalised output. */
export async function runGolden(c: GoldenCase): Promise<string> {
  const tmp = await Deno.makeTempDir({ prefix: "lossbook-golden-" });
  try {
    const sub = (args: readonly string[]) =>
      args.map((a) => a.replaceAll("$TMP", tmp));
    for (const setup of c.setup ?? []) {
      const r = await cli(sub(setup));
      if (r.code !== 0) {
        throw new Error(
          `golden ${c.name}: setup ${
            setup.join(" ")
          } exited ${r.code}: ${r.stderr}`,
        );
      }
    }
    const r = await cli(sub(c.args));
    if (r.code !== (c.code ?? 0)) {
      throw new Error(
        `golden ${c.name}: exited ${r.code}, expected ${
          c.code ?? 0
        }: ${r.stderr}`,
      );
    }
    return normalise(r.stdout, tmp);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}
