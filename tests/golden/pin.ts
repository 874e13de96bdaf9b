/**
 * Re-pin the golden outputs: `deno run -A tests/golden/pin.ts [NAME...]`.
 * Only for a change that alters a printed document on purpose, named in the
 * CHANGELOG.
 *
 * @module
 */
import { GOLDEN_CASES } from "./_cases.ts";
import { runGolden } from "./_run.ts";
import { reproduce } from "../../reproduce.ts";

const only = new Set(Deno.args);
for (const c of GOLDEN_CASES) {
  if (only.size > 0 && !only.has(c.name)) continue;
  const text = await runGolden(c);
  await Deno.writeTextFile(
    new URL(`./${c.name}.json`, import.meta.url),
    text,
  );
  console.log(`pinned ${c.name} (${text.length} bytes)`);
}

if (only.size === 0 || only.has("claims")) {
  const outDir = await Deno.makeTempDir({ prefix: "lossbook-golden-" });
  await reproduce({ outDir, log: () => {}, png: false, apiDocs: false });
  await Deno.copyFile(
    `${outDir}/claims.json`,
    new URL("./claims.json", import.meta.url),
  );
  await Deno.remove(outDir, { recursive: true });
  console.log("pinned claims");
}
