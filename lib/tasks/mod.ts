/**
 * Tasks: the seeded benchmark generator for three finance domains
 * (reconciliation, payment repair, settlement), the independent verifier
 * that admits every task, signatures and contamination checks, and the task
 * file loader.
 *
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkTask, contamination, generateSuite, suiteHash } from "./mod.ts";
 *
 * const evalSplit = generateSuite("reconciliation", { seed: 777, n: 30 });
 * const train = generateSuite("reconciliation", { seed: 7, n: 100 }).tasks;
 * assert.equal(evalSplit.stats.tasks, 30);
 * assert.ok(evalSplit.tasks.every((t) => checkTask(t).problems.length === 0));
 * assert.equal(contamination(train, evalSplit.tasks).exact.count, 0);
 * // same seed, same bytes
 * assert.equal(suiteHash(evalSplit.tasks), suiteHash(generateSuite("reconciliation", { seed: 777, n: 30 }).tasks));
 * ```
 *
 * @module
 */

export * from "./task.ts";
export * from "./rules.ts";
export * from "./reconciliation_rules.ts";
export * from "./payment_repair_rules.ts";
export * from "./settlement_rules.ts";
export * from "./task_rng.ts";
export * from "./canonical_json.ts";
export * from "./signature.ts";
export * from "./prompt.ts";
export * from "./generate.ts";
export * from "./generate_reconciliation.ts";
export * from "./generate_payment_repair.ts";
export * from "./generate_settlement.ts";
export * from "./verify.ts";
export * from "./verify_reconciliation.ts";
export * from "./verify_payment_repair.ts";
export * from "./verify_settlement.ts";
export * from "./near_miss.ts";
export * from "./contamination.ts";
export * from "./load_tasks.ts";
export * from "./write_tasks.ts";
export * from "./export_inspect.ts";
export * from "./simulate.ts";
