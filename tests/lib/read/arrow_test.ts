import assert from "node:assert/strict";
import fc from "fast-check";
import { decisionStats } from "../../../lib/decision/decision_stats.ts";
import * as aq from "arquero";
import {
  bool,
  type DataType,
  dictionary,
  float16,
  float32,
  float64,
  int32,
  int64,
  nullType,
  tableFromArrays,
  tableFromIPC,
  tableToIPC,
  uint8,
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

// A drawn decision's fields: few models (one not ASCII), runs, tasks and
// trials, so that keys and cells repeat.
function drawnFields(tasks: number, trials: number) {
  return {
    model: fc.constantFrom("a", "b", "ü"),
    run: fc.constantFrom("r1", "r2"),
    task: fc.integer({ min: 0, max: tasks }),
    trial: fc.integer({ min: 0, max: trials }),
    severity: fc.constantFrom("LOW", "MEDIUM", "HIGH", "CRITICAL"),
    pred: fc.constantFrom("MATCH", "AMOUNT_MISMATCH"),
    p: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
    escalate: fc.boolean(),
    parseOk: fc.boolean(),
  } as const;
}

type Drawn = {
  [K in keyof ReturnType<typeof drawnFields>]: ReturnType<
    typeof drawnFields
  >[K] extends fc.Arbitrary<infer T> ? T : never;
};

function drawnDecision(d: Drawn, patch: Partial<Decision> = {}): Decision {
  return decision({
    runId: d.run,
    modelId: d.model,
    taskId: `t${d.task}`,
    trial: d.trial,
    severity: d.severity,
    predClass: d.pred,
    pCorrect: d.p,
    action: d.escalate ? "escalate" : "auto",
    parseOk: d.parseOk,
    ...patch,
  });
}

Deno.test("arrowDecisionStats() equals decisionStats() of the table the reader builds, for runs with several trials and runs (property, seed 20261203)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.record(drawnFields(30, 3)), { minLength: 1, maxLength: 200 }),
      (drawn) => {
        const seen = new Set<string>();
        const ds: Decision[] = [];
        for (const d of drawn) {
          const key = `${d.run}/${d.model}/${d.task}/${d.trial}`;
          if (seen.has(key)) continue;
          seen.add(key);
          ds.push(drawnDecision(d));
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

// A column's values and Arrow type, as a file may store them.
type StoredColumn = { values: unknown[]; type: DataType };

// One column of flat rows, stored as `choice` picks among the types that
// hold its values: nulls only as the null type, text plain or as a
// dictionary, counts as int64, int32, uint8 or double, other numbers as
// double, float or half float, booleans as bool.
function stored(field: DecisionField, values: unknown[], choice: number) {
  const kind = kindOfRule(field.rule);
  if (values.every((v) => v === null) && choice % 3 === 0) {
    return { values, type: nullType() };
  }
  if (kind === "boolean") return { values, type: bool() };
  if (kind === "text") {
    return { values, type: choice % 2 === 0 ? utf8() : dictionary(utf8()) };
  }
  const numbers = values.filter((v) => typeof v === "number") as number[];
  const whole = numbers.every(Number.isInteger);
  const big = values.some((v) => typeof v === "bigint");
  if (big) return { values, type: int64() };
  if (whole && choice % 4 === 1) {
    return {
      values: values.map((v) => typeof v === "number" ? BigInt(v) : v),
      type: int64(),
    };
  }
  if (
    whole && choice % 4 === 2 &&
    numbers.every((v) => v >= -(2 ** 31) && v < 2 ** 31)
  ) return { values, type: int32() };
  if (whole && choice % 4 === 3 && numbers.every((v) => v >= 0 && v < 256)) {
    return { values, type: uint8() };
  }
  return {
    values,
    type: whole || choice % 3 === 0
      ? float64()
      : choice % 3 === 1
      ? float16()
      : float32(),
  };
}

// Values a column's rule refuses, or that are refused with another
// column (a cost where none may be), or that a file holds at the edges of
// what is read (U+FFFD, text that is not ASCII, a count past the safe
// integers).
const CORRUPT: Record<string, unknown[]> = {
  id: ["", null, "\uFFFD", "ü", 7],
  text: [null, "\uFFFD", "é", 3],
  count: [-1, 1.5, null, 2n ** 60n, -(2n ** 60n), Number.NaN, "3"],
  amount: [-0.5, Infinity, Number.NaN, null, 2n ** 60n],
  probability: [1.3, -0.1, Number.NaN, null, 1n],
  boolean: [null],
  enum: ["SEVERE", "", null, "ü"],
  "pcorrect-source": ["guess", "agreement@0", "\uFFFD"],
};

Deno.test("arrowDecisionStats() gives the row reader's statistics or its error, for any storage of the columns, record batches and bad values (property, seed 20261204)", () => {
  const decisionArb = fc.record({
    ...drawnFields(12, 2),
    cost: fc.constantFrom(
      { completeness: "complete", usd: 0.25 },
      { completeness: "unavailable", usd: null },
      { completeness: "not_applicable", usd: null },
    ),
    tokensIn: fc.option(fc.nat({ max: 300 })),
    latencyMs: fc.option(fc.double({ min: 0, max: 10, noNaN: true })),
  });
  const corruption = fc.record({
    row: fc.nat(),
    field: fc.nat({ max: DECISION_FIELDS.length - 1 }),
    pick: fc.nat(),
  });
  fc.assert(
    fc.property(
      fc.array(decisionArb, { minLength: 1, maxLength: 40 }),
      fc.array(corruption, { maxLength: 2 }),
      fc.array(fc.nat({ max: 11 }), {
        minLength: DECISION_FIELDS.length,
        maxLength: DECISION_FIELDS.length,
      }),
      fc.integer({ min: 1, max: 9 }),
      fc.boolean(),
      (drawn, corruptions, choices, maxBatchRows, stream) => {
        const ds = drawn.map((d) =>
          drawnDecision(d, {
            cost: d.cost as Decision["cost"],
            ...(d.tokensIn === null ? {} : { tokensIn: d.tokensIn }),
            ...(d.latencyMs === null ? {} : { latencyMs: d.latencyMs }),
          })
        );
        const rows = flatRows(ds);
        for (const c of corruptions) {
          const f = DECISION_FIELDS[c.field] as DecisionField;
          const bad = CORRUPT[f.rule.kind];
          rows[c.row % rows.length][f.column] = bad[c.pick % bad.length];
        }
        const columns: Record<string, StoredColumn> = {};
        DECISION_FIELDS.forEach((f: DecisionField, k) => {
          const values = rows.map((r) => r[f.column] ?? null);
          // an optional column left out when it holds only nulls, at times
          if (
            !f.required && values.every((v) => v === null) && choices[k] > 8
          ) {
            return;
          }
          columns[f.column] = stored(f, values, choices[k]);
        });
        let bytes: Uint8Array;
        try {
          const table = tableFromArrays(
            Object.fromEntries(
              Object.entries(columns).map(([c, s]) => [c, s.values]),
            ) as Record<string, unknown[]>,
            {
              types: Object.fromEntries(
                Object.entries(columns).map(([c, s]) => [c, s.type]),
              ),
              maxBatchRows,
            },
          );
          bytes = tableToIPC(table, { format: stream ? "stream" : "file" })!;
        } catch {
          return; // a value its column's type cannot hold: no such file
        }
        let want: Decision[] | Error;
        try {
          want = parseDecisionsArrow(bytes, { path: "a.arrow" });
        } catch (error) {
          want = error as Error;
        }
        if (want instanceof Error) {
          assert.throws(() => arrowDecisionStats(bytes, { path: "a.arrow" }), {
            name: want.name,
            message: want.message,
          });
        } else {
          const got = arrowDecisionStats(bytes, { path: "a.arrow" });
          assert.deepEqual(got.stats, decisionStats(decisionTable(want)));
          assert.equal(got.decisions, want.length);
        }
      },
    ),
    { seed: 20261204, numRuns: 400 },
  );
});
