// Private to the CLI: `lossbook reproduce`, the command form of reproduce.ts.
import type { Command } from "./_command.ts";
import { commandHelp } from "./_help.ts";
import { REPRODUCE_COMMAND } from "./_reproduce_options.ts";
import { reproduceMain } from "../reproduce.ts";

/** `lossbook reproduce`: what `deno task reproduce` does, with the same help. */
export const reproduceCommand: Command = {
  ...REPRODUCE_COMMAND,
  ...commandHelp(REPRODUCE_COMMAND.help),
  run: (args) => reproduceMain(args),
};
