/**
 * The `lossbook` command line.
 *
 * Exit codes: 0 success, 1 a check failed (a claim), 2 bad input or usage.
 * Errors about input are one line naming the file, line and field.
 *
 * @module
 */

import { parseArgs } from "node:util";
import {
  getProfile,
  loadProfileFile,
  SHIPPED_PROFILES,
} from "./lib/costs/load.ts";
import { type CostProfile, profileSpan } from "./lib/costs/profile.ts";
import { SEVERITIES, type Severity } from "./lib/costs/severity.ts";
import {
  accuracy,
  errorsBySeverity,
  recallBySeverity,
} from "./lib/metrics/accuracy.ts";
import { expectedLoss, realisedLoss } from "./lib/metrics/loss.ts";
import { forModel, modelIds } from "./lib/metrics/sufficient_stats.ts";
import type { Rate, RateInterval } from "./lib/metrics/rate.ts";
import { decisionStats } from "./lib/runs/decision_stats.ts";
import { loadDecisionsJsonl } from "./lib/runs/load_decisions.ts";
import { reproduceMain } from "./reproduce.ts";
import { VERSION } from "./version.ts";

/** Raised for bad usage; maps to exit code 2. */
class UsageError extends Error {}

interface Command {
  summary: string;
  usage: string;
  example: string;
  run(args: string[]): Promise<number>;
}

function parse<
  T extends Record<
    string,
    { type: "string" | "boolean"; multiple?: boolean; short?: string }
  >,
