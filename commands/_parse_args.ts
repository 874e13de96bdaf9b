// Private to the CLI: command-line flags parsed as Node's util.parseArgs
// parses them in strict mode with positionals allowed, the one way lossbook
// calls it. Written here because importing any `node:` module makes Deno
// set up its Node compatibility layer, a cost paid at every process start,
// and every command parses its flags first. A fast-check property
// holds it against `parseArgs` from node:util, results and error messages.

/** One option, as util.parseArgs takes it. */
export interface ArgOption {
  readonly type: "string" | "boolean";
  readonly short?: string;
  readonly multiple?: boolean;
}

/** What {@linkcode parseCommandArgs} returns, as util.parseArgs does. */
export interface ParsedArgs {
  /** Values by long option name (an object with no prototype). */
  readonly values: Record<string, string | boolean | (string | boolean)[]>;
  readonly positionals: string[];
}

// one option as the command line spelled it
interface OptionToken {
  readonly name: string;
  readonly rawName: string;
  readonly value: string | undefined;
  readonly inlineValue: boolean;
}

/**
 * Parse `args` against `options` as `util.parseArgs({ args, options,
 * strict: true, allowPositionals: true })` does: `--name value`,
 * `--name=value`, `-s value`, `-svalue`, groups of short booleans (`-ab`),
 * `--` before positionals only; an unknown option, a string option without
 * its value, a boolean option with one, or a value that looks like an
 * option (`--seed -1`; write `--seed=-1`) is an error with Node's message.
 *
 * @param args The arguments.
 * @param options The options, by long name.
 * @returns Values and positionals.
 * @throws {TypeError} On a usage error, with util.parseArgs's message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCommandArgs } from "./_parse_args.ts";
 *
 * const options = { seed: { type: "string" }, json: { type: "boolean", short: "j" } } as const;
 * const { values, positionals } = parseCommandArgs(["run.jsonl", "--seed=7", "-j"], options);
 * assert.deepEqual({ ...values }, { seed: "7", json: true });
 * assert.deepEqual(positionals, ["run.jsonl"]);
 * assert.throws(() => parseCommandArgs(["--bogus"], options), /Unknown option '--bogus'/);
 * ```
 */
export function parseCommandArgs(
  args: readonly string[],
  options: Readonly<Record<string, ArgOption>>,
): ParsedArgs {
  const values: Record<string, string | boolean | (string | boolean)[]> = Object
    .create(null);
  const positionals: string[] = [];
  const typeOf = (name: string) =>
    Object.hasOwn(options, name) ? options[name].type : undefined;
  const longOf = (short: string) =>
    Object.entries(options).find(([, o]) => o.short === short)?.[0] ?? short;
  const queue = [...args];
  while (queue.length > 0) {
    const arg = queue.shift()!;
    if (arg === "--") {
      positionals.push(...queue);
      break;
    }
    const next = queue[0];
    const shortForm = arg.length >= 2 && arg[0] === "-" && arg[1] !== "-";
    if (shortForm && arg.length === 2) {
      // -s, with its value next when s names a string option
      const name = longOf(arg[1]);
      const value = typeOf(name) === "string" && next !== undefined
        ? queue.shift()
        : undefined;
      take({ name, rawName: arg, value, inlineValue: false });
    } else if (shortForm && typeOf(longOf(arg[1])) !== "string") {
      // -abc: each short on its own, and a string option's value the rest
      const expanded: string[] = [];
      for (let i = 1; i < arg.length; i++) {
        if (typeOf(longOf(arg[i])) !== "string" || i === arg.length - 1) {
          expanded.push(`-${arg[i]}`);
        } else {
          expanded.push(`-${arg.slice(i)}`);
          break;
        }
      }
      queue.unshift(...expanded);
    } else if (shortForm) {
      // -sVALUE
      take({
        name: longOf(arg[1]),
        rawName: `-${arg[1]}`,
        value: arg.slice(2),
        inlineValue: true,
      });
    } else if (arg.length > 2 && arg.startsWith("--")) {
      const eq = arg.slice(3).includes("=") ? arg.indexOf("=") : -1;
      if (eq < 0) {
        // --name, with its value next for a string option
        const name = arg.slice(2);
        const value = typeOf(name) === "string" && next !== undefined
          ? queue.shift()
          : undefined;
        take({ name, rawName: arg, value, inlineValue: false });
      } else {
        // --name=value
        const name = arg.slice(2, eq);
        take({
          name,
          rawName: `--${name}`,
          value: arg.slice(eq + 1),
          inlineValue: true,
        });
      }
    } else {
      positionals.push(arg);
    }
  }
  return { values, positionals };

  function take(token: OptionToken): void {
    const { name, rawName, value } = token;
    if (!Object.hasOwn(options, name)) {
      throw new TypeError(
        `Unknown option '${rawName}'. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- ${
          JSON.stringify(rawName)
        }`,
      );
    }
    const option = options[name];
    const named = `${option.short ? `-${option.short}, ` : ""}--${name}`;
    if (option.type === "string" && typeof value !== "string") {
      throw new TypeError(`Option '${named} <value>' argument missing`);
    }
    if (option.type === "boolean" && value !== undefined) {
      throw new TypeError(`Option '${named}' does not take an argument`);
    }
    if (
      !token.inlineValue && value !== undefined && value.length > 1 &&
      value[0] === "-"
    ) {
      const example = rawName.startsWith("--")
        ? `'${rawName}=-XYZ'`
        : `'--${name}=-XYZ' or '${rawName}-XYZ'`;
      throw new TypeError(
        `Option '${rawName}' argument is ambiguous.\nDid you forget to specify the option argument for '${rawName}'?\nTo specify an option argument starting with a dash use ${example}.`,
      );
    }
    if (name === "__proto__") return;
    const v = value ?? true;
    if (option.multiple) {
      const list = values[name];
      if (Array.isArray(list)) list.push(v);
      else values[name] = [v];
    } else {
      values[name] = v;
    }
  }
}
