// The cluster unit on every engine: a run whose decisions name clusters is
// counted by cluster (taskShare sums 1 / the model's decisions in the
// cluster), by the in-process readers (the Arquero table, JSONL text and
// file, with and without workers, Arrow) and the SQL engines (DuckDB over
// Parquet, CSV and JSONL, chdb when installed, PostgreSQL when a server is
// given); `unit: "taskId"` counts tasks as if the field were absent; and a
// run that breaks a cluster rule is refused by each with the same file,
// line or row, and field.
import assert from "node:assert/strict";
import type { Decision } from "../../../lib/decision/decision.ts";
import { decisionStats } from "../../../lib/decision/decision_stats.ts";
import type { DecisionUnit } from "../../../lib/decision/cluster.ts";
import type { StatsRow } from "../../../lib/metrics/sufficient_stats.ts";
import {
  DECISION_COLUMNS,
  decisionTable,
  parseDecisionsJsonl,
  readDecisionsJsonl,
} from "../../../lib/read/load_decisions.ts";
import { jsonlStats } from "../../../lib/read/jsonl_text_stats.ts";
import { jsonlStatsFile } from "../../../lib/read/jsonl_stats.ts";
import {
  arrowDecisionStats,
  decisionsToArrow,
  parseDecisionsArrow,
} from "../../../lib/read/arrow.ts";
import { loadDecisions } from "../../../lib/read/load_any.ts";
import { writeDecisionsCsv } from "../../../lib/read/csv.ts";
import { writeDecisionsParquet } from "../../../lib/read/parquet.ts";
import { duckdbDecisionStats } from "../../../lib/sql/duckdb_stats.ts";
import { duckdbJsonlStats } from "../../../lib/sql/duckdb_jsonl.ts";
import { chdbDecisionStats } from "../../../lib/sql/chdb_stats.ts";
import { installedChdb } from "../../../lib/sql/chdb_install.ts";
import { postgresDecisionStats } from "../../../lib/sql/postgres_stats.ts";
import { decision, tempDir } from "../../_helpers.ts";
import { pgTest, withPgTable } from "../../_pg.ts";

const SEVERITY = ["LOW", "MEDIUM", "HIGH", "CRITICAL"] as const;

/**
 * Two models on 48 tasks in 9 clusters of 1 to 9 tasks, each cluster's
 * tasks of mixed severities and gold classes, some tasks with two trials.
 */
function clusteredRun(): Decision[] {
  const out: Decision[] = [];
  for (const modelId of ["a", "b"]) {
    for (let t = 0; t < 48; t++) {
      const trials = t % 5 === 0 ? 2 : 1;
      for (let k = 0; k < trials; k++) {
        const i = out.length;
        out.push(decision({
          modelId,
          taskId: `t${t}`,
          trial: k,
          cluster: `doc-${Math.floor(Math.sqrt(t * 1.7))}`,
          severity: SEVERITY[t % 4],
          trueClass: t % 3 === 0 ? "MATCH" : "AMOUNT_MISMATCH",
          predClass: i % 7 === 0
            ? "DUPLICATE"
            : i % 4 === 0
            ? "MATCH"
            : "AMOUNT_MISMATCH",
          pCorrect: [0.1, 0.7, 1 / 3, null][i % 4],
          action: i % 9 === 0 ? "escalate" : "auto",
        }));
      }
    }
  }
  return out;
}

/** The decisions without their cluster. */
function unclustered(ds: readonly Decision[]): Decision[] {
  return ds.map(({ cluster: _, ...d }) => d);
}

function jsonl(ds: readonly Decision[]): string {
  return ds.map((d) => JSON.stringify(d)).join("\n") + "\n";
}

