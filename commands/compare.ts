// `lossbook compare`: paired differences between two models on the same tasks.
import type { CostProfile } from "../lib/costs/profile.ts";
import { accuracy } from "../lib/metrics/accuracy.ts";
import {
  pairedBootstrap,
  type PairedComparison,
} from "../lib/metrics/bootstrap.ts";
import { realisedLoss } from "../lib/metrics/loss.ts";
import { seededPrng, seedFor } from "../lib/metrics/sampling.ts";
import { pairedStats } from "../lib/runs/paired_stats.ts";
import {
  alignRows,
  type Command,
  formatNumber,
  parseFlags,
  UsageError,
  withUserValues,
} from "./_command.ts";
import { readRun } from "./_input.ts";
import {
  commonOptions,
  matrixOf,
  resolveProfiles,
  SCORING_FLAGS,
} from "./score.ts";

function row(label: string, c: PairedComparison, digits = 6): string[] {
  const f = (
    v: number | null,
  ) => (v === null ? "n/a" : formatNumber(v, digits));
  return [
    label,
    f(c.estimate),
    c.lo === null ? "n/a" : `[${f(c.lo)}, ${f(c.hi)}]`,
    c.pValue === null
      ? "n/a"
      : c.pValue < 1 / c.resamples + 1e-12
      ? `<= ${f(c.pValue)}`
      : f(c.pValue),
  ];
}

/** The `compare` command. */
export const compareCommand: Command = {
  summary:
    "Compare two models on the same tasks: paired bootstrap differences in accuracy and loss",
  usage:
    "lossbook compare <file> --a MODEL --b MODEL [--format ...] [--probability correct|error] [--engine memory|duckdb] [--mode consequence|strict|reconforge] [--profile ID|FILE]... [--ci 0.95] [--seed N] [--resamples 1000] [--json]",
  example:
    "deno task lossbook compare data/examples/model_ab.jsonl --a A --b B",
  async run(args) {
    const { values, positionals } = parseFlags("compare", args, {
      ...SCORING_FLAGS,
      a: { type: "string" },
      b: { type: "string" },
    });
    if (positionals.length !== 1) {
      throw new UsageError(`expected one run file, got ${positionals.length}`);
    }
    if (values.a === undefined || values.b === undefined) {
      throw new UsageError("name the two models with --a MODEL --b MODEL");
    }
    const { level, seed, resamples, mode } = commonOptions(values);
    const profiles: CostProfile[] = await resolveProfiles(values.profile, {
      lenient: values.lenient,
    });
    const path = positionals[0];
    const run = await readRun(path, values, true);
    const paired = withUserValues(() =>
      pairedStats(run.table!, values.a!, values.b!)
    );
    const matrix = matrixOf(mode);
    // Each difference draws from its own stream (seedFor), so adding a
    // profile never moves another profile's interval.
    const opts = (label: string) => ({
      level,
      resamples,
      prng: seededPrng(seedFor(seed, label)),
    });
    const accuracyDiff = pairedBootstrap(
      paired.rows,
      (s) => accuracy(s).value,
      opts("accuracy"),
    );
    const loss = Object.fromEntries(
      profiles.map((p) => [
        p.id,
        pairedBootstrap(
          paired.rows,
          (s) => realisedLoss(s, p, { matrix }),
          opts(`loss/${p.id}`),
        ),
      ]),
    );
    if (values.json) {
      console.log(JSON.stringify(
        {
          file: path,
          a: values.a,
          b: values.b,
          mode,
          level,
          seed,
          resamples,
          pairs: accuracyDiff.pairs,
          onlyA: paired.onlyA,
          onlyB: paired.onlyB,
          differences: { accuracy: accuracyDiff, loss },
        },
        null,
        2,
      ));
      return 0;
    }
    const lv = `${Math.round(level * 100)}%`;
    const rows = [
      ["difference (A - B)", "estimate", `${lv} CI`, "p-value"],
      row("accuracy", accuracyDiff),
    ];
    for (const p of profiles) rows.push(row(`loss, ${p.id}`, loss[p.id]));
    console.log(
      `${path}: ${values.a} (A) vs ${values.b} (B) on ${accuracyDiff.pairs} shared tasks${
        paired.onlyA + paired.onlyB > 0
          ? ` (unpaired: ${paired.onlyA} only A, ${paired.onlyB} only B)`
          : ""
      }; ${mode} mode; paired bootstrap, seed ${seed}, ${resamples} resamples\n${
        alignRows(rows)
      }`,
    );
    return 0;
  },
};
