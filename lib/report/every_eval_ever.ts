/**
 * Every Eval Ever's aggregate record: the schema, vendored byte for byte
 * from its repository (docs/sources.md, `every-eval-ever`; MIT, its licence
 * beside it in `every_eval_ever/LICENSE`), and a check of a record against
 * it by a maintained validator (Ajv). Loaded only when records are written.
 *
 * @module
 */

import { Ajv } from "ajv";
import schema from "./every_eval_ever/eval.schema.json" with { type: "json" };

/** The schema version the vendored schema states, and every record names. */
export const EVERY_EVAL_EVER_SCHEMA_VERSION: string = schema.version;

/** The commit of evaleval/every_eval_ever the schema was taken from. */
export const EVERY_EVAL_EVER_COMMIT =
  "9bce4136e789ec006c62582f5f9d107d20f8b398";

/** Where the schema stands in that repository. */
export const EVERY_EVAL_EVER_SCHEMA_PATH =
  "every_eval_ever/schemas/eval.schema.json";

let compiled:
  | ((record: unknown) => boolean) & {
    errors?: { instancePath: string; message?: string }[] | null;
  }
  | null = null;

/**
 * The ways a record breaks the vendored schema, one line each; empty for a
 * valid record.
 *
 * @param record An aggregate record.
 * @returns The schema's complaints, each with the path of the value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { everyEvalEverErrors } from "./every_eval_ever.ts";
 *
 * assert.match(everyEvalEverErrors({})[0], /must have required property 'schema_version'/);
 * ```
 */
export function everyEvalEverErrors(record: unknown): string[] {
  if (compiled === null) {
    // Ajv's strict mode refuses schema styles this schema uses (a
    // `required` in `then` naming properties declared beside `if`, a
    // keyword `version`); they are sound JSON Schema, so it is off: it
    // checks how a schema is written, not how records are validated
    const ajv = new Ajv({ allErrors: true, strict: false });
    compiled = ajv.compile(schema);
  }
  if (compiled(record)) return [];
  return (compiled.errors ?? []).map((e) =>
    `${e.instancePath === "" ? "/" : e.instancePath} ${
      e.message ?? "is invalid"
    }`
  );
}
