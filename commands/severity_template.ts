// `lossbook severity-template`: the command over `severityTemplate`
// (api/severity_template.ts): the template written as CSV, to fill in and
// pass to --severity-map.
import { type Command, parseFlags, UsageError } from "./_command.ts";
import { commandHelp } from "./_help.ts";
import { checkOutPath, inputFiles } from "./_out_file.ts";
import {
  SEVERITY_TEMPLATE_OPTIONS,
  severityTemplateRun,
} from "../api/severity_template.ts";
import { severityTemplateCsv } from "../lib/import/severity_template.ts";

/** The `severity-template` command. */
export const severityTemplateCommand: Command = {
  summary:
    "A severity map of harness logs to fill in: header key,severity, then the metadata the items carry as columns, one row per task id (or per --severity-map-key value) with the severity empty",
  ...commandHelp({
    forms: [{
      command: "severity-template",
      args: "<log>...",
      options: SEVERITY_TEMPLATE_OPTIONS,
    }],
    notes: [
      "The logs are read as 'lossbook import' reads them, with the same flags (--scorer, --correct, ...), so the rows are the keys their decisions have and a map must cover; items set aside (no verdict) need no severity. Rows come in the order their key is first seen (the logs in the order given, each in log order), columns likewise. A cell holds the metadata value every item of its row shares (a text as it is, anything else as JSON text) and is empty where they lack it or differ. Fill in each severity (LOW, MEDIUM, HIGH or CRITICAL) and pass the file to --severity-map (with the same --severity-map-key); the columns after key,severity are ignored there, and a row left empty is refused naming its line. An --out name ending in .json is refused: a map so named is read as JSON.",
    ],
  }),
  example:
    "deno task lossbook severity-template data/examples/harness/inspect_qwen.eval --out /tmp/severity_map.csv --force",
  async run(args) {
    const { values, positionals } = parseFlags(
      "severity-template",
      args,
      SEVERITY_TEMPLATE_OPTIONS,
    );
    const out = values.out;
    if (out !== undefined) {
      // the map's reader takes a .json name for a JSON map
      if (/\.json$/i.test(out)) {
        throw new UsageError(
          `--out ${out}: a severity map named .json is read as JSON, and the template is CSV; name it .csv`,
        );
      }
      await checkOutPath(
        out,
        inputFiles(SEVERITY_TEMPLATE_OPTIONS, values, positionals, "log"),
        values.force === true,
      );
    }
    const document = await severityTemplateRun(positionals, values);
    const text = severityTemplateCsv(document);
    if (out !== undefined) {
      await Deno.writeTextFile(out, text);
      const said = `wrote ${document.rows.length} row${
        document.rows.length === 1 ? "" : "s"
      } (${document.columns.length - 2} metadata column${
        document.columns.length === 3 ? "" : "s"
      }) to ${out}; fill in each severity and pass it to --severity-map${
        document.key === null ? "" : ` with --severity-map-key ${document.key}`
      }`;
      if (values.json) console.error(said);
      else console.log(said);
    }
    if (values.json) console.log(JSON.stringify(document, null, 2));
    else if (out === undefined) console.log(text.slice(0, -1));
    return 0;
  },
};
