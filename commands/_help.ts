// Private, shared by the library functions (api/) and the commands: the one help formatter. Each command describes its
// options once, in an option table; `parseFlags` parses with that table and
// `--help` prints it, so the flags a command accepts and the flags its help
// lists are the same object and cannot drift apart.

/** One option of a command: how it parses and what it means. */
export interface OptionDoc {
  /** `string` takes a value, `boolean` is a switch. */
  readonly type: "string" | "boolean";
  /** Whether the option may be given several times. */
  readonly multiple?: boolean;
  /** A one-letter alias. */
  readonly short?: string;
  /** The value's placeholder in the usage line (`FILE`, `N`, `a|b`); string options only. */
  readonly value?: string;
  /** One line of meaning. */
  readonly doc: string;
  /** What happens when the option is absent, in words; omitted for switches that default to off. */
  readonly byDefault?: string;
  /** Whether the command refuses to run without it. */
  readonly required?: boolean;
}

/** A command's options, by long name (without the leading `--`). */
export type OptionTable = Readonly<Record<string, OptionDoc>>;

/** One way of calling a command: its name, its positional arguments, its options. */
export interface HelpForm {
  /** The command as typed: `score`, `ledger append`. */
  readonly command: string;
  /** Positional arguments as a synopsis: `<file>...`, `<ledger.jsonl>`. */
  readonly args?: string;
  /** The options this form parses. */
  readonly options: OptionTable;
}

/** What `--help` shows beyond the summary: the forms, and paragraphs of notes. */
export interface CommandHelp {
  /** Each way of calling the command. */
  readonly forms: readonly HelpForm[];
  /** Paragraphs printed after the options (method notes, what a mode does). */
  readonly notes?: readonly string[];
}

const WIDTH = 80;

/** `--help`, listed in every command's options. */
export const HELP_OPTION: OptionDoc = {
  type: "boolean",
  short: "h",
  doc: "print this help and exit",
};

/**
 * The `parseArgs` options of a table: type, multiple and short only, plus
 * `--help`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSpec } from "./_help.ts";
 *
 * assert.deepEqual(parseSpec({ n: { type: "string", value: "N", doc: "how many" } }), {
 *   n: { type: "string" },
 *   help: { type: "boolean", short: "h" },
 * });
 * ```
 */
export function parseSpec(
  table: OptionTable,
): Record<
  string,
  { type: "string" | "boolean"; multiple?: boolean; short?: string }
> {
  const spec: Record<
    string,
    { type: "string" | "boolean"; multiple?: boolean; short?: string }
  > = {};
  for (const [name, o] of Object.entries({ ...table, help: HELP_OPTION })) {
    spec[name] = {
      type: o.type,
      ...(o.multiple ? { multiple: true } : {}),
      ...(o.short ? { short: o.short } : {}),
    };
  }
  return spec;
}

/** An option as it is typed: `--profile ID|FILE`. */
function optionText(name: string, o: OptionDoc): string {
  const flag = `--${name}`;
  return o.type === "string" ? `${flag} ${o.value ?? "VALUE"}` : flag;
}

/** Words wrapped to the width, each line after the first indented by `indent`. */
function wrap(text: string, indent: number, first = 0): string {
  return wrapParts(text.split(/\s+/).filter((w) => w !== ""), indent, first);
}

/** Unbreakable parts joined by spaces and wrapped, lines after the first indented. */
function wrapParts(
  parts: readonly string[],
  indent: number,
  first = 0,
): string {
  const lines: string[] = [];
  let line = "";
  let room = WIDTH - first;
  for (const part of parts) {
    if (line !== "" && line.length + 1 + part.length > room) {
      lines.push(line);
      line = part;
      room = WIDTH - indent;
    } else {
      line = line === "" ? part : `${line} ${part}`;
    }
  }
  lines.push(line);
  return lines.join(`\n${" ".repeat(indent)}`);
}

/**
 * The usage synopsis of one form, generated from its table: required
 * options bare, the others in brackets, repeatable ones followed by `...`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { usageOf } from "./_help.ts";
 *
 * assert.equal(usageOf({ command: "plan", args: "<file>", options: {
 *   a: { type: "string", value: "MODEL", doc: "model A", required: true },
 *   profile: { type: "string", value: "ID", doc: "a profile", multiple: true },
 * } }), "lossbook plan <file> --a MODEL [--profile ID]...");
 * ```
 */
