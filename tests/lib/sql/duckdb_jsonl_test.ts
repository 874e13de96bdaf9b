import assert from "node:assert/strict";
import fc from "fast-check";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import type { StatsRow } from "../../../lib/metrics/sufficient_stats.ts";
import { writeDecisionsCsv } from "../../../lib/read/csv.ts";
import type { Decision } from "../../../lib/decision/decision.ts";
import { duckdbJsonlStats } from "../../../lib/sql/duckdb_jsonl.ts";
import { duckdbDecisionStats } from "../../../lib/sql/duckdb_stats.ts";
import { withDuckDB } from "../../../lib/read/duckdb_session.ts";
import { jsonlStatsFile } from "../../../lib/read/jsonl_stats.ts";
import { decisionTable } from "../../../lib/read/load_decisions.ts";
import {
  loadDecisionsParquet,
  writeDecisionsParquet,
} from "../../../lib/read/parquet.ts";
import { decision, tempDir } from "../../_helpers.ts";

// the same statistics to the last bit: the sums are exact and rounded once
function assertSameStats(got: StatsRow[], want: StatsRow[]): void {
  assert.deepEqual(got, want);
}

async function jsonl(
  text: string | Uint8Array,
  name = "run.jsonl",
): Promise<string> {
  const dir = await tempDir("lossbook-test-");
  const path = `${dir}/${name}`;
  if (typeof text === "string") await Deno.writeTextFile(path, text);
  else await Deno.writeFile(path, text);
  return path;
}

function lines(ds: Decision[]): string {
  return ds.map((d) => JSON.stringify(d)).join("\n") + "\n";
}

function run(): Decision[] {
  return [
    decision({ taskId: "1", pCorrect: 0.9 }),
    decision({
      taskId: "2",
      predClass: "MATCH",
      pCorrect: null,
      parseOk: false,
    }),
    decision({ taskId: "2", trial: 1, pCorrect: 0.3, action: "escalate" }),
    decision({
      taskId: "3",
      modelId: "b",
      severity: "CRITICAL",
      pCorrect: 1,
      tokensIn: 4,
      tokensOut: 2,
      latencyMs: 1.5,
      pCorrectSource: "agreement@3",
      answer: "x",
      target: "y",
      cost: { completeness: "unavailable", usd: null },
    }),
  ];
}

Deno.test("duckdbJsonlStats() equals the line loader's statistics, without falling back, blank lines and CRLF included", async () => {
  const text = lines(run());
  for (const t of [text, text.replaceAll("\n", "\r\n"), "\n" + text + "\n\n"]) {
    const path = await jsonl(t);
    const reasons: string[] = [];
    const got = await duckdbJsonlStats(path, {
      threads: 1,
      onFallback: (r) => reasons.push(r),
    });
    assert.deepEqual(reasons, []);
    assertSameStats(got, (await jsonlStatsFile(path)).stats);
  }
});

Deno.test("duckdbJsonlStats() equals jsonlStatsFile() on random runs (property, seed 20261203)", async () => {
  const arb = fc.array(
    fc.record({
      modelId: fc.constantFrom("a", "b"),
      trial: fc.integer({ min: 0, max: 2 }),
      severity: fc.constantFrom(...SEVERITIES),
      trueClass: fc.constantFrom("MATCH", "AMOUNT_MISMATCH"),
      predClass: fc.constantFrom("MATCH", "AMOUNT_MISMATCH"),
      action: fc.constantFrom("auto" as const, "escalate" as const),
      pCorrect: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), {
        nil: null,
      }),
      parseOk: fc.boolean(),
    }),
    { minLength: 1, maxLength: 30 },
  );
  await fc.assert(
    fc.asyncProperty(arb, async (rows) => {
      const ds = rows.map((r, i) =>
        decision({ ...r, taskId: `t${i % 7}`, runId: `r${i}` })
      );
      const path = await jsonl(lines(ds));
      let fellBack = false;
      const got = await duckdbJsonlStats(path, {
        threads: 1,
        onFallback: () => fellBack = true,
      });
      assert.equal(fellBack, false);
      assertSameStats(got, (await jsonlStatsFile(path)).stats);
    }),
    { seed: 20261203, numRuns: 15 },
  );
});

