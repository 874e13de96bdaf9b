// Run `deno publish --dry-run` and hold it to the package's rule: it exits
// 0, reports no error (no invalid path, no slow type, no excluded module of
// the graph) and no warning but one, the unanalyzable dynamic import of
// lib/_late_import.ts, which loads modules late on purpose (every module it
// loads is in the graph of an entry point through late_modules.ts, as
// tests/package_files_test.ts checks). Prints the dry run's output, then one
// line saying what was found; exits 1 when the rule does not hold.
//
//   deno run -A scripts/check_publish.ts
//
// The dry run is given --allow-dirty so that it checks a working tree with
// uncommitted changes too (on a clean clone, as in CI, it changes nothing).

/** One problem `deno publish` reports: `error[kind]` or `warning[kind]`, and the file it names. */
export interface PublishProblem {
  readonly level: "error" | "warning";
  /** The kind in brackets, such as `invalid-path`; `""` for a bare `error:` line. */
  readonly kind: string;
  /** The problem's first line, without the level and kind. */
  readonly message: string;
  /** The file the problem names, relative to the package root; `null` when none. */
  readonly file: string | null;
}

/** What one dry run printed and meant. */
export interface PublishDryRun {
  /** Exit code of `deno publish --dry-run`. */
  readonly code: number;
  /** Everything it printed (standard output and error, in that order). */
  readonly output: string;
  /** The files it would publish, relative to the package root, sorted. */
  readonly files: readonly string[];
  /** Its errors and warnings, in order. */
  readonly problems: readonly PublishProblem[];
}

/** The one warning the package keeps: lossbook's late imports cannot be analyzed, by design. */
export const EXPECTED_WARNING = {
  kind: "unanalyzable-dynamic-import",
  file: "lib/_late_import.ts",
} as const;

/**
 * Read what `deno publish --dry-run` printed: its problems and the file
 * list after "Simulating publish of … with files:".
 */
export function parseDryRun(
  output: string,
  root: URL,
): Pick<PublishDryRun, "files" | "problems"> {
  const relative = (path: string) => {
    const href = path.startsWith("file://") ? path : `file://${path}`;
    return href.startsWith(root.href) ? href.slice(root.href.length) : path;
  };
  const problems: PublishProblem[] = [];
  const files: string[] = [];
  let listing = false;
  let last:
    | { level: "error" | "warning"; kind: string; message: string }
    | null = null;
  const flush = (file: string | null) => {
    if (last !== null) problems.push({ ...last, file });
    last = null;
  };
  for (const line of output.split("\n")) {
    const head = /^(error|warning)(?:\[([a-z0-9-]+)\])?: (.*)$/.exec(line);
    if (head !== null) {
      flush(null);
      // "error: Found N problems" sums up the problems already read
      if (head[2] === undefined && /^Found \d+ problems?$/.test(head[3])) {
        continue;
      }
      last = {
        level: head[1] as "error" | "warning",
        kind: head[2] ?? "",
        message: head[3],
      };
      listing = false;
      continue;
    }
    const at = /^\s*--> (.+?)(?::\d+:\d+)?$/.exec(line);
    if (at !== null && last !== null) {
      flush(relative(at[1]));
      continue;
    }
    if (/^Simulating publish of .* with files:$/.test(line)) {
      flush(null);
      listing = true;
      continue;
    }
    const file = /^\s+(file:\/\/\S+) \([^)]*\)$/.exec(line);
    if (listing && file !== null) files.push(relative(file[1]));
  }
  flush(null);
  return { files: files.sort(), problems };
}

/** Run `deno publish --dry-run` in the package at `root` and read what it printed. */
export async function publishDryRun(
  root: URL = new URL("../", import.meta.url),
): Promise<PublishDryRun> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["publish", "--dry-run", "--allow-dirty"],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  const output = text.decode(out.stdout) + text.decode(out.stderr);
  return { code: out.code, output, ...parseDryRun(output, root) };
}

/** The problems a dry run may not have: every error, and every warning but the expected one. */
export function unexpectedProblems(
  problems: readonly PublishProblem[],
): PublishProblem[] {
  return problems.filter((p) =>
    p.level === "error" || p.kind !== EXPECTED_WARNING.kind ||
    p.file !== EXPECTED_WARNING.file
  );
}

if (import.meta.main) {
  const run = await publishDryRun();
  console.log(run.output.trimEnd());
  const bad = unexpectedProblems(run.problems);
  for (const p of bad) {
    console.error(
      `unexpected ${p.level}[${p.kind}]: ${p.message}${
        p.file === null ? "" : ` (${p.file})`
      }`,
    );
  }
  if (run.code !== 0 || bad.length > 0 || run.files.length === 0) {
    console.error(
      `deno publish --dry-run: exit ${run.code}, ${bad.length} unexpected problem(s), ${run.files.length} files`,
    );
    Deno.exit(1);
  }
  console.log(
    `deno publish --dry-run: ${run.files.length} files, no error, no warning but ${EXPECTED_WARNING.kind} in ${EXPECTED_WARNING.file}`,
  );
}