/** The run written as each format reads it. */
async function files(name: string, ds: readonly Decision[]) {
  const dir = await tempDir();
  const path = (ext: string) => `${dir}/${name}.${ext}`;
  await Deno.writeTextFile(path("jsonl"), jsonl(ds));
  const table = decisionTable(ds);
  await writeDecisionsParquet(path("parquet"), table, { threads: 1 });
  await writeDecisionsCsv(path("csv"), table);
  await Deno.writeFile(path("arrow"), decisionsToArrow(table));
  return {
    jsonl: path("jsonl"),
    parquet: path("parquet"),
    csv: path("csv"),
    arrow: path("arrow"),
  };
}

/** Every engine's statistics of a file set, with the unit each reports. */
async function everyEngine(
  f: Awaited<ReturnType<typeof files>>,
  unit: DecisionUnit | undefined,
): Promise<Array<[string, StatsRow[], DecisionUnit]>> {
  const out: Array<[string, StatsRow[], DecisionUnit]> = [];
  const told = async (
    name: string,
    run: (onUnit: (u: DecisionUnit) => void) => Promise<StatsRow[]>,
  ) => {
    let got: DecisionUnit | null = null;
    const stats = await run((u) => got = u);
    out.push([name, stats, got!]);
  };
  for (const path of [f.jsonl, f.parquet, f.csv, f.arrow]) {
    await told(
      `table ${path}`,
      async (onUnit) =>
        decisionStats(await loadDecisions(path), { unit, onUnit }),
    );
  }
  const text = jsonl(await readDecisionsJsonl(f.jsonl));
  const fromText = jsonlStats(text, { unit });
  out.push(["jsonl text", fromText.stats, fromText.unit]);
  for (const workers of [1, 2]) {
    const r = await jsonlStatsFile(f.jsonl, {
      unit,
      workers,
      segmentBytes: 1024,
    });
    out.push([`jsonl file, ${workers} workers`, r.stats, r.unit]);
  }
  const arrow = arrowDecisionStats(await Deno.readFile(f.arrow), { unit });
  out.push(["arrow columns", arrow.stats, arrow.unit]);
  for (const path of [f.parquet, f.csv]) {
    await told(
      `duckdb ${path}`,
      (onUnit) => duckdbDecisionStats(path, { unit, onUnit, threads: 2 }),
    );
  }
  await told(
    "duckdb jsonl",
    (onUnit) =>
      duckdbJsonlStats(f.jsonl, {
        unit,
        onUnit,
        onFallback: (why) => assert.fail(`duckdb jsonl fell back: ${why}`),
      }),
  );
  const library = installedChdb();
  if (library !== null) {
    for (const path of [f.jsonl, f.parquet, f.csv]) {
      await told(
        `chdb ${path}`,
        (onUnit) =>
          chdbDecisionStats(path, {
            library,
            unit,
            onUnit,
            onFallback: (why) => assert.fail(`chdb fell back: ${why}`),
          }),
      );
    }
  }
  return out;
}

Deno.test("every engine counts clusters when the decisions name them, and tasks under unit taskId, to the last bit", async () => {
  const ds = clusteredRun();
  const want = decisionStats(decisionTable(ds));
  const tasks = decisionStats(decisionTable(unclustered(ds)));
  // a model's shares add up to its clusters; fewer than its tasks
  for (const m of ["a", "b"]) {
    const total = want.filter((r) => r.modelId === m)
      .reduce((s, r) => s + r.taskShare!, 0);
    const clusters = new Set(
      ds.filter((d) => d.modelId === m).map((d) => d.cluster),
    );
    assert.ok(Math.abs(total - clusters.size) < 1e-9, `${m}: ${total}`);
    assert.ok(clusters.size < 48);
  }
  assert.notDeepEqual(want, tasks);
  const f = await files("run", ds);
  for (const [name, stats, unit] of await everyEngine(f, undefined)) {
    assert.deepEqual(stats, want, name);
    assert.equal(unit, "cluster", name);
  }
  for (const [name, stats, unit] of await everyEngine(f, "taskId")) {
    assert.deepEqual(stats, tasks, `${name}, unit taskId`);
    assert.equal(unit, "taskId", name);
  }
});

