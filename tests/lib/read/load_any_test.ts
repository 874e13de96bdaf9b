import assert from "node:assert/strict";
import {
  DECISION_FORMATS,
  decisionFormatOf,
  loadDecisions,
  writeDecisions,
} from "../../../lib/read/load_any.ts";
import {
  decisionTable,
  loadDecisionsJsonl,
} from "../../../lib/read/load_decisions.ts";
import { decision, tempDir } from "../../_helpers.ts";

const EXAMPLE =
  new URL("../../../data/examples/model_ab.jsonl", import.meta.url).pathname;

Deno.test("decisionFormatOf() maps each extension to its format and refuses the rest", () => {
  const cases: Array<[string, string]> = [
    ["a.jsonl", "jsonl"],
    ["a.csv", "csv"],
    ["a.arrow", "arrow"],
    ["a.feather", "arrow"],
    ["a.ipc", "arrow"],
    ["A.PARQUET", "parquet"],
  ];
  for (const [path, format] of cases) {
    assert.equal(decisionFormatOf(path), format);
  }
  for (const path of ["a.json", "a.tsv", "a.parquet.gz", "a"]) {
    assert.throws(() => decisionFormatOf(path), {
      name: "TypeError",
      message: new RegExp(
        `^Cannot read run export ${
          path.replaceAll(".", "\\.")
        }: unknown extension`,
      ),
    });
  }
});

Deno.test("loadDecisions() gives the JSONL table back from every format it writes", async () => {
  const want = await loadDecisionsJsonl(EXAMPLE);
  const dir = await tempDir();
  for (const ext of ["jsonl", "csv", "arrow", "feather", "ipc", "parquet"]) {
    const path = `${dir}/run.${ext}`;
    await writeDecisions(path, want);
    assert.deepEqual(
      (await loadDecisions(path)).objects(),
      want.objects(),
      ext,
    );
  }
  // the JSONL writer writes what the JSONL reader reads, byte for byte
  assert.equal(
    await Deno.readTextFile(`${dir}/run.jsonl`),
    await Deno.readTextFile(EXAMPLE),
  );
});

Deno.test("loadDecisions() takes an explicit format over the extension and refuses an unknown one", async () => {
  const dir = await tempDir();
  const t = decisionTable([decision()]);
  await writeDecisions(`${dir}/run.txt`, t, { format: "csv" });
  assert.deepEqual(
    (await loadDecisions(`${dir}/run.txt`, { format: "csv" })).objects(),
    t.objects(),
  );
  await assert.rejects(() => loadDecisions(`${dir}/run.txt`), {
    name: "TypeError",
    message: /unknown extension/,
  });
  await assert.rejects(
    // deno-lint-ignore no-explicit-any
    () => loadDecisions(`${dir}/run.txt`, { format: "xlsx" as any }),
    { name: "TypeError", message: /Unknown run export format "xlsx"/ },
  );
  assert.deepEqual([...DECISION_FORMATS], ["jsonl", "csv", "arrow", "parquet"]);
});

Deno.test("loadDecisions() passes on each format's error naming file, place and field", async () => {
  const dir = await tempDir();
  const bad = decisionTable([decision(), decision({ taskId: "x" })])
    .derive({
      pCorrect: (d: { taskId: string; pCorrect: number }) =>
        d.taskId === "x" ? 1.5 : d.pCorrect,
    });
  const expected: Record<string, string> = {
    csv: "line 3",
    arrow: "row 2",
    parquet: "row 2",
  };
  for (const [ext, where] of Object.entries(expected)) {
    const path = `${dir}/bad.${ext}`;
    await writeDecisions(path, bad);
    await assert.rejects(() => loadDecisions(path), {
      name: "RangeError",
      message:
        `Cannot load run export ${path}: ${where}: pCorrect must be in [0, 1], got 1.5`,
    });
  }
  await assert.rejects(() => writeDecisions(`${dir}/bad.jsonl`, bad), {
    name: "RangeError",
    message:
      /Cannot write JSONL run export: row 2: pCorrect must be in \[0, 1\], got 1\.5/,
  });
});

Deno.test("importing the loaders needs no --allow-ffi; DuckDB work names the flags it needs", async () => {
  const root = new URL("../../../", import.meta.url).pathname;
  const script = `
    import { loadDecisions } from "${root}lib/read/load_any.ts";
    import { duckdbDecisionStats } from "${root}lib/sql/duckdb_stats.ts";
    const t = await loadDecisions("${EXAMPLE}");
    console.log(t.numRows());
    await loadDecisions("/tmp/none.parquet").catch((e) => console.log(e.constructor.name));
    await duckdbDecisionStats("${root}deno.json", { format: "parquet" })
      .catch((e) => console.log(e.message.split(":")[0]));
  `;
  const file = `${await tempDir()}/no_ffi.ts`;
  await Deno.writeTextFile(file, script);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      `--config=${root}deno.json`,
      file,
    ],
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  assert.deepEqual(lines, [
    "1600",
    "NotFound",
    "Cannot start DuckDB (run with --allow-ffi --allow-sys --allow-read --allow-write --allow-env)",
  ], new TextDecoder().decode(out.stderr));
});
