// Private to the CLI: make user strings safe for a terminal. Control
// characters (an ANSI escape, a carriage return, a newline inside an id) and
// bidirectional overrides could forge or hide a result line; they are shown
// as escapes instead. Quoted values in error messages are capped, so a 50 MB
// key does not become a 50 MB message.

// C0 and C1 controls, DEL, and the bidirectional marks and overrides
// (built from a string: matching control characters is the point)
const CONTROLS = "\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f";
const BIDI = "\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069";
const UNSAFE = new RegExp(`[${CONTROLS}\\t\\n${BIDI}]`, "g");
const UNSAFE_KEEP_LINES = new RegExp(`[${CONTROLS}${BIDI}]`, "g");

function escapeChar(c: string): string {
  if (c === "\n") return "\\n";
  if (c === "\r") return "\\r";
  if (c === "\t") return "\\t";
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/**
 * `text` with control characters and bidirectional overrides escaped;
 * newlines too unless `keepNewlines`.
 */
export function terminalSafe(
  text: string,
  options: { keepNewlines?: boolean } = {},
): string {
  const keep = options.keepNewlines ?? false;
  // a leading carriage return redraws a progress line: that one is ours
  const lead = keep && text.startsWith("\r") ? "\r" : "";
  const body = lead === "" ? text : text.slice(1);
  return lead + body.replace(keep ? UNSAFE_KEEP_LINES : UNSAFE, escapeChar);
}

/** Longest quoted value shown in an error message. */
export const MAX_QUOTED = 200;
/** Longest error line shown. */
export const MAX_LINE = 2000;

/**
 * One line of an error message for the terminal: escaped, each quoted value
 * cut at {@linkcode MAX_QUOTED} characters (saying how long it was), and the
 * line at {@linkcode MAX_LINE}.
 */
export function terminalLine(message: string): string {
  const capped = message.replace(
    /"((?:[^"\\]|\\.)*)"/g,
    (whole, inner: string) =>
      inner.length <= MAX_QUOTED
        ? whole
        : `"${inner.slice(0, MAX_QUOTED)}..." (${inner.length} characters)`,
  );
  const safe = terminalSafe(capped);
  return safe.length <= MAX_LINE
    ? safe
    : `${safe.slice(0, MAX_LINE)}... (${
      safe.length - MAX_LINE
    } more characters)`;
}

// user strings (ids read from the input) that hold a line break: shown
// escaped wherever they appear in output, so they cannot start a line
const multiline = new Set<string>();

/** Note strings read from the user's input; those with line breaks are escaped in all output. */
export function noteUserStrings(strings: Iterable<string>): void {
  for (const s of strings) if (/[\r\n]/.test(s)) multiline.add(s);
}

function escapeNoted(text: string): string {
  for (const s of multiline) {
    if (text.includes(s)) text = text.split(s).join(terminalSafe(s));
  }
  return text;
}

/**
 * Route `console.log` and `console.error` through {@linkcode terminalSafe}
 * (newlines kept) while `run` runs, then restore them.
 */
export async function withSafeConsole<T>(run: () => Promise<T>): Promise<T> {
  const { log, error } = console;
  const wrap = (f: (...a: unknown[]) => void) => (...args: unknown[]) =>
    f(
      ...args.map((a) =>
        typeof a === "string"
          ? terminalSafe(escapeNoted(a), { keepNewlines: true })
          : a
      ),
    );
  console.log = wrap(log);
  console.error = wrap(error);
  try {
    return await run();
  } finally {
    console.log = log;
    console.error = error;
    multiline.clear();
  }
}