Deno.test("with one cluster per task, every engine gives the statistics of the run without clusters", async () => {
  const ds = clusteredRun().map((d) => ({ ...d, cluster: `c-${d.taskId}` }));
  const want = decisionStats(decisionTable(unclustered(ds)));
  for (
    const [name, stats] of await everyEngine(await files("one", ds), undefined)
  ) {
    assert.deepEqual(stats, want, name);
  }
});

/**
 * A hand-counted run of one model on one gold class: t1 answered in three
 * trials (right, missed, missed), t2 in two (right, escalated), t3 and t4
 * once (a wrong type; right); t1 and t2 in cluster c1, t3 and t4 in c2.
 */
function costlyRun(): Decision[] {
  const d = (taskId: string, trial: number, patch: Partial<Decision>) =>
    decision({
      taskId,
      trial,
      cluster: taskId === "t1" || taskId === "t2" ? "c1" : "c2",
      ...patch,
    });
  return [
    d("t1", 0, {}),
    d("t1", 1, { predClass: "MATCH" }),
    d("t1", 2, { predClass: "MATCH" }),
    d("t2", 0, {}),
    d("t2", 1, { action: "escalate" }),
    d("t3", 0, { predClass: "DUPLICATE" }),
    d("t4", 0, {}),
  ];
}

function pairsOf(stats: readonly StatsRow[]): string[] {
  return stats.map((r) =>
    `${r.predClass}/${r.action}: n ${r.n}, pairs ${r.unitCostPairs}`
  );
}

Deno.test("every engine counts unitCostPairs by hand on a multi-trial run, and by cluster when the decisions name one", async () => {
  const ds = costlyRun();
  // by task: t1 has 2 costly decisions, t2 1, t3 1, t4 none; a cell adds,
  // for each of its decisions, its task's costly decisions
  const byTask = [
    "AMOUNT_MISMATCH/auto: n 3, pairs 3", // t1 · 2 + t2 · 1 + t4 · 0
    "AMOUNT_MISMATCH/escalate: n 1, pairs 1", // t2
    "DUPLICATE/auto: n 1, pairs 1", // t3
    "MATCH/auto: n 2, pairs 4", // t1's two misses · 2
  ];
  // by cluster: c1 (t1, t2) has 3 costly decisions, c2 (t3, t4) 1
  const byCluster = [
    "AMOUNT_MISMATCH/auto: n 3, pairs 7", // 3 + 3 + 1
    "AMOUNT_MISMATCH/escalate: n 1, pairs 3",
    "DUPLICATE/auto: n 1, pairs 1",
    "MATCH/auto: n 2, pairs 6",
  ];
  assert.deepEqual(pairsOf(decisionStats(decisionTable(ds))), byCluster);
  const f = await files("costly", ds);
  for (const [name, stats] of await everyEngine(f, undefined)) {
    assert.deepEqual(pairsOf(stats), byCluster, name);
  }
  for (const [name, stats] of await everyEngine(f, "taskId")) {
    assert.deepEqual(pairsOf(stats), byTask, `${name}, unit taskId`);
  }
  const plain = await files("costly-tasks", unclustered(ds));
  for (const [name, stats] of await everyEngine(plain, undefined)) {
    assert.deepEqual(pairsOf(stats), byTask, `${name}, no clusters`);
  }
});

pgTest(
  "PostgreSQL: postgresDecisionStats() counts unitCostPairs by hand, by cluster and by task",
  async (dsn) => {
    const flat = (decisionTable(costlyRun()).objects() as Record<
      string,
      unknown
    >[])
      .map((r) =>
        Object.fromEntries(
          DECISION_COLUMNS.map((c) => [c.toLowerCase(), r[c] ?? null]),
        )
      );
    await withPgTable(dsn, flat, async (_sql, table) => {
      assert.deepEqual(
        pairsOf(await postgresDecisionStats(dsn, table)).map((s) =>
          s.replace(/.*pairs /, "")
        ),
        ["7", "3", "1", "6"],
      );
      assert.deepEqual(
        pairsOf(await postgresDecisionStats(dsn, table, { unit: "taskId" }))
          .map((s) => s.replace(/.*pairs /, "")),
        ["3", "1", "1", "4"],
      );
    });
  },
);

