// `lossbook profiles`: list the shipped cost profiles.
import { SHIPPED_PROFILES } from "../lib/costs/load.ts";
import { profileSpan } from "../lib/costs/profile.ts";
import { SEVERITIES } from "../lib/costs/severity.ts";
import {
  alignRows,
  type Command,
  formatNumber,
  parseFlags,
} from "./_command.ts";

/** The `profiles` command. */
export const profilesCommand: Command = {
  summary: "List the shipped cost profiles",
  usage: "lossbook profiles [--json]",
  example: "deno task lossbook profiles --json",
  run(args) {
    const { values } = parseFlags("profiles", args, {
      json: { type: "boolean" },
    });
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
