// Private to the benchmark runner: a seeded JSONL file of valid decisions
// (two models, one trial per task, a mix of severities, exceptions, errors
// and escalations), written in batches so that any size fits in memory, and
// kept in the runner's cache folder between runs.
import { SEVERITIES } from "../lib/costs/severity.ts";
import { seededPrng } from "../lib/math/sampling.ts";
import { cachedInput } from "./_cache.ts";

/** Options for {@linkcode writeBenchDecisions}. */
export interface BenchDecisionsOptions {
  /** Seed of the generator. */
  seed: number;
  /** Exception classes per severity; the first is predicted for a false alarm. */
  classes: Readonly<Record<string, readonly string[]>>;
}

/**
 * Write `n` seeded decisions to `file` as JSONL (same seed, same bytes).
 *
 * @param file Path to write (truncated).
 * @param n Number of decisions.
 * @param options Seed and classes.
 */
export async function writeBenchDecisions(
  file: string,
  n: number,
  options: BenchDecisionsOptions,
): Promise<void> {
  const rng = seededPrng(options.seed);
  using out = await Deno.open(file, {
    write: true,
    create: true,
    truncate: true,
  });
  const enc = new TextEncoder();
  let buf: string[] = [];
  for (let i = 0; i < n; i++) {
    const model = i % 2 === 0 ? "frontier" : "small";
    const severity = SEVERITIES[Math.min(3, Math.floor(rng.next() * 3.05))];
    const exception = rng.next() < 0.3;
    const classes = options.classes[severity];
    const trueClass = exception
      ? classes[Math.floor(rng.next() * classes.length)]
      : "MATCH";
    const wrong = rng.next() < (model === "frontier" ? 0.05 : 0.09);
    const predClass = !wrong
      ? trueClass
      : trueClass === "MATCH"
      ? classes[0]
      : "MATCH";
    const p = wrong ? 0.4 + 0.5 * rng.next() : 0.7 + 0.3 * rng.next();
    buf.push(JSON.stringify({
      runId: "bench",
      modelId: model,
      taskId: `task-${Math.floor(i / 2)}`,
      trial: 0,
      severity,
      trueClass,
      predClass,
      parseOk: true,
      pCorrect: Math.round(p * 1000) / 1000,
      action: rng.next() < 0.05 ? "escalate" : "auto",
      cost: { completeness: "complete", usd: 0.0004 },
      outcome: wrong ? "model_failure" : "resolved",
    }));
    if (buf.length === 50_000) {
      await out.write(enc.encode(buf.join("\n") + "\n"));
      buf = [];
    }
  }
  if (buf.length > 0) await out.write(enc.encode(buf.join("\n") + "\n"));
}

/** Bytes a line of {@linkcode writeBenchDecisions} takes, at most (about 260). */
export const BYTES_PER_DECISION = 300;

/**
 * The cached JSONL file of `n` seeded decisions under `cacheDir`, generated
 * unless an earlier run left it there.
 *
 * @param cacheDir The runner's cache folder.
 * @param n Number of decisions.
 * @param options Seed and classes (part of the cache key).
 * @param log Where to say that it is generating.
 * @returns The file's path.
 */
export async function cachedDecisions(
  cacheDir: string,
  n: number,
  options: BenchDecisionsOptions,
  log: (message: string) => void = () => {},
): Promise<string> {
  const params = { n, seed: options.seed, classes: options.classes };
  const got = await cachedInput(
    cacheDir,
    "decisions-jsonl",
    params,
    n * BYTES_PER_DECISION,
    async (dir) => {
      log(
        `generating ${
          n.toLocaleString("en-US")
        } JSONL decisions (seed ${options.seed})`,
      );
      await writeBenchDecisions(`${dir}/decisions.jsonl`, n, options);
    },
  );
  if (!got.reused) log(`generated in ${got.seconds.toFixed(1)} s: ${got.dir}`);
  return `${got.dir}/decisions.jsonl`;
}
