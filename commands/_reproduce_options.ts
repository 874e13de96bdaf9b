// Private to the CLI: the options of `reproduce`, in one table that
// reproduce.ts parses with and `--help` lists.
import { ANALYSES } from "../analyses/mod.ts";
import type { CommandHelp } from "./_help.ts";
import { JSON_OPTION } from "./_options.ts";

/** The options `reproduce` accepts. */
export const REPRODUCE_OPTIONS = {
  out: {
    type: "string",
    value: "DIR",
    doc:
      "folder to write tables, figures, claims.json, report.html and api/ into",
    byDefault: "out",
  },
  only: {
    type: "string",
    multiple: true,
    value: "ID",
    doc:
      "re-run only this analysis (ids below) and merge it with the other analyses' last results (kept in results/), so the folder stays whole",
    byDefault: "every analysis",
  },
  "no-png": {
    type: "boolean",
    doc: "write figures as Vega-Lite and SVG only, without PNG",
  },
  "no-api": {
    type: "boolean",
    doc: "skip the API reference (api/, from deno doc)",
  },
  force: {
    type: "boolean",
    doc: "write into an output folder that holds files reproduce did not write",
  },
  json: {
    ...JSON_OPTION,
    doc:
      "print a JSON summary (claims, holding, failed, files) on stdout after the run",
  },
} as const;

/** `reproduce`'s help: its one form and what it does. */
export const REPRODUCE_HELP: CommandHelp = {
  forms: [{ command: "reproduce", options: REPRODUCE_OPTIONS }],
  notes: [
    "Run every analysis and write tables, figures, claims.json, report.html and the API reference. Exits 1 when a claim does not hold. An output folder holding files reproduce did not write is refused unless --force.",
    `Analyses: ${ANALYSES.map((a) => a.id).join(", ")}`,
  ],
};

/** What `reproduce --help` prints, whether run as `lossbook reproduce` or `deno task reproduce`. */
export const REPRODUCE_COMMAND = {
  summary: "Regenerate every table, figure and claim into out/",
  example: "deno task lossbook reproduce --only divergence",
  help: REPRODUCE_HELP,
};
