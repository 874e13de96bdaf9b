// `lossbook engine install chdb`: download an optional engine into the cache
// folder, checked against the integrity pinned in lossbook's source.
import {
  CHDB_PACKAGE,
  installChdb,
  lossbookCacheDir,
} from "../lib/sql/chdb_install.ts";
import { type Command, parseFlags, UsageError } from "./_command.ts";
import { commandHelp } from "./_help.ts";
import { JSON_OPTION } from "./_options.ts";

/** The options of `engine install`, as `--help` lists them and `parseFlags` reads them. */
const INSTALL_OPTIONS = { json: JSON_OPTION } as const;

/** The engines `engine install` installs. */
const ENGINES = ["chdb"] as const;

/** The `engine` command. */
export const engineCommand: Command = {
  summary:
    "Install an optional engine: chdb, ClickHouse's embedded engine, for --engine chdb",
  ...commandHelp({
    forms: [{
      command: "engine install",
      args: "chdb",
      options: INSTALL_OPTIONS,
    }],
    notes: [
      `install chdb downloads ${CHDB_PACKAGE.name}@${CHDB_PACKAGE.version} (about 180 MB, libchdb.so 566 MB unpacked) from the npm registry into $XDG_CACHE_HOME/lossbook or ~/.cache/lossbook, refuses it unless its SHA-512 is the one pinned in lossbook's source, and keeps libchdb.so; nothing else downloads it. Running it again when installed does nothing.`,
    ],
  }),
  example: "deno task lossbook engine install chdb",
  async run(args) {
    const [sub, ...rest] = args;
    if (sub !== "install") {
      throw new UsageError(
        `engine needs a subcommand: install${
          sub === undefined ? "" : `, got ${JSON.stringify(sub)}`
        }`,
      );
    }
    const { values, positionals } = parseFlags(
      "engine install",
      rest,
      INSTALL_OPTIONS,
    );
    if (positionals.length !== 1 || positionals[0] !== "chdb") {
      throw new UsageError(
        `engine install takes one engine: ${ENGINES.join(", ")}, got ${
          positionals.length === 0 ? "nothing" : positionals.join(" ")
        }`,
      );
    }
    console.error(
      `installing chdb (${CHDB_PACKAGE.name}@${CHDB_PACKAGE.version}) into ${lossbookCacheDir()}`,
    );
    const { path, downloaded } = await installChdb();
    if (values.json) {
      console.log(JSON.stringify(
        {
          engine: "chdb",
          package: `${CHDB_PACKAGE.name}@${CHDB_PACKAGE.version}`,
          integrity: CHDB_PACKAGE.integrity,
          path,
          downloaded,
        },
        null,
        2,
      ));
    } else {
      console.log(
        downloaded
          ? `chdb installed: ${path}`
          : `chdb is installed already: ${path}`,
      );
    }
    return 0;
  },
};
