// The rows and files of the tests that compare engines byte for byte
// (engines_same_bytes_test.ts, chdb_test.ts): rows whose float sums depend
// on the order of addition, written as JSONL, Parquet and CSV in different
// orders, and the CLI's document without the keys that name the input.
import type { Decision } from "../../lib/decision/decision.ts";
import { decisionTable } from "../../lib/read/load_decisions.ts";
import { writeDecisionsParquet } from "../../lib/read/parquet.ts";
import { writeDecisionsCsv } from "../../lib/read/csv.ts";
import { decision, tempDir } from "../_helpers.ts";

// probabilities whose float sum of complements depends on the order: tenths,
// 0.7, and complements of a few units of 2^-53 (about 1e-16 and below)
export const P = [
  0.1,
  0.7,
  1 - 2 ** -53,
  0.9,
  1 - 3 * 2 ** -53,
  1 / 3,
  0.3,
  null,
];
export const SEVERITY = ["LOW", "MEDIUM", "HIGH", "CRITICAL"] as const;

// two models, two runs, tasks with 1, 2, 3, 5 or 7 trials
export function repeatedTrials(): Decision[] {
  const out: Decision[] = [];
  for (const modelId of ["a", "b"]) {
    for (let t = 0; t < 60; t++) {
      const trials = [1, 2, 3, 5, 7][t % 5];
      for (let k = 0; k < trials; k++) {
        const i = out.length;
        out.push(decision({
          runId: k % 2 === 0 ? "r1" : "r2",
          modelId,
          taskId: `t${t}`,
          trial: k,
          severity: SEVERITY[t % 4],
          predClass: i % 4 === 0 ? "MATCH" : "AMOUNT_MISMATCH",
          parseOk: i % 11 !== 0,
          pCorrect: P[i % P.length],
          action: i % 6 === 0 ? "escalate" : "auto",
        }));
      }
    }
  }
  return out;
}

// the rows of repeatedTrials, each task in one of 13 clusters of tasks of
// mixed severities (its task number mod 13)
export function clusteredTrials(): Decision[] {
  return repeatedTrials().map((d) => ({
    ...d,
    cluster: `source-${Number(d.taskId.slice(1)) % 13}`,
  }));
}

// one trial per task: `n` decisions, most of them in a few cells
export function oneTrial(n: number): Decision[] {
  return Array.from({ length: n }, (_, i) =>
    decision({
      modelId: i % 3 === 0 ? "b" : "a",
      taskId: `task-${i}`,
      severity: SEVERITY[i % 2],
      predClass: i % 5 === 0 ? "MATCH" : "AMOUNT_MISMATCH",
      pCorrect: P[(i * 7) % P.length],
      action: i % 9 === 0 ? "escalate" : "auto",
    }));
}

/** The files of {@linkcode write}. */
export interface Files {
  readonly jsonl: string;
  readonly parquet: string;
  readonly csv: string;
  /** The rows for the PostgreSQL table, in yet another order. */
  readonly rows: Decision[];
}

// 1 - pCorrect of a row, with rows that state none last
export const complement = (d: Decision) =>
  d.pCorrect === null ? 2 : 1 - d.pCorrect;

// The same rows in a different order per format and engine, so that a float
// sum taken in row order would differ between them: JSONL as given, Parquet
// by ascending and CSV by descending 1 - pCorrect, PostgreSQL interleaved
export async function write(name: string, rows: Decision[]): Promise<Files> {
  const dir = await tempDir("lossbook-test-");
  const jsonl = `${dir}/${name}.jsonl`;
  await Deno.writeTextFile(
    jsonl,
    rows.map((d) => JSON.stringify(d)).join("\n") + "\n",
  );
  const up = rows.toSorted((a, b) => complement(a) - complement(b));
  await writeDecisionsParquet(`${dir}/${name}.parquet`, decisionTable(up), {
    threads: 1,
  });
  await writeDecisionsCsv(`${dir}/${name}.csv`, decisionTable(up.toReversed()));
  return {
    jsonl,
    parquet: `${dir}/${name}.parquet`,
    csv: `${dir}/${name}.csv`,
    rows: [
      ...rows.filter((_, i) => i % 2 === 1),
      ...rows.filter((_, i) => i % 2 === 0),
    ],
  };
}

// the document without the keys that name the input, as the CLI writes it
export function withoutInput(stdout: string): string {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v !== null && typeof v === "object") {
      return Object.fromEntries(
        Object.entries(v).filter(([k]) =>
          !["file", "files", "table"].includes(k)
        ).map(([k, x]) => [k, strip(x)]),
      );
    }
    return v;
  };
  return JSON.stringify(strip(JSON.parse(stdout)), null, 2);
}
