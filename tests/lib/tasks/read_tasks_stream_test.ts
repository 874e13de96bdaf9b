import assert from "node:assert/strict";
import { generateTask } from "../../../lib/tasks/generate.ts";
import {
  parseTasksJsonl,
  readTasksJsonl,
} from "../../../lib/tasks/load_tasks.ts";
import { taskLine } from "../../../lib/tasks/signature.ts";
import { tempFile } from "../../_helpers.ts";

Deno.test("readTasksJsonl() streams the file: same tasks as the text parser, and a repeated id refused naming both lines", async () => {
  const tasks = [0, 1, 2].map((i) => generateTask("reconciliation", 7, i));
  const text = tasks.map(taskLine).join("\n") + "\n";
  const path = await tempFile("t.jsonl", "");
  await Deno.writeTextFile(path, text);
  assert.deepEqual(await readTasksJsonl(path), parseTasksJsonl(text));
  await Deno.writeTextFile(path, `${text}\n${taskLine(tasks[1])}\n`);
  await assert.rejects(() => readTasksJsonl(path), {
    name: "RangeError",
    message: `Cannot load task file ${path}: line 5: duplicate task id ${
      JSON.stringify(tasks[1].id)
    } (first on line 2)`,
  });
});
