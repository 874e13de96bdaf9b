// score and sweep print the same bytes on every engine: in process (the
// Arquero table for Parquet and CSV, the JSONL reader with its WebAssembly
// scanner and its workers), DuckDB (Parquet, CSV, JSONL) and PostgreSQL,
// apart from the keys that name the input (file, files, table). The rows
// are chosen so that a float sum of 1 - pCorrect depends on the order of
// addition, and each format and engine holds them in another order; tasks
// repeat with several trial counts, one run names clusters (the unit), and
// one file is large enough for the JSONL reader's workers and DuckDB's
// threads. The
// PostgreSQL part is that of tests/_pg.ts: skipped with a notice without a
// server, failing when CI=true.
import assert from "node:assert/strict";
import {
  DECISION_COLUMNS,
  decisionTable,
} from "../../lib/read/load_decisions.ts";
import { jsonlStatsFile } from "../../lib/read/jsonl_stats.ts";
import {
  parallelJsonlStats,
  SEGMENT_BYTES,
} from "../../lib/read/_jsonl_segments.ts";
import { duckdbDecisionStats } from "../../lib/sql/duckdb_stats.ts";
import { duckdbJsonlStats } from "../../lib/sql/duckdb_jsonl.ts";
import { runCli } from "../_helpers.ts";
import {
  clusteredTrials,
  type Files,
  oneTrial,
  repeatedTrials,
  withoutInput,
  write,
} from "./_engine_files.ts";
import { PG_DSN, withPgTable } from "../_pg.ts";

const IN_CI = Deno.env.get("CI") === "true";

const COMMANDS = [
  ["score", ["--resamples", "100"]],
  ["sweep", ["--points", "5"]],
] as const;

async function printed(args: readonly string[]): Promise<string> {
  const r = await runCli([...args, "--json"]);
  assert.equal(r.code, 0, `${args.join(" ")}: ${r.stderr}`);
  assert.doesNotMatch(r.stdout, /duckdb|postgres|"engine"/i);
  return r.stdout;
}

async function assertSameBytes(f: Files): Promise<void> {
  for (const [command, extra] of COMMANDS) {
    const want = withoutInput(await printed([command, f.jsonl, ...extra]));
    const runs: Array<[string, string[]]> = [];
    for (const path of [f.jsonl, f.parquet, f.csv]) {
      for (const engine of ["memory", "duckdb"]) {
        runs.push([`${engine} ${path}`, [path, "--engine", engine]]);
      }
    }
    for (const [what, args] of runs) {
      const got = withoutInput(await printed([command, ...args, ...extra]));
      assert.equal(got, want, `${command} ${what}`);
    }
    if (PG_DSN !== undefined) {
      const flat = (decisionTable(f.rows).objects() as Record<
        string,
        unknown
      >[]).map((r) =>
        Object.fromEntries(
          DECISION_COLUMNS.map((c) => [c.toLowerCase(), r[c] ?? null]),
        )
      );
      await withPgTable(PG_DSN, flat, async (_sql, table) => {
        const got = withoutInput(
          await printed([
            command,
            "--engine",
            "postgres",
            "--dsn",
            PG_DSN!,
            "--table",
            table,
            ...extra,
          ]),
        );
        assert.equal(got, want, `${command} postgres`);
      });
    } else if (IN_CI) {
      throw new Error(
        "CI=true but LOSSBOOK_TEST_PG_DSN is not set: .ci/run must start the throwaway server",
      );
    }
  }
}

// the statistics of DuckDB at 1, 2 and 4 threads equal the in-process ones
async function assertSameAtAnyThreads(f: Files): Promise<void> {
  const want = (await jsonlStatsFile(f.jsonl)).stats;
  for (const threads of [1, 2, 4]) {
    assert.deepEqual(
      await duckdbJsonlStats(f.jsonl, {
        threads,
        onFallback: (reason) => assert.fail(`fell back: ${reason}`),
      }),
      want,
      `JSONL, ${threads} threads`,
    );
    for (const path of [f.parquet, f.csv]) {
      assert.deepEqual(
        await duckdbDecisionStats(path, { threads }),
        want,
        `${path}, ${threads} threads`,
      );
    }
  }
}

if (PG_DSN === undefined && !IN_CI) {
  console.warn(
    "engines_same_bytes_test: LOSSBOOK_TEST_PG_DSN is not set, the PostgreSQL engine is left out of the comparisons",
  );
}

Deno.test("the rows of these tests add up to different floats in the orders the files hold them, so equal bytes are not luck", () => {
  for (const rows of [repeatedTrials(), oneTrial(3000)]) {
    const complements = rows.flatMap((d) =>
      d.pCorrect === null ? [] : [1 - d.pCorrect]
    );
    const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
    const ascending = sum(complements.toSorted((a, b) => a - b));
    const descending = sum(complements.toSorted((a, b) => b - a));
    assert.notEqual(ascending, descending);
    assert.notEqual(sum(complements), ascending);
  }
});

Deno.test("score and sweep print the same bytes on every engine and format, with tasks of several trials and two runs", async () => {
  const f = await write("trials", repeatedTrials());
  await assertSameBytes(f);
  await assertSameAtAnyThreads(f);
});

Deno.test("score and sweep print the same bytes on every engine and format for a run whose decisions name clusters, and under --cluster taskId those of the run without them", async () => {
  const f = await write("clusters", clusteredTrials());
  await assertSameBytes(f);
  await assertSameAtAnyThreads(f);
  const plain = await write("plain", repeatedTrials());
  for (const [command, extra] of COMMANDS) {
    const clustered = await printed([command, f.jsonl, ...extra]);
    assert.match(clustered, /\n {2}"unit": "cluster",\n/, command);
    const want = withoutInput(await printed([command, plain.jsonl, ...extra]));
    assert.notEqual(withoutInput(clustered), want, command);
    for (const path of [f.jsonl, f.parquet, f.csv]) {
      for (const engine of ["memory", "duckdb"]) {
        assert.equal(
          withoutInput(
            await printed([
              command,
              path,
              "--engine",
              engine,
              "--cluster",
              "taskId",
              ...extra,
            ]),
          ),
          want,
          `${command} ${engine} ${path} --cluster taskId`,
        );
      }
    }
  }
});

Deno.test("score and sweep print the same bytes on every engine and format for sums whose float value depends on the order", async () => {
  const f = await write("order", oneTrial(3000));
  await assertSameBytes(f);
  await assertSameAtAnyThreads(f);
});

Deno.test("score and sweep print the same bytes on every engine for a file the JSONL reader reads in segments with its workers, and DuckDB with several threads", async () => {
  const f = await write("large", oneTrial(140_000));
  const size = (await Deno.stat(f.jsonl)).size;
  assert.ok(size >= 2 * SEGMENT_BYTES, `${size} bytes: too small for segments`);
  // the workers read it, with no fallback to one thread
  assert.notEqual(
    await parallelJsonlStats(f.jsonl, size, { workers: 2 }),
    null,
  );
  await assertSameBytes(f);
  await assertSameAtAnyThreads(f);
});
