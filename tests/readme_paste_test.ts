// A README that pastes: every line of every `sh` block of README.md runs as
// pasted, in order, in a fresh copy of the tracked files, and exits 0
// (`deno install -g` puts the command inside the copy). Lines that install
// system software, run the test suite or CI gate, need Jupyter, a
// browser, a PostgreSQL server or minutes of benchmarking are skipped, each
// for a stated reason; `reproduce` is skipped because tests/reproduce_test.ts
// runs the whole of it (set LOSSBOOK_README_REPRODUCE=1 to paste it too).
import assert from "node:assert/strict";
import { tempDir } from "./_helpers.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** One command as pasted: its first README line number and its text, continuation lines joined. */
interface PastedLine {
  readonly line: number;
  readonly text: string;
}

/** The commands of the `sh` blocks of a Markdown text, in order; `\` continuations joined. */
function shLines(markdown: string): PastedLine[] {
  const out: PastedLine[] = [];
  const lines = markdown.split("\n");
  let inSh = false;
  let pending: PastedLine | null = null;
  for (const [i, raw] of lines.entries()) {
    if (/^```/.test(raw)) {
      inSh = !inSh && raw.trim() === "```sh";
      continue;
    }
    if (!inSh) continue;
    const text: string = pending === null ? raw : `${pending.text}\n${raw}`;
    const line: number = pending === null ? i + 1 : pending.line;
    if (/\\$/.test(raw)) {
      pending = { line, text };
      continue;
    }
    pending = null;
    if (text.trim() === "" || /^\s*#/.test(text)) continue;
    out.push({ line, text });
  }
  return out;
}

/** Why a README line is not run here, or `null` when it runs. */
function skipReason(text: string): string | null {
  const rules: [RegExp, string][] = [
    [/\b(apt-get|npm install)\b/, "installs software"],
    [/\.ci\/run\b/, "the CI gate"],
    [/task (test|ok)\b(?!:)/, "the test suite"],
    [/task test:browser\b/, "the browser test"],
    [/\bjupyter\b|task notebooks\b/, "needs Jupyter"],
    [/task bench\b|bench\/run\.ts|scripts\/bench_/, "a benchmark"],
    [/--engine postgres|\bpsql\b|pg_throwaway/, "needs a PostgreSQL server"],
  ];
  for (const [pattern, reason] of rules) {
    if (pattern.test(text)) return reason;
  }
  if (
    /task reproduce\b/.test(text) &&
    Deno.env.get("LOSSBOOK_README_REPRODUCE") !== "1"
  ) {
    return "reproduce, which tests/reproduce_test.ts runs in full";
  }
  return null;
}

/** Copy the tracked files of the repository (as they are in the work tree) into `dir`. */
async function copyTracked(dir: string): Promise<number> {
  const ls = await new Deno.Command("git", {
    args: ["ls-files", "-z"],
    cwd: ROOT,
    stdout: "piped",
  }).output();
  assert.equal(ls.code, 0, "git ls-files failed");
  const files = new TextDecoder().decode(ls.stdout).split("\0").filter((f) =>
    f !== ""
  );
  let copied = 0;
  for (const f of files) {
    const from = `${ROOT}${f}`;
    let info: Deno.FileInfo;
    try {
      info = await Deno.lstat(from);
    } catch (error) {
      // a tracked file deleted in the work tree is not in a fresh clone either
      if (error instanceof Deno.errors.NotFound) continue;
      throw error;
    }
    const to = `${dir}/${f}`;
    await Deno.mkdir(to.slice(0, to.lastIndexOf("/")), { recursive: true });
    if (info.isSymlink) {
      await Deno.symlink(await Deno.readLink(from), to);
    } else {
      await Deno.copyFile(from, to);
    }
    copied++;
  }
  return copied;
}

Deno.test("shLines() joins continuation lines, keeps only sh blocks and skips comments", () => {
  const md = [
    "```sh",
    "a \\",
    "  b",
    "# note",
    "c   # trailing comment",
    "```",
    "```text",
    "not a command [--json]",
    "```",
    "```sh",
    "d",
    "```",
  ].join("\n");
  assert.deepEqual(shLines(md), [
    { line: 2, text: "a \\\n  b" },
    { line: 5, text: "c   # trailing comment" },
    { line: 11, text: "d" },
  ]);
});

Deno.test("every README sh line runs as pasted, in order, in a fresh copy of the tracked files", async () => {
  const readme = await Deno.readTextFile(`${ROOT}README.md`);
  const lines = shLines(readme);
  assert.ok(lines.length >= 20, `${lines.length} sh lines`);
  const dir = await tempDir("lossbook-readme-");
  const copied = await copyTracked(dir);
  assert.ok(copied > 100, `${copied} files copied`);
  const ran: string[] = [];
  const skipped: string[] = [];
  for (const { line, text } of lines) {
    const reason = skipReason(text);
    if (reason !== null) {
      skipped.push(`README.md:${line}: ${reason}`);
      continue;
    }
    const started = performance.now();
    const r = await new Deno.Command("bash", {
      args: ["-eo", "pipefail", "-c", text],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
      // `deno install -g` runs too, into the copy rather than ~/.deno
      env: { NO_COLOR: "1", DENO_INSTALL_ROOT: `${dir}/.deno-install` },
    }).output();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const err = new TextDecoder().decode(r.stderr).trim().split("\n").slice(-5)
      .join("\n");
    assert.equal(
      r.code,
      0,
      `README.md:${line} exited ${r.code} when pasted:\n${text}\n${err}`,
    );
    ran.push(`README.md:${line} (${seconds} s)`);
  }
  console.log(
    `ran ${ran.length} README lines: ${
      ran.join(", ")
    }\nskipped ${skipped.length}:\n${skipped.join("\n")}`,
  );
  assert.ok(ran.length >= 20, `only ${ran.length} lines ran`);
});
