/**
 * The lossbook version, read from deno.json.
 *
 * @module
 */

import denoJson from "./deno.json" with { type: "json" };

/** The lossbook version, for example `"0.1.0"`. */
export const VERSION: string = denoJson.version;