pgTest(
  "PostgreSQL: postgresDecisionStats() counts clusters, and tasks under unit taskId",
  async (dsn) => {
    const ds = clusteredRun();
    const flat = (decisionTable(ds).objects() as Record<string, unknown>[])
      .map((r) =>
        Object.fromEntries(
          DECISION_COLUMNS.map((c) => [c.toLowerCase(), r[c] ?? null]),
        )
      );
    await withPgTable(dsn, flat, async (_sql, table) => {
      let unit: DecisionUnit | null = null;
      const got = await postgresDecisionStats(dsn, table, {
        onUnit: (u) => unit = u,
      });
      assert.deepEqual(got, decisionStats(decisionTable(ds)));
      assert.equal(unit, "cluster");
      assert.deepEqual(
        await postgresDecisionStats(dsn, table, { unit: "taskId" }),
        decisionStats(decisionTable(unclustered(ds))),
      );
    });
    // a task in two clusters: rows are taken in key order, a's before b's
    const split = flat.map((r, i) =>
      i === 3 ? { ...r, cluster: "elsewhere" } : r
    );
    await withPgTable(dsn, split, async (_sql, table) => {
      await assert.rejects(
        () => postgresDecisionStats(dsn, table),
        {
          name: "RangeError",
          message:
            `Cannot load table ${table}: row with runId "r1", modelId "b", taskId "t2", trial 0: cluster "doc-1" of taskId "t2" differs from "elsewhere", which row with runId "r1", modelId "a", taskId "t2", trial 0 names: all the decisions of a task name one cluster`,
        },
      );
    });
  },
);

// What a run that breaks a rule is refused with, by each reader of a format
async function refusals(
  f: Awaited<ReturnType<typeof files>>,
): Promise<Array<[string, string]>> {
  const message = async (read: () => unknown): Promise<string> => {
    try {
      await read();
    } catch (error) {
      return (error as Error).message;
    }
    return "accepted";
  };
  const out: Array<[string, string]> = [
    [
      "jsonl parse",
      await message(async () =>
        parseDecisionsJsonl(await Deno.readTextFile(f.jsonl), { path: f.jsonl })
      ),
    ],
    ["jsonl read", await message(() => readDecisionsJsonl(f.jsonl))],
    [
      "jsonl text stats",
      await message(async () =>
        jsonlStats(await Deno.readTextFile(f.jsonl), { path: f.jsonl })
      ),
    ],
    ["jsonl file stats", await message(() => jsonlStatsFile(f.jsonl))],
    [
      "jsonl workers",
      await message(() =>
        jsonlStatsFile(f.jsonl, { workers: 2, segmentBytes: 1024 })
      ),
    ],
    ["duckdb jsonl", await message(() => duckdbJsonlStats(f.jsonl))],
    ["csv load", await message(() => loadDecisions(f.csv))],
    ["duckdb csv", await message(() => duckdbDecisionStats(f.csv))],
    ["parquet load", await message(() => loadDecisions(f.parquet))],
    ["duckdb parquet", await message(() => duckdbDecisionStats(f.parquet))],
    [
      "arrow parse",
      await message(async () =>
        parseDecisionsArrow(await Deno.readFile(f.arrow), { path: f.arrow })
      ),
    ],
    [
      "arrow stats",
      await message(async () =>
        arrowDecisionStats(await Deno.readFile(f.arrow), { path: f.arrow })
      ),
    ],
  ];
  const library = installedChdb();
  if (library !== null) {
    for (const path of [f.jsonl, f.parquet, f.csv]) {
      out.push([
        `chdb ${path}`,
        await message(() => chdbDecisionStats(path, { library })),
      ]);
    }
  }
  return out;
}

