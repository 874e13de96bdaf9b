// Private to the CLI: every command, loaded eagerly, for the command list of
// `--help` and for callers that want them all. Running one command does not
// load this module: cli.ts imports only the module of the command it runs.
import type { Command } from "./_command.ts";
import { boardCommand } from "./board.ts";
import { breakevenCommand } from "./breakeven.ts";
import { calibrateCommand } from "./calibrate.ts";
import { cardCommand } from "./card.ts";
import { escalateCommand } from "./escalate.ts";
import { contaminationCommand } from "./contamination.ts";
import { driftCommand } from "./drift.ts";
import { generateCommand } from "./generate.ts";
import { exportTasksCommand } from "./export_tasks.ts";
import { exportSqlCommand } from "./export_sql.ts";
import { engineCommand } from "./engine.ts";
import { importCommand } from "./import.ts";
import { ledgerCommand } from "./ledger.ts";
import { compareCommand } from "./compare.ts";
import { planCommand } from "./plan.ts";
import { profilesCommand } from "./profiles.ts";
import { replayCommand } from "./replay.ts";
import { scoreCommand } from "./score.ts";
import { severityTemplateCommand } from "./severity_template.ts";
import { simulateCommand } from "./simulate.ts";
import { sweepCommand } from "./sweep.ts";
import { verifyCommand } from "./verify.ts";
import { reproduceCommand } from "./_reproduce_command.ts";

/** Every command, by name, in the order `--help` lists them. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  profiles: profilesCommand,
  score: scoreCommand,
  compare: compareCommand,
  plan: planCommand,
  sweep: sweepCommand,
  board: boardCommand,
  simulate: simulateCommand,
  generate: generateCommand,
  verify: verifyCommand,
  contamination: contaminationCommand,
  ledger: ledgerCommand,
  replay: replayCommand,
  drift: driftCommand,
  calibrate: calibrateCommand,
  escalate: escalateCommand,
  card: cardCommand,
  breakeven: breakevenCommand,
  import: importCommand,
  "severity-template": severityTemplateCommand,
  "export-tasks": exportTasksCommand,
  "export-sql": exportSqlCommand,
  engine: engineCommand,
  reproduce: reproduceCommand,
};
