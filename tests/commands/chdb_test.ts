// chdb, ClickHouse's embedded engine: `--engine chdb` prints the same bytes
// as the in-process path and refuses the same files with the same errors,
// and the ClickHouse dialect of export-sql runs on it, over a table loaded
// from a file. Skipped with a notice when chdb is not installed (`lossbook
// engine install chdb`), failing when CI=true (.ci/run installs it first).
import assert from "node:assert/strict";
import type { Decision } from "../../lib/decision/decision.ts";
import { decisionStats } from "../../lib/decision/decision_stats.ts";
import { decisionTable } from "../../lib/read/load_decisions.ts";
import { writeDecisionsParquet } from "../../lib/read/parquet.ts";
import { writeDecisionsCsv } from "../../lib/read/csv.ts";
import {
  DECISION_CHECKS,
  statsRowsOfSql,
} from "../../lib/sql/duckdb_stats_sql.ts";
import { installedChdb } from "../../lib/sql/chdb_install.ts";
import { chdbDecisionStats, withChdb } from "../../lib/sql/chdb_stats.ts";
import { runCli, tempDir } from "../_helpers.ts";
import { repeatedTrials, withoutInput, write } from "./_engine_files.ts";

const IN_CI = Deno.env.get("CI") === "true";
const LIBRARY = installedChdb();

if (LIBRARY === null) {
  if (IN_CI) {
    throw new Error(
      "CI=true but chdb is not installed: .ci/run must run `deno task lossbook engine install chdb` first",
    );
  }
  console.warn(
    "chdb_test: chdb is not installed (deno task lossbook engine install chdb), its tests are skipped",
  );
}
const ignore = LIBRARY === null;

// the rows of engines_same_bytes_test.ts, with optional fields on some
function rows(): Decision[] {
  return repeatedTrials().map((d, i) =>
    i % 7 === 0 ? { ...d, tokensIn: i, latencyMs: i / 3 } : d
  );
}

async function files(ds: Decision[]): Promise<string[]> {
  const f = await write("d", ds);
  return [f.jsonl, f.parquet, f.csv];
}

Deno.test({
  name:
    "score and sweep --engine chdb print the same bytes as in process on JSONL, Parquet and CSV",
  ignore,
  async fn() {
    const paths = await files(rows());
    for (
      const [command, extra] of [
        ["score", ["--resamples", "100"]],
        ["sweep", ["--points", "5"]],
      ] as const
    ) {
      const want = await runCli([command, paths[0], ...extra, "--json"]);
      assert.equal(want.code, 0, want.stderr);
      for (const path of paths) {
        const got = await runCli([
          command,
          path,
          "--engine",
          "chdb",
          ...extra,
          "--json",
        ]);
        assert.equal(got.code, 0, `${command} ${path}: ${got.stderr}`);
        assert.equal(
          withoutInput(got.stdout),
          withoutInput(want.stdout),
          `${command} ${path}`,
        );
      }
    }
  },
});

Deno.test({
  name:
    "chdbDecisionStats() computes the statistics of valid files in chdb, without the in-process reader, and hands a refused file to it, saying why",
  ignore,
  async fn() {
    const ds = rows();
    const want = decisionStats(decisionTable(ds));
    for (const path of await files(ds)) {
      assert.deepEqual(
        await chdbDecisionStats(path, {
          onFallback: (reason) => assert.fail(`${path} fell back: ${reason}`),
        }),
        want,
        path,
      );
    }
    const [jsonl] = await files([...ds.slice(0, 3), { ...ds[3], trial: -1 }]);
    const reasons: string[] = [];
    await assert.rejects(
      () => chdbDecisionStats(jsonl, { onFallback: (r) => reasons.push(r) }),
      /line 4: trial/,
    );
    assert.deepEqual(reasons, ["a row fails a check"]);
  },
});

// a file's text with one line (0-based, after the header for CSV) changed
async function refused(
  ext: "jsonl" | "csv" | "parquet",
  change: (d: Decision[]) => Decision[] | string,
): Promise<void> {
  const dir = await tempDir("lossbook-chdb-bad-");
  const path = `${dir}/bad.${ext}`;
  const changed = change(rows().slice(0, 20));
  if (typeof changed === "string") await Deno.writeTextFile(path, changed);
  else if (ext === "jsonl") {
    await Deno.writeTextFile(
      path,
      changed.map((d) => JSON.stringify(d)).join("\n") + "\n",
    );
  } else if (ext === "csv") {
    await writeDecisionsCsv(path, decisionTable(changed));
  } else {
    await writeDecisionsParquet(path, decisionTable(changed), { threads: 1 });
  }
  const memory = await runCli(["score", path, "--json"]);
  const chdb = await runCli(["score", path, "--engine", "chdb", "--json"]);
  assert.notEqual(memory.code, 0, `${ext}: the file was meant to be refused`);
  assert.deepEqual(
    { code: chdb.code, stderr: chdb.stderr, stdout: chdb.stdout },
    { code: memory.code, stderr: memory.stderr, stdout: memory.stdout },
    ext,
  );
}

