import assert from "node:assert/strict";
import fc from "fast-check";
import { decisionStats } from "../../../lib/decision/decision_stats.ts";
import * as aq from "arquero";
import {
  bool,
  dictionary,
  float64,
  int64,
  tableFromIPC,
  utf8,
} from "@uwdata/flechette";
import {
  arrowDecisionStats,
  decisionsToArrow,
  loadDecisionsArrow,
  parseDecisionsArrow,
  writeDecisionsArrow,
} from "../../../lib/read/arrow.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
import {
  DECISION_COLUMNS,
  decisionTable,
  loadDecisionsJsonl,
} from "../../../lib/read/load_decisions.ts";
import {
  DECISION_FIELDS,
  type DecisionField,
  kindOfRule,
} from "../../../lib/decision/schema.ts";
import {
  decision,
  mixedDecisions as mixed,
  tempDir,
  tempFile,
} from "../../_helpers.ts";

/** Flat rows of decisions, as objects, for building malformed tables. */
function flatRows(ds: Decision[]): Record<string, unknown>[] {
  return decisionTable(ds).objects() as Record<string, unknown>[];
}

/** Arrow IPC bytes of flat rows, with Arquero's type inference. */
function ipc(
  rows: Record<string, unknown>[],
  types: Record<string, unknown> = {},
): Uint8Array {
  // deno-lint-ignore no-explicit-any
  return aq.toArrowIPC(aq.from(rows), { types: types as any });
}

// the reader and the statistics straight from the columns refuse alike
function fails(bytes: Uint8Array, expected: { name: string; message: RegExp }) {
  assert.throws(
    () => parseDecisionsArrow(bytes, { path: "runs/a.arrow" }),
    expected,
  );
  assert.throws(
    () => arrowDecisionStats(bytes, { path: "runs/a.arrow" }),
    expected,
  );
}

Deno.test("loadDecisionsArrow() round-trips a written table to the JSONL load of the same decisions", async () => {
  const ds = mixed();
  const jsonl = await tempFile(
    "a.jsonl",
    ds.map((d) => JSON.stringify(d)).join("\n"),
  );
  const path = `${await tempDir()}/a.arrow`;
  await writeDecisionsArrow(path, decisionTable(ds));
  const fromArrow = await loadDecisionsArrow(path);
  assert.deepEqual(fromArrow.columnNames(), [...DECISION_COLUMNS]);
  assert.deepEqual(
    fromArrow.objects(),
    (await loadDecisionsJsonl(jsonl)).objects(),
  );
  assert.deepEqual(parseDecisionsArrow(await Deno.readFile(path)), ds);
});

Deno.test("parseDecisionsArrow() reads the stream format, other column orders and inferred types", () => {
  const ds = mixed();
  const stream = aq.toArrowIPC(
    decisionTable(ds).select(...[...DECISION_COLUMNS].reverse()),
    { format: "stream" },
  );
  assert.deepEqual(parseDecisionsArrow(stream), ds);
});

Deno.test("parseDecisionsArrow() names row and field for a value out of range", () => {
  const rows = flatRows(mixed());
  rows[1] = { ...rows[1], pCorrect: 1.3 };
  fails(ipc(rows), {
    name: "RangeError",
    message:
      /^Cannot load run export runs\/a\.arrow: row 2: pCorrect must be in \[0, 1\], got 1\.3$/,
  });
  const sev = flatRows(mixed());
  sev[2] = { ...sev[2], severity: "SEVERE" };
  fails(ipc(sev), {
    name: "RangeError",
    message:
      /row 3: severity must be one of LOW, MEDIUM, HIGH, CRITICAL, got "SEVERE"/,
  });
  const usd = flatRows(mixed());
  usd[0] = { ...usd[0], costUsd: -0.5 };
  fails(ipc(usd), {
    name: "RangeError",
    message: /row 1: costUsd must be >= 0, got -0\.5/,
  });
  const act = flatRows(mixed());
  act[4] = { ...act[4], action: "defer" };
  fails(ipc(act), {
    name: "RangeError",
    message: /row 5: action must be "auto" or "escalate"/,
  });
});

Deno.test("parseDecisionsArrow() names row and field for a wrong type or a null where a value is due", () => {
  const text = flatRows(mixed()).map((r) => ({
    ...r,
    pCorrect: r.pCorrect === null ? null : String(r.pCorrect),
  }));
  fails(ipc(text, { pCorrect: utf8() }), {
    name: "TypeError",
    message:
      /^Cannot load run export runs\/a\.arrow: row 1: pCorrect must be number, got "0\.9"$/,
  });
  const noRun = flatRows(mixed());
  noRun[3] = { ...noRun[3], runId: null };
  fails(ipc(noRun), {
    name: "TypeError",
    message: /row 4: runId must be string, got null/,
  });
  const zero = flatRows(mixed());
  zero[1] = { ...zero[1], costUsd: 0 };
  fails(ipc(zero, { costUsd: float64() }), {
    name: "TypeError",
    message: /row 2: costUsd must be null, got 0/,
  });
  const big = flatRows(mixed());
  big[0] = { ...big[0], trial: 2 ** 60 };
  fails(ipc(big, { trial: int64() }), {
    name: "RangeError",
    message: /row 1: trial must be a safe integer, got 1152921504606846976/,
  });
});

