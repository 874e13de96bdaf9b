/**
 * The project stands alone: no tracked file points a reader at documents
 * the reader does not have (an internal design text, the numbered source
 * documents it was seeded from, or this project's own issue numbers).
 * Sources are cited by the keys of `docs/sources.md`.
 */
import assert from "node:assert/strict";

/** Patterns that cite something outside the repository, with what each means. */
const OUTSIDE: readonly (readonly [RegExp, string])[] = [
  [/\bDESIGN(?:\.md| ?§)/, "the internal design text"],
  [/\bseed (?:document|doc)s?\b|\bseed 00\d\b/i, "a numbered seed document"],
  [/\bissues? #?\d+\b|(?:^|\s)#\d{1,3}\b(?! ?[a-f0-9]{3})/i, "an issue number"],
];

async function trackedFiles(): Promise<string[]> {
  const out = await new Deno.Command("git", {
    args: ["ls-files", "-z"],
    stdout: "piped",
  }).output();
  assert.equal(out.code, 0, "git ls-files failed");
  return new TextDecoder().decode(out.stdout).split("\0").filter((p) =>
    p !== "" && p !== "deno.lock" && p !== "tests/citations_test.ts"
  );
}

Deno.test("no tracked text file cites the design text, a seed document or an issue number", async () => {
  const found: string[] = [];
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for (const path of await trackedFiles()) {
    const bytes = await Deno.readFile(path);
    if (bytes.includes(0)) continue; // binary (zip, parquet, png)
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      continue; // not UTF-8 text
    }
    text.split("\n").forEach((line, i) => {
      for (const [pattern, what] of OUTSIDE) {
        const m = line.match(pattern);
        if (m) found.push(`${path}:${i + 1}: ${what}: "${m[0].trim()}"`);
      }
    });
  }
  assert.deepEqual(found, [], found.slice(0, 30).join("\n"));
});