Deno.test("every line the line loader refuses sends the file to it, so the error names file, line and field", async () => {
  const good = JSON.stringify(decision({ taskId: "0" }));
  const base = JSON.stringify(decision({ taskId: "1" }));
  const enc = new TextEncoder();
  const badUtf8 = enc.encode(`${good}\n${base.replace('"m"', '"m?"')}\n`);
  badUtf8[badUtf8.lastIndexOf(0x3f)] = 0xff;
  const cases: Array<[string, string | Uint8Array]> = [
    ["unknown field", base.replace("{", '{"confidence":0.5,')],
    ["unknown cost field", base.replace('"usd":0.001', '"usd":0.001,"eur":1')],
    [
      "wrong type (number as text)",
      base.replace('"pCorrect":0.9', '"pCorrect":"0.9"'),
    ],
    [
      "wrong type (boolean as number)",
      base.replace('"parseOk":true', '"parseOk":1'),
    ],
    ["wrong type (trial as text)", base.replace('"trial":0', '"trial":"0"')],
    ["out of range", base.replace('"pCorrect":0.9', '"pCorrect":1.5')],
    ["fractional trial", base.replace('"trial":0', '"trial":0.5')],
    ["unknown severity", base.replace('"HIGH"', '"SEVERE"')],
    [
      "missing field",
      base.replace('"outcome":"resolved",', "").replace(
        ',"outcome":"resolved"',
        "",
      ),
    ],
    [
      "null where a value is due",
      base.replace('"tokensIn"', '"x"').replace("{", '{"tokensIn":null,'),
    ],
    [
      "repeated key",
      base.replace('{"runId":"r1"', '{"runId":"r0","runId":"r1"'),
    ],
    ["repeated cost key", base.replace('"usd":0.001', '"usd":5,"usd":0.001')],
    ["not an object", "[1, 2]"],
    ["trailing comma", base.replace(/}$/, ",}")],
    ["trailing comma in cost", base.replace('"usd":0.001', '"usd":0.001,')],
    ["cost null", base.replace(/"cost":\{[^}]*\}/, '"cost":null')],
    ["number as text id", base.replace('"taskId":"1"', '"taskId":1')],
    ["NaN", base.replace('"pCorrect":0.9', '"pCorrect":NaN')],
    ["malformed JSON", base.slice(0, -1)],
    ["repeated decision", good],
    ["invalid UTF-8", badUtf8],
  ];
  for (const [name, line] of cases) {
    const content = typeof line === "string" ? `${good}\n${line}\n` : line;
    const path = await jsonl(content);
    let want: Error | undefined;
    try {
      await jsonlStatsFile(path);
    } catch (error) {
      want = error as Error;
    }
    assert.ok(want !== undefined, `${name}: the line loader accepted it`);
    assert.match(want.message, /: line 2: /, name);
    const reasons: string[] = [];
    await assert.rejects(
      () =>
        duckdbJsonlStats(path, {
          threads: 1,
          onFallback: (r) => reasons.push(r),
        }),
      { name: want.name, message: want.message },
      name,
    );
    assert.equal(reasons.length, 1, name);
    // the checks found it, not a mistake in the SQL
    assert.doesNotMatch(reasons[0], /Parser Error|Binder Error/, name);
  }
});

Deno.test("a path is never a glob pattern: run[1].* is read, not run1.*, for JSONL, Parquet and CSV; a directory is refused", async () => {
  const dir = await tempDir("lossbook-test-");
  const one = [decision({ taskId: "a" })];
  const two = [decision({ taskId: "a" }), decision({ taskId: "b" })];
  await Deno.writeTextFile(`${dir}/run[1].jsonl`, lines(one));
  await Deno.writeTextFile(`${dir}/run1.jsonl`, lines(two));
  const n = (s: StatsRow[]) => s.reduce((a, r) => a + r.n, 0);
  assert.equal(n(await duckdbJsonlStats(`${dir}/run[1].jsonl`)), 1);
  assert.equal(n(await duckdbJsonlStats(`${dir}/run1.jsonl`)), 2);
  await writeDecisionsParquet(`${dir}/run[1].parquet`, decisionTable(one), {
    threads: 1,
  });
  await writeDecisionsParquet(`${dir}/run1.parquet`, decisionTable(two), {
    threads: 1,
  });
  assert.equal(n(await duckdbDecisionStats(`${dir}/run[1].parquet`)), 1);
  assert.equal(
    (await loadDecisionsParquet(`${dir}/run[1].parquet`)).numRows(),
    1,
  );
  assert.equal(n(await duckdbDecisionStats(`${dir}/run1.parquet`)), 2);
  await writeDecisionsCsv(`${dir}/run[1].csv`, decisionTable(one));
  await writeDecisionsCsv(`${dir}/run1.csv`, decisionTable(two));
  assert.equal(n(await duckdbDecisionStats(`${dir}/run[1].csv`)), 1);
  // a star and a question mark are literal too
  await Deno.writeTextFile(`${dir}/r*?.jsonl`, lines(two));
  assert.equal(n(await duckdbJsonlStats(`${dir}/r*?.jsonl`)), 2);
  await Deno.mkdir(`${dir}/d.parquet`);
  for (
    const read of [
      () => duckdbJsonlStats(dir),
      () => duckdbDecisionStats(`${dir}/d.parquet`),
      () => loadDecisionsParquet(`${dir}/d.parquet`),
    ]
  ) {
    await assert.rejects(read, Deno.errors.IsADirectory);
  }
});