Deno.test({
  name:
    "score --engine chdb refuses a bad row, a repeated key, a missing key and malformed JSON with the in-process error, naming file, row and field",
  ignore,
  async fn() {
    const at = (i: number, patch: Record<string, unknown>) => (d: Decision[]) =>
      d.map((x, j) => j === i ? { ...x, ...patch } as Decision : x);
    for (const ext of ["jsonl", "csv", "parquet"] as const) {
      await refused(ext, at(3, { pCorrect: 1.5 }));
      await refused(ext, at(4, { taskId: "" }));
      await refused(ext, at(5, { severity: "SEVERE" }));
      // a Parquet writer stores trial as an integer: a negative count there
      await refused(
        ext,
        at(6, ext === "parquet" ? { tokensIn: -1 } : { trial: 1.5 }),
      );
      await refused(ext, (d) => [...d, d[2]]);
    }
    const lines = rows().slice(0, 5).map((d) => JSON.stringify(d));
    const { pCorrect: _, ...noP } = rows()[1];
    await refused(
      "jsonl",
      () =>
        [lines[0], JSON.stringify(noP), ...lines.slice(2)].join("\n") + "\n",
    );
    await refused(
      "jsonl",
      () =>
        [lines[0], lines[1].replace('"trial":', '"trial":"0","x":'), lines[2]]
          .join("\n") + "\n",
    );
    await refused("jsonl", () => [lines[0], "{not json", lines[2]].join("\n"));
    // CSV cells ClickHouse's own CSV reader would take and lossbook's refuses:
    // a boolean spelt otherwise, a number with a space or a plus sign
    const csv = async () => {
      const dir = await tempDir("lossbook-chdb-csv-");
      await writeDecisionsCsv(
        `${dir}/a.csv`,
        decisionTable(rows().slice(0, 8)),
      );
      return (await Deno.readTextFile(`${dir}/a.csv`)).split("\n");
    };
    const text = await csv();
    const header = text[0].split(",");
    const cell = (line: number, column: string, value: string) => {
      const cells = text[line].split(",");
      cells[header.indexOf(column)] = value;
      return [...text.slice(0, line), cells.join(","), ...text.slice(line + 1)]
        .join("\n");
    };
    await refused("csv", () => cell(3, "parseOk", "yes"));
    await refused("csv", () => cell(4, "parseOk", "TRUE"));
    await refused("csv", () => cell(5, "pCorrect", " 0.5"));
    await refused("csv", () => cell(6, "pCorrect", "+0.5"));
    await refused("csv", () => cell(2, "trial", "0x0"));
    await refused(
      "jsonl",
      () =>
        [lines[0], lines[1].replace('"runId":"r1"', '"runId":1')].join("\n"),
    );
  },
});

Deno.test({
  name:
    "export-sql --dialect clickhouse runs on chdb: its table loaded from a file, the aggregate gives the in-process statistics, the row checks and repeated keys find the bad rows",
  ignore,
  async fn() {
    const r = await runCli([
      "export-sql",
      "--dialect",
      "clickhouse",
      "--table",
      "d",
      "--json",
    ]);
    assert.equal(r.code, 0, r.stderr);
    const sql = JSON.parse(r.stdout);
    const good = rows();
    const bad: Decision[] = [
      { ...good[0], taskId: "x1", pCorrect: 1.5 },
      { ...good[0], taskId: "x2", severity: "SEVERE" as Decision["severity"] },
      good[1],
    ];
    const dir = await tempDir("lossbook-chdb-sql-");
    const flat = `${dir}/flat.parquet`;
    await writeDecisionsParquet(flat, decisionTable(good), { threads: 1 });
    const worse = `${dir}/worse.parquet`;
    await writeDecisionsParquet(worse, decisionTable([...good, ...bad]), {
      threads: 1,
    });
    await withChdb((s) => {
      s.query(sql.createTable);
      s.query(`INSERT INTO d SELECT * FROM file('${flat}', 'Parquet')`);
      const rowsOut = s.query(sql.aggregate);
      assert.ok(rowsOut.every((row) => Number(row[9]) === 0));
      assert.deepEqual(
        statsRowsOfSql(rowsOut, Number),
        decisionStats(decisionTable(good)),
      );
      assert.deepEqual(s.query(sql.rowChecks), []);
      assert.deepEqual(s.query(sql.repeatedKeys), []);
      assert.deepEqual(s.query(sql.duplicateKeys).map((x) => x.map(Number)), [[
        0,
        0,
      ]]);

      s.query("DROP TABLE d");
      s.query(sql.createTable);
      s.query(`INSERT INTO d SELECT * FROM file('${worse}', 'Parquet')`);
      const invalid = s.query(sql.aggregate).reduce(
        (a, row) => a + Number(row[9]),
        0,
      );
      assert.equal(invalid, 2);
      const flagged = s.query(sql.rowChecks);
      const checks = DECISION_CHECKS.map((c) => c.field);
      const flagsOf = (row: unknown[]) =>
        checks.filter((_, i) => Number(row[checks.length + i]) === 1);
      assert.deepEqual(
        flagged.map((row) => [row[2], flagsOf(row)]),
        [["x1", ["pCorrect"]], ["x2", ["severity"]]],
      );
      assert.deepEqual(
        s.query(sql.repeatedKeys).map((row) => row.map(String)),
        [[
          good[1].runId,
          good[1].modelId,
          good[1].taskId,
          String(good[1].trial),
          "2",
        ]],
      );
      assert.deepEqual(s.query(sql.duplicateKeys).map((x) => x.map(Number)), [[
        1,
        1,
      ]]);
    });
  },
});

Deno.test("score --engine chdb without chdb installed exits 2 and names the command that installs it", async () => {
  const dir = await tempDir("lossbook-chdb-none-");
  const saved = Deno.env.get("XDG_CACHE_HOME");
  Deno.env.set("XDG_CACHE_HOME", dir);
  try {
    const r = await runCli([
      "score",
      "data/examples/model_ab.jsonl",
      "--engine",
      "chdb",
    ]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /not installed: run `lossbook engine install chdb`/);
    assert.equal(r.stdout, "");
  } finally {
    if (saved === undefined) Deno.env.delete("XDG_CACHE_HOME");
    else Deno.env.set("XDG_CACHE_HOME", saved);
  }
});