/** The message each format's readers give, by their place words. */
function expect(
  f: Awaited<ReturnType<typeof files>>,
  why: (place: (n: number) => string) => string,
): (reader: string) => string {
  return (reader) => {
    const [path, place] = reader.includes("csv")
      ? [f.csv, (n: number) => `line ${n + 1}`] // the header is line 1
      : reader.includes("parquet")
      ? [f.parquet, (n: number) => `row ${n}`]
      : reader.includes("arrow")
      ? [f.arrow, (n: number) => `row ${n}`]
      : [f.jsonl, (n: number) => `line ${n}`];
    return `Cannot load run export ${path}: ${why(place)}`;
  };
}

Deno.test("a run whose decisions name a cluster but for some is refused by every reader, naming the first that breaks the rule and the line it disagrees with", async () => {
  const ds = clusteredRun().map((d, i) => i === 40 ? unclustered([d])[0] : d);
  const f = await files("mixed", ds);
  const want = expect(
    f,
    (at) =>
      `${at(41)}: cluster is missing, but ${
        at(1)
      } names one ("doc-0"): a run's decisions name a cluster all or none`,
  );
  for (const [reader, got] of await refusals(f)) {
    assert.equal(got, want(reader), reader);
  }
  // the other way round: the first decision names none
  const late = clusteredRun().map((d, i) => i === 0 ? unclustered([d])[0] : d);
  const g = await files("late", late);
  const other = expect(
    g,
    (at) =>
      `${at(2)}: cluster "doc-0" is named, but ${
        at(1)
      } names none: a run's decisions name a cluster all or none`,
  );
  for (const [reader, got] of await refusals(g)) {
    assert.equal(got, other(reader), reader);
  }
});

Deno.test("a task whose decisions name two clusters is refused by every reader, after every other check of the file", async () => {
  // model b's decision of task t7 (line 61) names another cluster
  const ds = clusteredRun();
  const at = ds.findIndex((d) => d.modelId === "b" && d.taskId === "t7");
  const first = ds.findIndex((d) => d.taskId === "t7");
  const split = ds.map((d, i) => i === at ? { ...d, cluster: "doc-x" } : d);
  const f = await files("split", split);
  const want = expect(
    f,
    (place) =>
      `${
        place(at + 1)
      }: cluster "doc-x" of taskId "t7" differs from "doc-3", which ${
        place(first + 1)
      } names: all the decisions of a task name one cluster`,
  );
  for (const [reader, got] of await refusals(f)) {
    assert.equal(got, want(reader), reader);
  }
  // a bad value later in the file is named first: the rules come last
  const bad = split.map((d, i) =>
    i === split.length - 1 ? { ...d, pCorrect: 1.5 } : d
  );
  assert.throws(
    () => parseDecisionsJsonl(jsonl(bad), { path: "b.jsonl" }),
    new RegExp(`line ${bad.length}: pCorrect must be in \\[0, 1\\]`),
  );
});

Deno.test("asking for the cluster of a run that names none is refused by every engine", async () => {
  const f = await files("plain", unclustered(clusteredRun()));
  const none = /no decision names a cluster, so there is none to count/;
  assert.throws(
    () =>
      decisionStats(decisionTable(unclustered(clusteredRun())), {
        unit: "cluster",
      }),
    none,
  );
  await assert.rejects(
    () => jsonlStatsFile(f.jsonl, { unit: "cluster" }),
    none,
  );
  assert.throws(
    () => jsonlStats(jsonl(unclustered(clusteredRun())), { unit: "cluster" }),
    none,
  );
  assert.throws(
    () => arrowDecisionStats(Deno.readFileSync(f.arrow), { unit: "cluster" }),
    none,
  );
  for (const path of [f.parquet, f.csv]) {
    await assert.rejects(
      () => duckdbDecisionStats(path, { unit: "cluster" }),
      none,
    );
  }
  await assert.rejects(
    () => duckdbJsonlStats(f.jsonl, { unit: "cluster" }),
    none,
  );
});