export function usageOf(form: HelpForm): string {
  return usageParts(form).join(" ");
}

/** The usage synopsis as parts that a line break never splits. */
function usageParts(form: HelpForm): string[] {
  const parts = [`lossbook ${form.command}`];
  if (form.args) parts.push(form.args);
  const entries = Object.entries(form.options);
  for (const [name, o] of entries.filter(([, o]) => o.required)) {
    parts.push(optionText(name, o) + (o.multiple ? "..." : ""));
  }
  for (const [name, o] of entries.filter(([, o]) => !o.required)) {
    parts.push(`[${optionText(name, o)}]${o.multiple ? "..." : ""}`);
  }
  return parts;
}

/**
 * A command's `usage` and `help` fields, from its forms: spread into the
 * command, so the usage line is generated from the same tables `--help`
 * lists and `parseFlags` parses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandHelp } from "./_help.ts";
 *
 * const options = { json: { type: "boolean", doc: "print JSON" } } as const;
 * const { usage } = commandHelp({ forms: [{ command: "verify", args: "<tasks.jsonl>", options }] });
 * assert.equal(usage, "lossbook verify <tasks.jsonl> [--json]");
 * ```
 */
export function commandHelp(
  help: CommandHelp,
): { usage: string; help: CommandHelp } {
  return { usage: help.forms.map(usageOf).join("\n       "), help };
}

/** Every form's usage, one per line, wrapped: `Usage: ` then the forms. */
export function usageLines(help: CommandHelp): string {
  return help.forms.map((f, i) =>
    (i === 0 ? "Usage: " : "       ") + wrapParts(usageParts(f), 9, 7)
  ).join("\n");
}

/** The option list of one form: flag, then its meaning and default. */
function optionList(options: OptionTable): string {
  const rows = Object.entries({ ...options, help: HELP_OPTION }).map((
    [name, o],
  ) => {
    const flag = (o.short ? `-${o.short}, ` : "") + optionText(name, o);
    const meaning = [
      o.doc,
      o.required ? "required" : undefined,
      o.multiple ? "repeatable" : undefined,
      o.byDefault === undefined ? undefined : `default: ${o.byDefault}`,
    ].filter((x) => x !== undefined).join("; ");
    return { flag, meaning };
  });
  return rows.map(({ flag, meaning }) =>
    `  ${flag}\n      ${wrap(meaning, 6, 6)}`
  ).join("\n");
}

/**
 * The whole `--help` text of a command, in the one style every command
 * shares: summary, usage, options with meaning and default, notes, example,
 * exit codes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatHelp } from "./_help.ts";
 *
 * const text = formatHelp({
 *   summary: "List the shipped cost profiles",
 *   example: "deno task lossbook profiles --json",
 *   help: { forms: [{ command: "profiles", options: {
 *     json: { type: "boolean", doc: "print one JSON document" },
 *   } }] },
 * });
 * assert.match(text, /^Usage: lossbook profiles \[--json\]$/m);
 * assert.match(text, /^ {2}--json\n {6}print one JSON document$/m);
 * assert.match(text, /^ {2}-h, --help\n {6}print this help and exit$/m);
 * ```
 */
export function formatHelp(
  command: { summary: string; example: string; help: CommandHelp },
): string {
  const parts = [wrap(command.summary, 0), usageLines(command.help)];
  const forms = command.help.forms;
  for (const [i, form] of forms.entries()) {
    // forms that share one table (the same command read two ways) list it once
    if (forms.slice(0, i).some((f) => f.options === form.options)) continue;
    const title = forms.length === 1
      ? "Options:"
      : `Options of lossbook ${form.command}:`;
    parts.push(`${title}\n${optionList(form.options)}`);
  }
  for (const note of command.help.notes ?? []) parts.push(wrap(note, 0));
  parts.push(`Example:\n  ${command.example}`);
  parts.push(
    "Exit codes: 0 success, 1 a check failed, 2 bad input or usage, 70 a bug in lossbook, 74 an error of the device or file system.",
  );
  return parts.join("\n\n");
}
