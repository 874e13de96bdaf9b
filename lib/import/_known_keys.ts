// Private: closed schemas for the importers of formats whose keys are
// fixed (ReconForge, LossBench). A misspelt key (`prediction` for
// `predicted`) would otherwise be ignored and read as a missing field, so
// an unknown key is refused; in lenient mode it is skipped and reported.

import { InputTypeError } from "../input_error.ts";

/** How an importer treats keys its format does not define. */
export interface UnknownKeyOptions {
  /**
   * Skip unknown keys instead of refusing them; each is reported once, with
   * how often it occurred, through `onUnknownKeys`. Default: `false`.
   */
  lenient?: boolean;
  /** Receives the report of skipped keys in lenient mode, one line each. */
  onUnknownKeys?: (line: string) => void;
}

/** Collects the unknown keys of one file, refusing or counting them. */
export class KnownKeys {
  readonly #options: UnknownKeyOptions;
  readonly #counts = new Map<string, number>();
  readonly #file: string;

  /** @param file Start of messages, naming the file. @param options Lenient or not. */
  constructor(file: string, options: UnknownKeyOptions) {
    this.#file = file;
    this.#options = options;
  }

  /**
   * Check `value`'s keys against `known`. `field` names the object in
   * messages (`per_task[3].predicted`), `pattern` groups the lenient report
   * (`per_task[].predicted`).
   */
  check(
    value: unknown,
    known: ReadonlySet<string>,
    where: string,
    field: string,
    pattern: string = field,
  ): void {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      return;
    }
    for (const k in value as Record<string, unknown>) {
      if (known.has(k)) continue;
      if (!this.#options.lenient) {
        throw new InputTypeError(
          `${where}: ${field === "" ? "" : `${field}: `}unknown key ${
            JSON.stringify(k)
          } (known: ${
            [...known].join(", ")
          }); pass --lenient to list unknown keys and skip them`,
        );
      }
      const at = `${pattern === "" ? "" : `${pattern}.`}${JSON.stringify(k)}`;
      this.#counts.set(at, (this.#counts.get(at) ?? 0) + 1);
    }
  }

  /**
   * Lenient mode for a value checked by a closed zod schema: remove each key
   * the schema reports as unrecognised (counting it under `pattern`), until
   * none is left. Outside lenient mode the value is returned as it is.
   */
  strip(
    value: unknown,
    schema: {
      safeParse(v: unknown): {
        success: boolean;
        error?: {
          issues: readonly {
            code: string;
            path: readonly PropertyKey[];
            keys?: readonly string[];
          }[];
        };
      };
    },
    pattern: string,
  ): unknown {
    if (!this.#options.lenient) return value;
    if (value === null || typeof value !== "object") return value;
    const copy = structuredClone(value) as Record<PropertyKey, unknown>;
    for (let round = 0; round < 1000; round++) {
      const r = schema.safeParse(copy);
      if (r.success) break;
      const issue = r.error?.issues.find((i) => i.code === "unrecognized_keys");
      if (issue === undefined) break;
      let o = copy;
      for (const k of issue.path) o = o[k] as Record<PropertyKey, unknown>;
      for (const k of issue.keys ?? []) {
        delete o[k];
        const field = [
          ...(pattern === "" ? [] : [pattern]),
          ...issue.path.map((p) => typeof p === "number" ? "[]" : String(p)),
        ].join(".").replaceAll(".[]", "[]");
        const at = `${field === "" ? "" : `${field}.`}${JSON.stringify(k)}`;
        this.#counts.set(at, (this.#counts.get(at) ?? 0) + 1);
      }
    }
    return copy;
  }

  /** Report the keys skipped in lenient mode. */
  finish(): void {
    for (const [at, n] of this.#counts) {
      this.#options.onUnknownKeys?.(
        `${this.#file}: skipped unknown key ${at} (${n} time${
          n === 1 ? "" : "s"
        })`,
      );
    }
  }
}
