// Large harness logs, whole process against whole process: `lossbook import
// … --out` and `lossbook score` on an inspect_ai `.eval` archive
// (scripts/make_big_eval.ts: one epoch, deflate entries, about 1 KB of text
// a sample) and on an lm-evaluation-harness samples file of the same number
// of samples (scripts/make_big_lm_eval.ts), each against Debian's python3
// reading the same samples: `zipfile` and `json.loads` for every sample entry
// of the archive, `json.loads` on every line of the samples file. Peak RSS
// of each process is reported beside its time.
import {
  type CaseInfo,
  DENO_RUN,
  type Group,
  roundsOf,
  rowsOf,
} from "../_case.ts";
import { cachedInput, scratch } from "../_cache.ts";
import { BIG_LM_EVAL_SAMPLES } from "../../scripts/make_big_lm_eval.ts";
import {
  type ChildRun,
  maxOrNull,
  resultOf,
  rssSource,
  runTimed,
} from "../_measure.ts";

const PYTHON = "/usr/bin/python3";

// the peers: read every sample and parse it, nothing more
const PY_EVAL = `import json, sys, zipfile
n = 0
with zipfile.ZipFile(sys.argv[1]) as z:
    for name in z.namelist():
        if name.startswith("samples/") and name.endswith(".json"):
            json.loads(z.read(name))
            n += 1
print(n)`;
const PY_LM_EVAL = `import json, sys
n = 0
with open(sys.argv[1], "rb") as f:
    for line in f:
        if line.strip():
            json.loads(line)
            n += 1
print(n)`;

const SAMPLES = 200_000;

const CASES: CaseInfo[] = [
  {
    name: "harness-import-eval",
    what: "lossbook import LOG.eval --out FILE.jsonl, whole process",
    rows: SAMPLES,
    peers: ["harness-python-eval"],
  },
  {
    name: "harness-score-eval",
    what: "lossbook score LOG.eval --json, whole process",
    rows: SAMPLES,
    peers: ["harness-python-eval"],
  },
  {
    name: "harness-python-eval",
    what: "python3: zipfile + json.loads of every sample entry",
    rows: SAMPLES,
  },
  {
    name: "harness-import-lm-eval",
    what: "lossbook import samples_*.jsonl --out FILE.jsonl, whole process",
    rows: SAMPLES,
    peers: ["harness-python-lm-eval"],
  },
  {
    name: "harness-score-lm-eval",
    what: "lossbook score samples_*.jsonl --json, whole process",
    rows: SAMPLES,
    peers: ["harness-python-lm-eval"],
  },
  {
    name: "harness-python-lm-eval",
    what: "python3: json.loads of every line of the samples file",
    rows: SAMPLES,
  },
];

async function generated(
  ctx: Parameters<Group["run"]>[0],
  script: string,
  n: number,
  args: (dir: string) => string[],
): Promise<string> {
  const input = await cachedInput(
    ctx.cacheDir,
    script,
    { samples: n },
    n * 2048,
    async (dir) => {
      ctx.log(`generating ${n} samples with scripts/${script}.ts`);
      // runTimed throws, with the child's stderr, when it fails
      await runTimed(Deno.execPath(), [
        ...DENO_RUN,
        `${ctx.root}scripts/${script}.ts`,
        "--samples",
        String(n),
        ...args(dir),
      ], { cwd: ctx.root });
    },
  );
  return input.dir;
}