Deno.test("parseDecisionsArrow() refuses extra and missing columns", () => {
  const rows = flatRows(mixed());
  fails(ipc(rows.map((r) => ({ ...r, confidence: 0.9 }))), {
    name: "TypeError",
    message:
      /^Cannot load run export runs\/a\.arrow: unknown column "confidence"/,
  });
  fails(ipc(rows.map(({ costUsd: _, ...r }) => r)), {
    name: "TypeError",
    message: /^Cannot load run export runs\/a\.arrow: missing column costUsd$/,
  });
});

Deno.test("parseDecisionsArrow() refuses bytes that are not Arrow and repeated decisions", () => {
  fails(new TextEncoder().encode("runId,modelId\n"), {
    name: "SyntaxError",
    message: /^Cannot load run export runs\/a\.arrow: not Arrow IPC data/,
  });
  fails(decisionsToArrow(decisionTable([decision(), decision()])), {
    name: "RangeError",
    message:
      /row 2: duplicate decision for runId "r1", modelId "m", taskId "t1", trial 0 \(first on row 1\)/,
  });
});

Deno.test("loadDecisionsArrow() puts the file path in errors", async () => {
  const rows = flatRows(mixed());
  rows[4] = { ...rows[4], pCorrect: 2 };
  const path = `${await tempDir()}/bad.arrow`;
  await Deno.writeFile(path, ipc(rows));
  await assert.rejects(() => loadDecisionsArrow(path), {
    name: "RangeError",
    message:
      `Cannot load run export ${path}: row 5: pCorrect must be in [0, 1], got 2`,
  });
});

Deno.test("decisionsToArrow() types each column from its rule and storage hint in the Decision schema", () => {
  const table = tableFromIPC(decisionsToArrow(decisionTable(mixed())), {
    useBigInt: true,
  });
  const typeOf = new Map(
    table.schema.fields.map((f) => [f.name, f.type as { typeId: number }]),
  );
  // the type's id with its width or precision (Int64, not Int32)
  const shape = (t: unknown) => {
    const { typeId, bitWidth, precision } = t as Record<string, unknown>;
    return { typeId, bitWidth, precision };
  };
  const fields: readonly DecisionField[] = DECISION_FIELDS;
  for (const f of fields) {
    const kind = kindOfRule(f.rule);
    const expected = kind === "number"
      ? (f.rule.kind === "count" ? int64() : float64())
      : kind === "boolean"
      ? bool()
      : f.repeats === true
      ? dictionary(utf8())
      : utf8();
    assert.deepEqual(shape(typeOf.get(f.column)), shape(expected), f.column);
  }
  // as the columns were typed before the schema said so
  const ids = (cs: string[]) => cs.map((c) => typeOf.get(c)?.typeId);
  assert.deepEqual(
    ids(["runId", "taskId", "answer", "target"]),
    Array(4).fill(utf8().typeId),
  );
  assert.deepEqual(
    ids([
      "modelId",
      "severity",
      "trueClass",
      "predClass",
      "action",
      "costCompleteness",
      "outcome",
      "pCorrectSource",
    ]),
    Array(8).fill(dictionary(utf8()).typeId),
  );
});

Deno.test("arrowDecisionStats() equals decisionStats() of the table the reader builds, for runs with several trials and runs (property, seed 20261203)", () => {
  const severities = ["LOW", "MEDIUM", "HIGH", "CRITICAL"] as const;
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          model: fc.constantFrom("a", "b", "ü"),
          run: fc.constantFrom("r1", "r2"),
          task: fc.integer({ min: 0, max: 30 }),
          trial: fc.integer({ min: 0, max: 3 }),
          severity: fc.constantFrom(...severities),
          pred: fc.constantFrom("MATCH", "AMOUNT_MISMATCH"),
          p: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
          escalate: fc.boolean(),
          parseOk: fc.boolean(),
        }),
        { minLength: 1, maxLength: 200 },
      ),
      (drawn) => {
        const seen = new Set<string>();
        const ds: Decision[] = [];
        for (const d of drawn) {
          const key = `${d.run}/${d.model}/${d.task}/${d.trial}`;
          if (seen.has(key)) continue;
          seen.add(key);
          ds.push(decision({
            runId: d.run,
            modelId: d.model,
            taskId: `t${d.task}`,
            trial: d.trial,
            severity: d.severity,
            predClass: d.pred,
            pCorrect: d.p,
            action: d.escalate ? "escalate" : "auto",
            parseOk: d.parseOk,
          }));
        }
        const bytes = decisionsToArrow(decisionTable(ds));
        const got = arrowDecisionStats(bytes);
        const want = decisionStats(decisionTable(parseDecisionsArrow(bytes)));
        assert.deepEqual(got.stats, want);
        assert.equal(got.decisions, ds.length);
      },
    ),
    { seed: 20261203, numRuns: 200 },
  );
});

Deno.test("arrowDecisionStats() refuses a key repeated far from its first row, naming both rows", () => {
  const ds = Array.from(
    { length: 5000 },
    (_, i) => decision({ taskId: `task-${i}`, trial: i % 2 }),
  );
  ds.push(decision({ taskId: "task-1234", trial: 0 }));
  fails(decisionsToArrow(decisionTable(ds)), {
    name: "RangeError",
    message:
      /row 5001: duplicate decision for runId "r1", modelId "m", taskId "task-1234", trial 0 \(first on row 1235\)/,
  });
});
