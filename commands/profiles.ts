// `lossbook profiles`: list the shipped cost profiles.
import { SHIPPED_PROFILES } from "../lib/costs/shipped.ts";
import { profileSpan } from "../lib/costs/profile.ts";
import { SEVERITIES } from "../lib/costs/severity.ts";
import {
  alignRows,
  type Command,
  formatNumber,
  parseFlags,
} from "./_command.ts";
import { commandHelp } from "./_help.ts";
import { JSON_OPTION } from "./_options.ts";

/** The options of `profiles`, as `--help` lists them and `parseFlags` reads them. */
const PROFILES_OPTIONS = { json: JSON_OPTION } as const;

/** The `profiles` command. */
export const profilesCommand: Command = {
  summary: "List the shipped cost profiles",
  ...commandHelp({
    forms: [{ command: "profiles", options: PROFILES_OPTIONS }],
  }),
  example: "deno task lossbook profiles --json",
  run(args) {
    const { values } = parseFlags("profiles", args, PROFILES_OPTIONS);
    if (values.json) {
      console.log(JSON.stringify({ profiles: SHIPPED_PROFILES }, null, 2));
      return Promise.resolve(0);
    }
    const rows = [[
      "id",
      "LOW",
      "MEDIUM",
      "HIGH",
      "CRITICAL",
      "span",
      "review",
      "judge",
      "unit",
    ]];
    for (const p of SHIPPED_PROFILES) {
      const span = profileSpan(p);
      rows.push([
        p.id,
        ...SEVERITIES.map((s) => formatNumber(p.K[s])),
        span === null ? "n/a" : `${formatNumber(span)}x`,
        formatNumber(p.reviewCost),
        formatNumber(p.judgeCost),
        p.unit ?? "",
      ]);
    }
    console.log(alignRows(rows));
    return Promise.resolve(0);
  },
};