/** The large harness logs: import and score against python3. */
export const harness: Group = {
  name: "harness",
  cases: CASES,
  rounds: 3,
  async run(ctx, selected) {
    const infos = CASES.filter((c) => selected.has(c.name));
    const n = rowsOf(ctx, CASES[0]);
    const havePython = await Deno.stat(PYTHON).then(() => true, () => false);
    const python = infos.filter((c) => c.name.startsWith("harness-python"));
    if (!havePython && python.length > 0) {
      ctx.skip(
        python.map((c) => c.name),
        `${PYTHON} is not installed (apt-get install python3)`,
      );
    }
    const wantEval = infos.some((c) =>
      c.name.endsWith("-eval") && !c.name.endsWith("lm-eval")
    );
    const wantLm = infos.some((c) => c.name.endsWith("lm-eval"));
    const evalFile = wantEval
      ? `${await generated(
        ctx,
        "make_big_eval",
        n,
        (dir) => ["--out", `${dir}/big.eval`],
      )}/big.eval`
      : "";
    const lmFile = wantLm
      ? `${await generated(
        ctx,
        "make_big_lm_eval",
        n,
        (dir) => ["--out-dir", dir],
      )}/${BIG_LM_EVAL_SAMPLES}`
      : "";
    const out = await scratch(ctx.cacheDir, n * 1024, "harness imports");
    const decisions = (text: string) => {
      const got = JSON.parse(text).decisions;
      if (got !== n) throw new Error(`read ${got} decisions, expected ${n}`);
    };
    const counted = (text: string) => {
      if (Number(text.trim()) !== n) {
        throw new Error(`python3 read ${text.trim()} samples, expected ${n}`);
      }
    };
    const lossbook = (args: string[]): [string, string[]] => [
      Deno.execPath(),
      [...DENO_RUN, ctx.cli, ...args],
    ];
    const processes: Record<
      string,
      [string, string[], (stdout: string) => void]
    > = {
      "harness-import-eval": [
        ...lossbook([
          "import",
          evalFile,
          "--format",
          "inspect",
          "--severity-field",
          "metadata.severity",
          "--out",
          `${out.dir}/eval.jsonl`,
          "--force",
          "--json",
        ]),
        decisions,
      ],
      "harness-score-eval": [
        ...lossbook([
          "score",
          evalFile,
          "--format",
          "inspect",
          "--severity-field",
          "metadata.severity",
          "--json",
        ]),
        decisions,
      ],
      "harness-python-eval": [PYTHON, ["-c", PY_EVAL, evalFile], counted],
      "harness-import-lm-eval": [
        ...lossbook([
          "import",
          lmFile,
          "--format",
          "lm-eval",
          "--severity-field",
          "doc.severity",
          "--out",
          `${out.dir}/lm.jsonl`,
          "--force",
          "--json",
        ]),
        decisions,
      ],
      "harness-score-lm-eval": [
        ...lossbook([
          "score",
          lmFile,
          "--format",
          "lm-eval",
          "--severity-field",
          "doc.severity",
          "--json",
        ]),
        decisions,
      ],
      "harness-python-lm-eval": [PYTHON, ["-c", PY_LM_EVAL, lmFile], counted],
    };
    const timed = infos.filter((c) =>
      havePython || !c.name.startsWith("harness-python")
    );
    const once = async (name: string): Promise<ChildRun> => {
      const [cmd, args, check] = processes[name];
      const run = await runTimed(cmd, args, { cwd: ctx.root });
      check(run.stdout);
      return run;
    };
    const rounds = roundsOf(ctx, harness);
    const runs = new Map(timed.map((c) => [c.name, [] as ChildRun[]]));
    try {
      for (let r = 0; r < rounds; r++) {
        ctx.log(`round ${r + 1} of ${rounds}`);
        for (const c of timed) runs.get(c.name)!.push(await once(c.name));
      }
    } finally {
      await out.remove();
    }
    const source = await rssSource();
    return timed.map((c) => {
      const taken = runs.get(c.name)!;
      return resultOf({
        name: c.name,
        what: c.what,
        timing: "process",
        rows: n,
        peakRssBytes: maxOrNull(taken.map((t) => t.peakRssBytes)),
        rssSource: source,
        peers: c.peers?.filter((p) => selected.has(p) && havePython),
      }, taken.map((t) => t.seconds));
    });
  },
};
