/**
 * The flat Decision layout's column names and the kind of value each holds,
 * derived from the Decision schema (lib/decision/schema.ts): what every
 * table reader checks a file or a table against.
 *
 * @module
 */

export {
  DECISION_COLUMNS,
  type DecisionColumn,
  decisionColumnKind,
  OPTIONAL_DECISION_COLUMNS,
} from "./schema.ts";
