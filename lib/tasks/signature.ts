/**
 * Task signatures and suite hashes: SHA-256 over canonical JSON.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { signatureText } from "./_task_text.ts";
import { canonicalJson } from "./canonical_json.ts";
import type { Task } from "./task.ts";

/**
 * Give the SHA-256 of a text (UTF-8), as 64 lower-case hex digits.
 *
 * @param text Any text.
 * @returns The hex digest.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256Hex } from "./signature.ts";
 *
 * assert.equal(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
 * ```
 */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * Sign a task's content: SHA-256 of the canonical JSON of
 * `{ domain, gold, state }`.
 *
 * Left out: `id`, `index` and `seed` (where the task came from, not what it
 * asks), `difficulty` (a generator setting: the same state asked at another
 * difficulty is the same question), and `prompt` (rendered from the state and
 * the domain's rule table, so it adds no content). Two tasks with equal
 * signatures ask the same question with the same answer.
 *
 * @param task The task's domain, state and gold answer.
 * @returns The signature, 64 hex digits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateTask } from "./generate.ts";
 * import { taskSignature } from "./signature.ts";
 *
 * const t = generateTask("settlement", 7, 0);
 * assert.equal(taskSignature(t), t.signature);
 * const renamed = { ...t, id: "renamed", seed: 8 };
 * assert.equal(taskSignature(renamed), t.signature);
 * ```
 */
export function taskSignature(
  task: Pick<Task, "domain" | "state" | "gold">,
): string {
  return signatureText(
    task.domain,
    canonicalJson(task.gold),
    canonicalJson(task.state),
  );
}

/**
 * Write a task as one canonical JSONL line (without the newline).
 *
 * @param task A task.
 * @returns Its canonical JSON.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateTask } from "./generate.ts";
 * import { taskLine } from "./signature.ts";
 *
 * const line = taskLine(generateTask("reconciliation", 7, 0));
 * assert.ok(line.startsWith('{"difficulty":'));
 * ```
 */
export function taskLine(task: Task): string {
  if (Object.keys(task).length !== TASK_KEYS) return canonicalJson(task);
  // The nine fields in sorted order; equal to canonicalJson(task), faster.
  return `{"difficulty":${canonicalJson(task.difficulty)},"domain":${
    JSON.stringify(task.domain)
  },"gold":${canonicalJson(task.gold)},"id":${
    JSON.stringify(task.id)
  },"index":${canonicalJson(task.index)},"prompt":${
    JSON.stringify(task.prompt)
  },"seed":${canonicalJson(task.seed)},"signature":${
    JSON.stringify(task.signature)
  },"state":${canonicalJson(task.state)}}`;
}

const TASK_KEYS = 9;

/**
 * Hash a suite: SHA-256 of its canonical JSONL bytes, one task per line,
 * each line ending in `\n`. Equal to `sha256sum` of the file the CLI writes.
 *
 * @param tasks Tasks, in suite order.
 * @returns The suite hash, 64 hex digits.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { generateSuite } from "./generate.ts";
 * import { sha256Hex, suiteHash, taskLine } from "./signature.ts";
 *
 * const { tasks } = generateSuite("payment_repair", { seed: 1, n: 3 });
 * assert.equal(suiteHash(tasks), sha256Hex(tasks.map((t) => taskLine(t) + "\n").join("")));
 * ```
 */
export function suiteHash(tasks: Iterable<Task>): string {
  const h = createHash("sha256");
  for (const t of tasks) h.update(taskLine(t) + "\n", "utf8");
  return h.digest("hex");
}