>(
  command: string,
  args: string[],
  options: T,
) {
  try {
    return parseArgs({
      args,
      options: { ...options, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message}`);
  }
}

async function resolveProfiles(
  specs: readonly string[] | undefined,
): Promise<CostProfile[]> {
  if (specs === undefined || specs.length === 0) return [...SHIPPED_PROFILES];
  const out: CostProfile[] = [];
  for (const spec of specs) {
    const profile = /\.(json|ya?ml)$/i.test(spec)
      ? await loadProfileFile(spec)
      : getProfile(spec);
    if (out.some((p) => p.id === profile.id)) {
      throw new UsageError(
        `score: profile ${JSON.stringify(profile.id)} is given twice`,
      );
    }
    out.push(profile);
  }
  return out;
}

function fmt(value: number | null, digits = 4): string {
  if (value === null) return "n/a";
  return value.toLocaleString("en-US", {
    maximumSignificantDigits: digits + 2,
  });
}

function pct(r: Rate): string {
  if (r.value === null) return "n/a";
  const ci = r.interval!;
  return `${(r.value * 100).toFixed(2)}% [${(ci.lo * 100).toFixed(2)}, ${
    (ci.hi * 100).toFixed(2)
  }]`;
}

function pad(rows: string[][]): string {
  const widths = rows[0].map((_, i) =>
    Math.max(...rows.map((r) => r[i].length))
  );
  return rows.map((r) =>
    r.map((c, i) => i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])).join(
      "  ",
    )
  )
    .join("\n");
}

/** The `score --json` document of one model. */
export interface ModelScore {
  modelId: string;
  n: number;
  accuracy: number | null;
  errorsBySeverity: Record<Severity, number | null>;
  recallBySeverity: Record<Severity, number | null>;
  loss: Record<string, number | null>;
  expectedLoss: Record<string, number | null>;
  intervals: {
    accuracy: RateInterval | null;
    recallBySeverity: Record<Severity, RateInterval | null>;
  };
  exceptions: number;
  parseFailures: number;
  escalated: number;
  missingPCorrect: number;
}

const commands: Record<string, Command> = {
  profiles: {
    summary: "List the shipped cost profiles",
    usage: "lossbook profiles [--json]",
    example: "deno task lossbook profiles --json",
    run(args) {
      const { values } = parse("profiles", args, { json: { type: "boolean" } });
      if (values.json) {
        console.log(JSON.stringify({ profiles: SHIPPED_PROFILES }, null, 2));
        return Promise.resolve(0);
      }
      const rows = [[
        "id",
        "LOW",
        "MEDIUM",
        "HIGH",
        "CRITICAL",
        "span",
        "review",
        "judge",
        "unit",
      ]];
      for (const p of SHIPPED_PROFILES) {
        const span = profileSpan(p);
        rows.push([
          p.id,
          ...SEVERITIES.map((s) => fmt(p.K[s])),
          span === null ? "n/a" : `${fmt(span)}x`,
          fmt(p.reviewCost),
          fmt(p.judgeCost),
          p.unit ?? "",
        ]);
      }
      console.log(pad(rows));
      return Promise.resolve(0);
    },
  },
  score: {
    summary: "Score a run export: accuracy, errors, recall and loss per model",
    usage:
      "lossbook score <decisions.jsonl> [--profile ID|FILE]... [--level 0.95] [--json]",
    example:
      "deno task lossbook score data/examples/model_ab.jsonl --profile reconciliation --json",
    async run(args) {
      const { values, positionals } = parse("score", args, {
        profile: { type: "string", multiple: true },
        level: { type: "string" },
        json: { type: "boolean" },
      });
      if (positionals.length !== 1) {
        throw new UsageError(
          `score: expected one decisions file, got ${positionals.length}`,
        );
      }
      const level = values.level === undefined ? 0.95 : Number(values.level);
      if (!(level > 0 && level < 1)) {
        throw new UsageError(
          `score: --level must be a number in (0, 1), got ${values.level}`,
        );
      }
      const profiles = await resolveProfiles(values.profile);
      const path = positionals[0];
      const stats = decisionStats(await loadDecisionsJsonl(path));
      const models: ModelScore[] = modelIds(stats).map((m) => {
        const rows = forModel(stats, m);
        const acc = accuracy(rows, { level });
        const recall = recallBySeverity(rows, { level });
        return {
          modelId: m,
          n: acc.denominator,
          accuracy: acc.value,
          errorsBySeverity: errorsBySeverity(rows),
          recallBySeverity: Object.fromEntries(
            SEVERITIES.map((s) => [s, recall[s].value]),
          ) as Record<
            Severity,
            number | null
          >,
          loss: Object.fromEntries(
            profiles.map((p) => [p.id, realisedLoss(rows, p)]),
          ),
          expectedLoss: Object.fromEntries(
            profiles.map((p) => [p.id, expectedLoss(rows, p)]),
          ),
          intervals: {
            accuracy: acc.interval,
            recallBySeverity: Object.fromEntries(
              SEVERITIES.map((s) => [s, recall[s].interval]),
            ) as Record<
              Severity,
              RateInterval | null
            >,
          },
          exceptions: accuracy(rows, { exceptionsOnly: true }).denominator,
          parseFailures: rows.reduce((s, r) => s + r.parseFailures, 0),
          escalated: rows.reduce((s, r) => s + r.escalated, 0),
          missingPCorrect: rows.reduce((s, r) => s + r.pMissing, 0),
        };
      });
      if (values.json) {
        console.log(JSON.stringify(
          {
            file: path,
            profiles: profiles.map((p) => ({
              id: p.id,
              version: p.version,
              unit: p.unit ?? null,
            })),
            models,
          },
          null,
          2,
        ));
        return 0;
      }
      const lines = [
        `${path}: ${models.length} model${models.length === 1 ? "" : "s"}`,
      ];
      for (const m of models) {
        const acc = accuracy(forModel(stats, m.modelId), { level });
        lines.push("");
        lines.push(
          `${m.modelId}: ${m.n} decisions (${m.exceptions} exceptions), accuracy ${
            pct(acc)
          } (${
            Math.round(level * 100)
          }% Wilson), ${m.escalated} escalated, ${m.parseFailures} parse failures`,
        );
        const sevRows = [["severity", "errors", "recall", "recall CI"]];
        const recall = recallBySeverity(forModel(stats, m.modelId), { level });
        for (const s of SEVERITIES) {
          const r = recall[s];
          sevRows.push([
            s,
            m.errorsBySeverity[s] === null
              ? "n/a"
              : String(m.errorsBySeverity[s]),
            r.value === null ? "n/a" : `${(r.value * 100).toFixed(2)}%`,
            r.interval === null
              ? "n/a"
              : `[${(r.interval.lo * 100).toFixed(2)}, ${
                (r.interval.hi * 100).toFixed(2)
              }]`,
          ]);
        }
        lines.push(pad(sevRows).replace(/^/gm, "  "));
        const lossRows = [["profile", "loss", "expected loss", "unit"]];
        for (const p of profiles) {
          lossRows.push([
            p.id,
            fmt(m.loss[p.id]),
            fmt(m.expectedLoss[p.id]),
            p.unit ?? "",
          ]);
        }
        lines.push(pad(lossRows).replace(/^/gm, "  "));
        if (m.missingPCorrect > 0) {
          lines.push(
            `  expected loss is n/a: ${m.missingPCorrect} automatic decisions state no pCorrect`,
          );
        }
      }
      console.log(lines.join("\n"));
      return 0;
    },
  },
  reproduce: {
    summary: "Regenerate every table, figure and claim into out/",
    usage: "lossbook reproduce [--out DIR] [--only ID]... [--no-png]",
    example: "deno task lossbook reproduce --only divergence",
    run: (args) => reproduceMain(args),
  },
};

function help(): string {
  const names = Object.keys(commands);
  const width = Math.max(...names.map((n) => n.length));
  return `lossbook ${VERSION}: consequence-weighted evaluation of AI systems that touch money

Usage: deno task lossbook <command> [options]

Commands:
${names.map((n) => `  ${n.padEnd(width)}  ${commands[n].summary}`).join("\n")}

Run 'deno task lossbook <command> --help' for a command's options.
Exit codes: 0 success, 1 a check failed, 2 bad input or usage.

Example:
  ${commands.score.example}`;
}

/**
 * Run the CLI on `args` and return the exit code.
 *
 * @param args Command-line arguments, without the program name.
 * @returns 0 on success, 1 when a check fails, 2 on bad input or usage.
 */
export async function main(args: readonly string[]): Promise<number> {
  const [name, ...rest] = args;
  if (
    name === undefined || name === "help" || name === "--help" || name === "-h"
  ) {
    console.log(help());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version") {
    console.log(VERSION);
    return 0;
  }
  const command = commands[name];
  if (command === undefined) {
    console.error(
      `lossbook: unknown command ${
        JSON.stringify(name)
      }; try 'lossbook --help'`,
    );
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(
      `${command.summary}\n\nUsage: ${command.usage}\n\nExample:\n  ${command.example}`,
    );
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (
      error instanceof UsageError || error instanceof SyntaxError ||
      error instanceof RangeError ||
      error instanceof TypeError || error instanceof Deno.errors.NotFound ||
      error instanceof Deno.errors.PermissionDenied ||
      error instanceof Deno.errors.IsADirectory
    ) {
      const message = error instanceof Deno.errors.NotFound
        ? `file not found: ${
          error.message.replace(
            /^No such file or directory \(os error 2\):?\s*/,
            "",
          )
        }`
        : error.message.split("\n")[0];
      console.error(`lossbook ${name}: ${message}`);
      return 2;
    }
    throw error;
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
