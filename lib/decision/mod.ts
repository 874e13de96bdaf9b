/**
 * The Decision record, one model answer on one task, and what derives from
 * it: the flat column layout, the sufficient statistics of a decision table
 * and the pairing of two models on shared tasks.
 *
 * @module
 */

export * from "./decision.ts";
export * from "./decision_stats.ts";
export * from "./paired_stats.ts";
export * from "./paired_tasks.ts";
export {
  DECISION_COLUMNS,
  type DecisionColumn,
  decisionColumnKind,
  OPTIONAL_DECISION_COLUMNS,
} from "./schema.ts";
export * from "./pcorrect_source.ts";
