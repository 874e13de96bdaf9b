// --cluster on every command that prints an interval, a test or a plan, and
// in every library function: a run whose decisions name clusters counts
// them (the JSON says `unit: "cluster"`), `--cluster taskId` gives the bytes
// of the same run without the field, a value a run cannot take is refused,
// and runs that break a cluster rule together are refused naming both.
import assert from "node:assert/strict";
import {
  board,
  calibrate,
  card,
  compare,
  escalate,
  plan,
  score,
  sweep,
} from "../../mod.ts";
import { runCli, tempDir } from "../_helpers.ts";

const RUN = "data/examples/model_ab.jsonl";

// model_ab with 40 clusters of 20 tasks (the task number mod 40), with
// one cluster per task, and model A's decisions alone with their clusters
// and model B's alone without
async function clusteredRuns(): Promise<
  { many: string; one: string; a: string; b: string }
> {
  const dir = await tempDir();
  const lines = (await Deno.readTextFile(RUN)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  const write = async (
    name: string,
    ds: Record<string, unknown>[],
  ) => {
    const path = `${dir}/${name}.jsonl`;
    await Deno.writeTextFile(
      path,
      ds.map((d) => JSON.stringify(d)).join("\n") + "\n",
    );
    return path;
  };
  const many = lines.map((d) => ({
    ...d,
    cluster: `doc-${Number(d.taskId.replace(/\D/g, "")) % 40}`,
  }));
  return {
    many: await write("many", many),
    one: await write(
      "one",
      lines.map((d) => ({ ...d, cluster: `doc-${d.taskId}` })),
    ),
    a: await write("a", many.filter((d) => d.modelId === "A")),
    b: await write("b", lines.filter((d) => d.modelId === "B")),
  };
}

// a document without the keys that name its inputs and the unit
function numbers(doc: unknown): string {
  return JSON.stringify(
    doc,
    (k, v) => ["file", "files", "unit", "command"].includes(k) ? undefined : v,
  );
}

const FUNCTIONS = [
  ["score", () => score, { profiles: ["reconciliation"], resamples: 200 }],
  [
    "compare",
    () => compare,
    { a: "A", b: "B", profiles: ["reconciliation"], resamples: 200 },
  ],
  ["sweep", () => sweep, { points: 5 }],
  ["card", () => card, { profiles: ["reconciliation"], resamples: 200 }],
  ["board", () => board, { profiles: ["reconciliation"], resamples: 200 }],
] as const;

Deno.test("every library function counts the clusters a run names, and under cluster: taskId gives the document of the run without them", async () => {
  const { many } = await clusteredRuns();
  for (const [name, fn, options] of FUNCTIONS) {
    const f = fn() as unknown as (
      inputs: string[],
      o: Record<string, unknown>,
    ) => Promise<Record<string, unknown>>;
    const plain = await f([RUN], { ...options });
    const clustered = await f([many], { ...options });
    const overridden = await f([many], { ...options, cluster: "taskId" });
    assert.equal(numbers(overridden), numbers(plain), name);
    assert.equal("unit" in overridden, false, name);
    assert.equal(clustered.unit, "cluster", name);
    assert.notEqual(numbers(clustered), numbers(plain), name);
  }
});

Deno.test("calibrate and escalate fill a harness log's clusters, and count decisions whatever the unit: calibrate says so", async () => {
  const log = ["data/examples/harness/inspect_sonnet.json"];
  const flags = { severityField: "metadata.severity" };
  for (const fn of [calibrate, escalate]) {
    const f = fn as unknown as (
      inputs: string[],
      o: Record<string, unknown>,
    ) => Promise<Record<string, unknown>>;
    const plain = await f(log, flags);
    const clustered = await f(log, { ...flags, cluster: "metadata.class" });
    const tasks = await f(log, { ...flags, cluster: "taskId" });
    assert.equal("unit" in clustered, false);
    assert.deepEqual(tasks, plain);
    assert.equal(
      numbers({ ...clustered, warnings: undefined }),
      numbers({ ...plain, warnings: undefined }),
    );
    const warned = (clustered.warnings ?? []) as string[];
    if (fn === calibrate) {
      assert.match(
        warned.at(-1)!,
        /^the ECE interval counts decisions, not the clusters they name/,
      );
    } else assert.equal(warned.length, 0);
  }
  await assert.rejects(
    () => calibrate(log, { ...flags, cluster: "metadata.source" }),
    /sample 1 epoch 1: metadata\.source is missing \(--cluster metadata\.source\)/,
  );
});

Deno.test("score, compare, sweep, card and board print with --cluster what the library returns, and plan sizes a suite of clusters", async () => {
  const { many, one } = await clusteredRuns();
  for (
    const [name, args, fn] of [
      ["score", ["--profile", "reconciliation", "--resamples", "200"], score],
      [
        "compare",
        [
          "--a",
          "A",
          "--b",
          "B",
          "--profile",
          "reconciliation",
          "--resamples",
          "200",
        ],
        compare,
      ],
      ["sweep", ["--points", "5"], sweep],
      ["card", ["--profile", "reconciliation", "--resamples", "200"], card],
      ["board", ["--profile", "reconciliation", "--resamples", "200"], board],
    ] as const
  ) {
    for (
      const cluster of [[], ["--cluster", "cluster"], ["--cluster", "taskId"]]
    ) {
      const r = await runCli([name, many, ...args, ...cluster, "--json"]);
      assert.equal(r.code, 0, `${name} ${cluster.join(" ")}: ${r.stderr}`);
      const { profile: _, ...options } = Object.fromEntries(
        [...args, ...cluster].flatMap((a, i, all) =>
          a.startsWith("--") ? [[a.slice(2), all[i + 1]]] : []
        ),
      ) as Record<string, string>;
      const lib = await (fn as (
        i: string[],
        o: Record<string, unknown>,
      ) => Promise<unknown>)([many], {
        ...options,
        ...(_ === undefined ? {} : { profiles: [_] }),
      });
      // (card's command line names the flags as given, the library's as options)
      assert.equal(numbers(JSON.parse(r.stdout)), numbers(lib), name);
      if (name !== "card") {
        assert.equal(r.stdout, JSON.stringify(lib, null, 2) + "\n", name);
      }
    }
    // the human report names the unit
    const human = await runCli([name, many, ...args]);
    assert.match(
      human.stdout,
      name === "card"
        ? /Every interval and test counts clusters/
        : /unit: cluster/,
      name,
    );
  }
  // plan sizes a suite of clusters, and prints what the library returns
  const planArgs = ["--a", "A", "--b", "B", "--profile", "flat"];
  const planned = await runCli(["plan", many, ...planArgs, "--json"]);
  assert.equal(planned.code, 0, planned.stderr);
  const planLib = await plan([many], { a: "A", b: "B", profile: "flat" });
  assert.equal(planned.stdout, JSON.stringify(planLib, null, 2) + "\n");
  assert.equal(planLib.pilotClusters, 40);
  assert.match(
    (await runCli(["plan", many, ...planArgs])).stdout,
    /clusters to tell A from B in loss with power 0\.8: \d+ clusters \(about [\d,]+ tasks\)/,
  );
  // with one task per cluster, or the task as the unit, plan plans
  const opts = { a: "A", b: "B", profile: "flat", maxTasks: 64 } as const;
  const plain = await plan([RUN], opts);
  const single = await plan([one], opts);
  assert.equal(single.unit, "cluster");
  // ...and its clusters are its tasks
  assert.equal(single.pilotClusters, single.pilotTasks);
  assert.equal(single.clustersNeeded, single.tasksNeeded);
  assert.ok(single.powerAt.every((p) => p.clusters === p.tasks));
  assert.equal(
    JSON.stringify(
      JSON.parse(numbers(single)),
      (k, v) =>
        ["pilotClusters", "clustersNeeded", "clusters"].includes(k)
          ? undefined
          : v,
    ),
    numbers(plain),
  );
  assert.equal(
    numbers(await plan([many], { ...opts, cluster: "taskId" })),
    numbers(plain),
  );
});

Deno.test("with one cluster per task, score, compare and board give the numbers of the run without clusters", async () => {
  const { one } = await clusteredRuns();
  const o = { profiles: ["reconciliation"], resamples: 200 };
  assert.equal(numbers(await score([one], o)), numbers(await score([RUN], o)));
  const c = { ...o, a: "A", b: "B" };
  const strip = (doc: unknown) =>
    numbers(doc).replace(
      /, at \d+ effective clusters|, a cluster's tasks flipped together|, evidence counted in clusters|,"clusters":\d+/g,
      "",
    );
  assert.equal(strip(await compare([one], c)), strip(await compare([RUN], c)));
  assert.equal(
    strip(await board([one], o)).replace("per-cluster", "per-task"),
    strip(await board([RUN], o)),
  );
});

Deno.test("--cluster refuses what a run cannot take: a metadata path on decisions, the cluster of a run that names none, and runs of which only some name clusters", async () => {
  const path = await runCli(["score", RUN, "--cluster", "metadata.source"]);
  assert.equal(path.code, 2);
  assert.match(
    path.stderr,
    /--cluster on decisions must be taskId or cluster \(a metadata path such as metadata\.source fills the cluster of imported harness logs\), got "metadata\.source"/,
  );
  const none = await runCli(["score", RUN, "--cluster", "cluster"]);
  assert.equal(none.code, 2);
  assert.match(
    none.stderr,
    /no decision names a cluster, so there is none to count \(--cluster cluster\)/,
  );
  const { a, b } = await clusteredRuns();
  for (const command of ["score", "compare"]) {
    const mixed = await runCli([command, a, b]);
    assert.equal(mixed.code, 2, command);
    assert.match(
      mixed.stderr,
      /Cannot combine runs: .*b\.jsonl's decision for runId "third-number-month", modelId "B", taskId "recon-00000", trial 0: cluster is missing, but .*a\.jsonl's decision for runId "third-number-month", modelId "A", taskId "recon-00000", trial 0 names one \("doc-0"\): a run's decisions name a cluster all or none/,
      command,
    );
  }
  // with --cluster taskId the unit is the task, but the rule still holds
  const still = await runCli(["score", a, b, "--cluster", "taskId"]);
  assert.equal(still.code, 2);
});

Deno.test("import fills clusters from a harness log's metadata, and refuses --cluster for a file that is not a log", async () => {
  const dir = await tempDir();
  const out = `${dir}/d.jsonl`;
  const r = await runCli([
    "import",
    "data/examples/harness/inspect_sonnet.json",
    "--severity-field",
    "metadata.severity",
    "--cluster",
    "metadata.class",
    "--out",
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const ds = (await Deno.readTextFile(out)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  assert.deepEqual([...new Set(ds.map((d) => d.cluster))], [
    "AMOUNT_MISMATCH",
    "MATCH",
    "BENEFICIARY_MISMATCH",
    "VALUE_DATE_MISMATCH",
    "DUPLICATE",
  ]);
  // the decisions score by cluster
  const scored = await score([out], { profiles: ["flat"], resamples: 100 });
  assert.equal(scored.unit, "cluster");
  const rf = await runCli([
    "import",
    "data/examples/reconforge_run.json",
    "--cluster",
    "metadata.class",
    "--out",
    `${dir}/r.jsonl`,
  ]);
  assert.equal(rf.code, 2);
  assert.match(
    rf.stderr,
    /--cluster fills the clusters of harness logs \(inspect, lm-eval, helm, promptfoo\) here; --format reconforge decisions name their own cluster, or none/,
  );
});

Deno.test("export-sql --cluster cluster prints the aggregate by cluster and the query for tasks in two clusters", async () => {
  const task = await runCli(["export-sql", "--dialect", "postgres", "--json"]);
  const cluster = await runCli([
    "export-sql",
    "--dialect",
    "postgres",
    "--cluster",
    "cluster",
    "--json",
  ]);
  const t = JSON.parse(task.stdout);
  const c = JSON.parse(cluster.stdout);
  assert.match(t.aggregate, /PARTITION BY modelId, taskId\)/);
  // two windows over the unit: taskTrials and unitCostly
  assert.match(
    t.aggregate,
    /OVER \(PARTITION BY modelId, taskId\) AS unitCostly/,
  );
  assert.equal("unit" in t, false);
  assert.equal(c.unit, "cluster");
  assert.equal(
    c.aggregate,
    t.aggregate.replaceAll(
      "PARTITION BY modelId, taskId",
      "PARTITION BY modelId, cluster",
    ),
  );
  assert.match(c.clusterSplitTasks, /HAVING COUNT\(DISTINCT cluster\) > 1/);
  const bad = await runCli([
    "export-sql",
    "--dialect",
    "duckdb",
    "--cluster",
    "doc",
  ]);
  assert.equal(bad.code, 2);
});

Deno.test("ledger append stores clusters and refuses a batch that would mix a ledger, naming its line; replay counts clusters, and under --cluster taskId gives the ledger without them", async () => {
  const { many } = await clusteredRuns();
  const dir = await tempDir();
  const append = (ledger: string, run: string, at: string) =>
    runCli([
      "ledger",
      "append",
      ledger,
      run,
      "--served",
      "A",
      "--at",
      at,
      "--json",
    ]);
  const clustered = `${dir}/clustered.jsonl`;
  const plain = `${dir}/plain.jsonl`;
  assert.equal((await append(clustered, many, "2026-03-01T00:00:00Z")).code, 0);
  assert.equal((await append(plain, RUN, "2026-03-01T00:00:00Z")).code, 0);
  // a later batch without clusters: refused, nothing appended
  const later = `${dir}/later.jsonl`;
  await Deno.writeTextFile(
    later,
    (await Deno.readTextFile(RUN)).replaceAll(
      '"runId":"third-number-month"',
      '"runId":"second-month"',
    ),
  );
  const mixed = await append(clustered, later, "2026-03-02T00:00:00Z");
  assert.equal(mixed.code, 2);
  assert.match(
    mixed.stderr,
    new RegExp(
      `Cannot append ${later}: line 1 to ledger ${clustered}: cluster is missing, but record 1 names one \\("doc-0"\\): a run's decisions name a cluster all or none; nothing was appended`,
    ),
  );
  const replayed = async (ledger: string, ...extra: string[]) => {
    const r = await runCli([
      "replay",
      ledger,
      "--threshold",
      "0.3",
      "--route",
      "B",
      "--resamples",
      "200",
      "--json",
      ...extra,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const { ledger: _, ...rest } = JSON.parse(r.stdout);
    return rest;
  };
  const byCluster = await replayed(clustered);
  assert.equal(byCluster.unit, "cluster");
  assert.equal(byCluster.clusters, 40);
  assert.deepEqual(
    await replayed(clustered, "--cluster", "taskId"),
    await replayed(plain),
  );
  const refused = await runCli([
    "replay",
    plain,
    "--threshold",
    "0.3",
    "--cluster",
    "cluster",
  ]);
  assert.equal(refused.code, 2);
  assert.match(
    refused.stderr,
    /Cannot replay ledger .*plain\.jsonl: no decision names a cluster/,
  );
  // drift's tests count decisions: it says so when the ledger names clusters
  const drift = await runCli([
    "drift",
    clustered,
    "--split",
    "2026-03-01T00:00:00Z",
    "--json",
  ]);
  assert.match(
    JSON.parse(drift.stdout).warnings[0],
    /^each of drift's tests counts decisions, not the clusters they name/,
  );
  const quiet = await runCli([
    "drift",
    plain,
    "--split",
    "2026-03-01T00:00:00Z",
    "--json",
  ]);
  assert.equal("warnings" in JSON.parse(quiet.stdout), false);
});