Deno.test("a relative path means what it means to the operating system: ~/run.* is the folder named ~, s3://run.* a folder named s3:, when reading and writing through DuckDB", async () => {
  const root = await tempDir("lossbook-test-");
  const [home, work] = [`${root}/home`, `${root}/work`];
  await Deno.mkdir(`${work}/~`, { recursive: true });
  await Deno.mkdir(`${work}/s3:`);
  await Deno.mkdir(home);
  const one = [decision({ taskId: "a" })];
  const two = [decision({ taskId: "a" }), decision({ taskId: "b" })];
  for (
    const [dir, ds] of [[home, two], [`${work}/~`, one], [
      `${work}/s3:`,
      one,
    ]] as const
  ) {
    await Deno.writeTextFile(`${dir}/run.jsonl`, lines(ds));
    await writeDecisionsCsv(`${dir}/run.csv`, decisionTable(ds));
    await writeDecisionsParquet(`${dir}/run.parquet`, decisionTable(ds), {
      threads: 1,
    });
  }
  const n = (s: StatsRow[]) => s.reduce((a, r) => a + r.n, 0);
  const [cwd, oldHome] = [Deno.cwd(), Deno.env.get("HOME")];
  Deno.env.set("HOME", home);
  Deno.chdir(work);
  try {
    // the trap is real: DuckDB given the relative path reads the home folder's file
    const raw = await withDuckDB(async (c) =>
      (await c.runAndReadAll(
        "SELECT COUNT(*) FROM read_csv('~/run.csv', header = true)",
      )).getRows()[0][0]
    );
    assert.equal(Number(raw), 2);
    for (const prefix of ["~/", "s3://"]) {
      assert.equal(n(await duckdbJsonlStats(`${prefix}run.jsonl`)), 1, prefix);
      assert.equal(n(await duckdbDecisionStats(`${prefix}run.csv`)), 1, prefix);
      assert.equal(
        n(await duckdbDecisionStats(`${prefix}run.parquet`)),
        1,
        prefix,
      );
      assert.equal(
        (await loadDecisionsParquet(`${prefix}run.parquet`)).numRows(),
        1,
        prefix,
      );
    }
    await writeDecisionsParquet("~/out.parquet", decisionTable(two), {
      threads: 1,
    });
    assert.equal(
      (await loadDecisionsParquet(`${work}/~/out.parquet`)).numRows(),
      2,
    );
    await assert.rejects(
      Deno.stat(`${home}/out.parquet`),
      Deno.errors.NotFound,
    );
    // a working folder whose name holds glob characters and a backslash
    // does not enter the pattern DuckDB matches
    const odd = `${work}/c[1]*\\x`;
    await Deno.mkdir(odd);
    for (const f of ["run.jsonl", "run.csv", "run.parquet"]) {
      await Deno.copyFile(`${work}/~/${f}`, `${odd}/${f}`);
    }
    Deno.chdir(odd);
    assert.equal(n(await duckdbJsonlStats("run.jsonl")), 1);
    assert.equal(n(await duckdbDecisionStats("run.csv")), 1);
    assert.equal(n(await duckdbDecisionStats("run.parquet")), 1);
    assert.equal((await loadDecisionsParquet("run.parquet")).numRows(), 1);
    // a path with both, which DuckDB's matching cannot open, is refused
    // (JSONL falls back to the line loader, which reads it)
    await Deno.copyFile(`${odd}/run.csv`, `${odd}/r\\[1].csv`);
    await assert.rejects(
      () => duckdbDecisionStats("r\\[1].csv"),
      /holds both a backslash and one of \[ \* \?/,
    );
    await Deno.copyFile(`${odd}/run.jsonl`, `${odd}/r\\[1].jsonl`);
    assert.equal(n(await duckdbJsonlStats("r\\[1].jsonl")), 1);
  } finally {
    Deno.chdir(cwd);
    if (oldHome === undefined) Deno.env.delete("HOME");
    else Deno.env.set("HOME", oldHome);
  }
});

Deno.test("duckdbJsonlStats() takes lines as other writers write them (spaces, key order, escapes) without falling back", async () => {
  const ds = run();
  const text = ds.map((d, i) => {
    const line = JSON.stringify(d);
    if (i === 0) {
      return JSON.stringify(d, null, 0).replaceAll('":', '": ').replaceAll(
        ',"',
        ', "',
      );
    }
    if (i === 1) {
      const { cost, ...rest } = d;
      return JSON.stringify({
        cost: { usd: cost.usd, completeness: cost.completeness },
        ...rest,
      });
    }
    return line.replace('"runId":"r1"', '"runId":"r\\u0031"');
  }).join("\n") + "\n";
  const path = await jsonl(text);
  const reasons: string[] = [];
  const got = await duckdbJsonlStats(path, {
    threads: 1,
    onFallback: (r) => reasons.push(r),
  });
  assert.deepEqual(reasons, []);
  assertSameStats(got, (await jsonlStatsFile(path)).stats);
});
