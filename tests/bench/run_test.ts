// The benchmark runner (bench/run.ts): its arguments, its case list and
// selection, its ratios and its cache, and one small case end to end, so
// that the runner cannot rot between the runs that measure. No test here
// asserts a speed.
import assert from "node:assert/strict";
import {
  addRatios,
  allCases,
  GROUPS,
  parseRunArgs,
  selectCases,
  UsageError,
} from "../../bench/run.ts";
import { cachedInput, cacheKey } from "../../bench/_cache.ts";
import { type Result, resultOf } from "../../bench/_measure.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

async function runner(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `${ROOT}bench/run.ts`, ...args],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
  };
}

Deno.test("bench runner: arguments", () => {
  assert.deepEqual(parseRunArgs([]), {
    only: undefined,
    list: false,
    json: false,
    help: false,
    rows: undefined,
    rounds: undefined,
    dir: undefined,
    cli: undefined,
  });
  const args = parseRunArgs([
    "--only",
    "score-jsonl,ledger",
    "--only",
    "sweep",
    "--rows",
    "1000",
    "--rounds",
    "1",
    "--dir",
    "/tmp/x",
    "--json",
  ]);
  assert.deepEqual(args.only, ["score-jsonl", "ledger", "sweep"]);
  assert.equal(args.rows, 1000);
  assert.equal(args.rounds, 1);
  assert.equal(args.dir, "/tmp/x");
  assert.equal(args.json, true);
  assert.equal(parseRunArgs(["--list"]).list, true);
  for (
    const bad of [
      ["--rows", "0"],
      ["--rows", "1e3"],
      ["--rows", "-5"],
      ["--rounds", "two"],
      ["--only", ""],
      ["--only"],
      ["--bogus"],
      ["score-jsonl"],
    ]
  ) {
    assert.throws(() => parseRunArgs(bad), UsageError, bad.join(" "));
  }
});

Deno.test("bench runner: case names and peers", () => {
  const cases = allCases();
  const names = cases.map((c) => c.info.name);
  const groups = GROUPS.map((g) => g.name);
  // one namespace for --only: no case shares a name with another or a group
  assert.equal(
    new Set([...names, ...groups]).size,
    names.length + groups.length,
  );
  for (const { group, info } of cases) {
    for (const p of info.peers ?? []) {
      assert.ok(
        group.cases.some((c) => c.name === p && c.name !== info.name),
        `${info.name}: its peer ${p} is not in its group ${group.name}`,
      );
    }
  }
  const jsonl = cases.find((c) => c.info.name === "score-jsonl")!.info;
  assert.deepEqual(jsonl.peers, ["duckdb-query", "duckdb-process"]);
  assert.equal(jsonl.rows, 1_000_000);
});

Deno.test("bench runner: selection", () => {
  assert.deepEqual(
    [...selectCases(["score-jsonl"])].sort(),
    ["duckdb-process", "duckdb-query", "score-jsonl"],
  );
  assert.deepEqual([...selectCases(["duckdb-query"])], ["duckdb-query"]);
  const group = selectCases(["jsonl"]);
  assert.ok(group.has("pandas-jsonl") && group.has("score-jsonl-duckdb"));
  const all = selectCases(undefined);
  assert.ok(all.has("score-jsonl") && all.has("bench-scoring"));
  assert.ok(!all.has("duckdb-csv"), "an opt-in case runs only when named");
  const csv = selectCases(["duckdb-csv"]);
  assert.ok(csv.has("duckdb-csv") && csv.has("duckdb-parquet"));
  assert.throws(() => selectCases(["nope"]), UsageError);
});

