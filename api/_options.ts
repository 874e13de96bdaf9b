// Private: a library function's options are its command's flags. Each
// command describes its flags once, in an option table (name, type, whether
// it repeats, what it means); the library function takes the same flags as
// an object, named in camelCase (a repeatable flag in its plural), and turns
// them back into the values the flag parser would have given, so that both
// go through one check and fail with the same error.

import { UsageError } from "../commands/_errors.ts";
import type { OptionDoc, OptionTable } from "../commands/_help.ts";

/**
 * Flags that choose only where or how a command writes its output. They stay
 * in the command: a library function returns the document instead.
 */
export const OUTPUT_FLAGS = ["json", "out", "force"] as const;

/** A flag that only chooses where or how a command writes its output. */
export type OutputFlag = typeof OUTPUT_FLAGS[number];

/** `severity-map` → `severityMap`. */
export type CamelCase<S extends string> = S extends `${infer H}-${infer T}`
  ? `${H}${Capitalize<CamelCase<T>>}`
  : S;

/** The option a flag becomes: camelCase, and plural when it repeats. */
export type OptionName<K extends string, D> = D extends { multiple: true }
  ? `${CamelCase<K>}s`
  : CamelCase<K>;

/** The value an option takes: a switch is a boolean, a flag with a value takes a string or a number, a repeatable one a list of them. */
export type OptionValue<D> = D extends { type: "boolean" } ? boolean
  : D extends { multiple: true } ? readonly (string | number)[]
  : string | number;

/** The options object of a command's flag table, output flags left out. */
export type OptionsOf<T extends OptionTable> = {
  [
    K in keyof T & string as K extends OutputFlag ? never : OptionName<K, T[K]>
  ]?: OptionValue<T[K]>;
};

/** The values the flag parser gives for a command's flag table. */
export type FlagValuesOf<T extends OptionTable> = {
  [K in keyof T]?: T[K] extends { type: "boolean" } ? boolean
    : T[K] extends { multiple: true } ? string[]
    : string;
};

/**
 * The option name of a flag.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { optionName } from "./_options.ts";
 *
 * assert.equal(optionName("severity-map", { type: "string", doc: "" }), "severityMap");
 * assert.equal(optionName("profile", { type: "string", multiple: true, doc: "" }), "profiles");
 * ```
 */
export function optionName(flag: string, doc: OptionDoc): string {
  const camel = flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return doc.multiple ? `${camel}s` : camel;
}

/**
 * The options of a command's flag table, as option name → flag, output
 * flags left out.
 */
export function optionFlags(table: OptionTable): Map<string, string> {
  return new Map(
    Object.entries(table)
      .filter(([flag]) => !(OUTPUT_FLAGS as readonly string[]).includes(flag))
      .map(([flag, doc]) => [optionName(flag, doc), flag]),
  );
}

function flagValue(
  fn: string,
  option: string,
  flag: string,
  value: unknown,
): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  throw new UsageError(
    `${fn}: option ${option} (--${flag}) takes a string or a finite number, got ${
      describe(value)
    }`,
  );
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return JSON.stringify(value);
  return value === null ? "null" : typeof value;
}

/**
 * Turn a library function's options into the values the flag parser gives
 * for the same flags on the command line: a number becomes its decimal
 * string, a list stays a list, an option left `undefined` is absent. An
 * unknown option or a value of the wrong kind is a usage error naming the
 * option and its flag; everything else is checked afterwards, by the same
 * code and with the same errors as the command's flags.
 *
 * @param fn The function's name, for errors.
 * @param table The command's flag table.
 * @param options The options given.
 * @returns The flag values, keyed by flag name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { flagValues } from "./_options.ts";
 *
 * const table = {
 *   profile: { type: "string", multiple: true, doc: "" },
 *   ci: { type: "string", doc: "" },
 *   "severity-map": { type: "string", doc: "" },
 *   lenient: { type: "boolean", doc: "" },
 *   json: { type: "boolean", doc: "" },
 * } as const;
 * assert.deepEqual(
 *   flagValues("score", table, { profiles: ["flat"], ci: 0.9, severityMap: "m.csv", lenient: true }),
 *   { profile: ["flat"], ci: "0.9", "severity-map": "m.csv", lenient: true },
 * );
 * assert.throws(() => flagValues("score", table, { json: true }), /score: unknown option json/);
 * assert.throws(() => flagValues("score", table, { ci: true }), /option ci \(--ci\) takes a string or a finite number, got boolean/);
 * ```
 */
export function flagValues<T extends OptionTable>(
  fn: string,
  table: T,
  options: object,
): FlagValuesOf<T> {
  if (options === null || typeof options !== "object") {
    throw new UsageError(`${fn}: options must be an object`);
  }
  const flags = optionFlags(table);
  const out: Record<string, string | boolean | string[]> = {};
  for (
    const [option, value] of Object.entries(options as Record<string, unknown>)
  ) {
    const flag = flags.get(option);
    if (flag === undefined) {
      throw new UsageError(
        `${fn}: unknown option ${option}; its options are ${
          [...flags.keys()].join(", ")
        }`,
      );
    }
    if (value === undefined) continue;
    const doc = table[flag];
    if (doc.type === "boolean") {
      if (typeof value !== "boolean") {
        throw new UsageError(
          `${fn}: option ${option} (--${flag}) is a switch: true or false, got ${
            describe(value)
          }`,
        );
      }
      out[flag] = value;
    } else if (doc.multiple) {
      if (!Array.isArray(value)) {
        throw new UsageError(
          `${fn}: option ${option} (--${flag}, repeatable) takes a list, got ${
            describe(value)
          }`,
        );
      }
      out[flag] = value.map((v) => flagValue(fn, option, flag, v));
    } else {
      out[flag] = flagValue(fn, option, flag, value);
    }
  }
  return out as FlagValuesOf<T>;
}