Deno.test("bench runner: ratios, per row when sizes differ", () => {
  const r = (name: string, rows: number, samples: number[], peers?: string[]) =>
    resultOf({
      name,
      what: name,
      timing: "process",
      rows,
      peakRssBytes: 100,
      rssSource: null,
      peers,
    }, samples);
  const results: Result[] = [
    r("ours", 1000, [2, 1, 3], ["peer", "slice", "absent"]),
    r("peer", 1000, [0.5, 0.6]),
    r("slice", 100, [0.25]),
  ];
  addRatios(results);
  assert.deepEqual(results[0].ratios, { peer: 2, slice: 0.4 });
  assert.equal(results[0].median, 2);
  assert.deepEqual(results[0].extra?.ratiosOfMedians, {
    peer: 2 / 0.55,
    slice: 0.8,
  });
  assert.equal(results[1].ratios, undefined);
});

Deno.test("bench cache: generated once, then reused", async () => {
  const root = await Deno.makeTempDir();
  try {
    assert.equal(
      cacheKey("g", { a: 1, b: [1, { c: 2, d: 3 }] }),
      cacheKey("g", { b: [1, { d: 3, c: 2 }], a: 1 }),
    );
    assert.notEqual(cacheKey("g", { a: 1 }), cacheKey("g", { a: 2 }));
    let generated = 0;
    const make = (dir: string) => {
      generated++;
      return Deno.writeTextFile(`${dir}/f.txt`, "x");
    };
    const first = await cachedInput(root, "g", { n: 1 }, 10, make);
    const again = await cachedInput(root, "g", { n: 1 }, 10, make);
    assert.equal(first.dir, again.dir);
    assert.deepEqual([first.reused, again.reused, generated], [false, true, 1]);
    assert.equal(await Deno.readTextFile(`${again.dir}/f.txt`), "x");
    // a generator that fails leaves nothing a later run would reuse
    await assert.rejects(() =>
      cachedInput(root, "g", { n: 2 }, 10, () => Promise.reject(new Error("x")))
    );
    const left = [...Deno.readDirSync(root)].map((e) => e.name);
    assert.deepEqual(left, [first.dir.split("/").at(-1)]);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("bench runner: --list, and a mistake exits 2 with the usage", async () => {
  const list = await runner(["--list"]);
  assert.equal(list.code, 0, list.stderr);
  for (const { info } of allCases()) {
    assert.match(list.stdout, new RegExp(`^${info.name} `, "m"));
  }
  const bad = await runner(["--only", "nope"]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /no case or group named nope/);
  assert.match(bad.stderr, /usage: deno task bench/);
});

Deno.test("bench runner: score-jsonl end to end on 1,000 rows", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const run = await runner([
      "--only",
      "score-jsonl",
      "--rows",
      "1000",
      "--rounds",
      "1",
      "--dir",
      dir,
      "--json",
    ]);
    assert.equal(run.code, 0, run.stderr);
    const doc = JSON.parse(run.stdout);
    assert.deepEqual(doc.failed, []);
    const byName = new Map<string, Result>(
      doc.results.map((r: Result) => [r.name, r]),
    );
    assert.deepEqual(
      [...byName.keys()],
      ["score-jsonl", "duckdb-query", "duckdb-process"],
    );
    for (const r of byName.values()) {
      assert.equal(r.rows, 1000);
      assert.equal(r.samples.length, 1);
      assert.ok(r.best > 0 && r.median === r.best, r.name);
    }
    assert.equal(byName.get("duckdb-query")!.timing, "in-process");
    assert.equal(byName.get("duckdb-process")!.timing, "process");
    const ratios = byName.get("score-jsonl")!.ratios!;
    assert.deepEqual(Object.keys(ratios), ["duckdb-query", "duckdb-process"]);
    assert.ok(Object.values(ratios).every((x) => Number.isFinite(x) && x > 0));
    // the generated input is in the cache folder, complete
    const cached = [...Deno.readDirSync(dir)].map((e) => e.name);
    assert.equal(cached.length, 1);
    assert.match(cached[0], /^decisions-jsonl-[0-9a-f]{12}$/);
    const lines = (await Deno.readTextFile(
      `${dir}/${cached[0]}/decisions.jsonl`,
    )).trim().split("\n");
    assert.equal(lines.length, 1000);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
