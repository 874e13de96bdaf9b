// `lossbook sweep`: the command over `sweep` (api/sweep.ts), with its help
// and the human report.
import {
  alignRows,
  type Command,
  formatNumber,
  parseFlags,
} from "./_command.ts";
import { inputLabel, unitLabel } from "./_input.ts";
import { commandHelp } from "./_help.ts";
import { SWEEP_OPTIONS, type SweepResult, sweepRun } from "../api/sweep.ts";

function human(
  path: string,
  format: string,
  decisions: number,
  doc: SweepResult,
  unit: string,
): string {
  const lines = [
    `${path} (${format}, ${doc.mode} mode, ${doc.matrix} matrix, loss per ${doc.per}): ${doc.models.length} model${
      doc.models.length === 1 ? "" : "s"
    }, ${decisions} decisions${unit}`,
    `family: ${doc.family.base} with K(${
      doc.family.scaled.join(", ")
    }) x r; grid ${formatNumber(doc.grid.from)} to ${
      formatNumber(doc.grid.to)
    }, ${doc.grid.points} points`,
    "",
    alignRows([
      ["model", "decisions", "accuracy", "share of grid won"],
      ...doc.models.map((m) => [
        m.modelId,
        formatNumber(m.n),
        `${(m.accuracy * 100).toFixed(2)}%`,
        `${(doc.winShare[m.modelId] * 100).toFixed(1)}%`,
      ]),
    ]),
    "",
  ];
  if (doc.crossovers.length === 0) {
    lines.push("crossovers: none (no two loss lines cross at r > 0)");
  } else {
    lines.push(
      alignRows([
        ["crossover", "r (exact)", "r", "span", "r 95% interval", "no cross"],
        ...doc.crossovers.map((x) => [
          `${x.b} overtakes ${x.a}`,
          x.exact,
          formatNumber(x.ratio, 8),
          x.span === null ? "n/a" : `${formatNumber(x.span)}x`,
          x.interval === null
            ? "n/a"
            : `[${formatNumber(x.interval.lo)}, ${
              formatNumber(x.interval.hi)
            }]`,
          `${(x.noCrossShare * 100).toFixed(1)}% of draws`,
        ]),
      ]),
    );
  }
  lines.push(
    "",
    `winner changes over [${formatNumber(doc.grid.from)}, ${
      formatNumber(doc.grid.to)
    }]: ${doc.flips}${
      doc.winnerChanges.map((c) =>
        `\n  at r = ${formatNumber(c.ratio, 8)} (${c.exact}): ${
          c.from.join(" = ")
        } -> ${c.to.join(" = ")}`
      ).join("")
    }`,
    `accuracy winner: ${
      doc.accuracyWinners.join(" = ")
    }; the loss winner differs at ${
      (doc.disagreementShare * 100).toFixed(1)
    }% of grid points`,
    `Kendall tau vs accuracy: ${formatNumber(doc.kendallTau[0])} at r = ${
      formatNumber(doc.grid.from)
    }, ${formatNumber(doc.kendallTau[doc.kendallTau.length - 1])} at r = ${
      formatNumber(doc.grid.to)
    }`,
    "",
    alignRows([
      ["profile", "span", "loss winner", "tau", "regret", "reversal factor"],
      ...doc.profiles.map((p) => [
        p.id,
        p.span === null ? "n/a" : `${formatNumber(p.span)}x`,
        p.winners.join(" = "),
        formatNumber(p.kendallTau),
        formatNumber(p.regret),
        p.rankReversal.factor === null
          ? "none"
          : `${
            formatNumber(p.rankReversal.factor, 4)
          } (${p.rankReversal.challenger})`,
      ]),
    ]),
  );
  if (doc.registryDraws !== null) {
    const d = doc.registryDraws;
    lines.push(
      "",
      `registry draws: ${d.draws} ${d.distribution} (seed ${d.seed}); wins: ${
        Object.entries(d.winShare).map(([m, s]) =>
          `${m} ${(s * 100).toFixed(1)}%`
        ).join(", ")
      }; loss winner differs from the accuracy winner in ${
        (d.disagreementShare * 100).toFixed(1)
      }%`,
    );
  }
  return lines.join("\n");
}

/** The `sweep` command. */
export const sweepCommand: Command = {
  summary:
    "K-sensitivity of a run: exact crossovers, flips, Kendall tau and win shares as costs vary",
  ...commandHelp({
    forms: [{ command: "sweep", args: "<file>...", options: SWEEP_OPTIONS }],
    notes: [
      "The family: the --base profile with the K of each --scaled severity multiplied by r; every model's loss is a line in r, so crossovers and winner changes are found exactly. With --engine postgres, give --dsn URL --table NAME and no files.",
    ],
  }),
  example:
    "deno task lossbook sweep data/examples/model_ab.jsonl --registry-draws 10000 --seed 1 --json",
  async run(args) {
    const { values, positionals } = parseFlags("sweep", args, SWEEP_OPTIONS);
    const { document, run } = await sweepRun(positionals, values);
    if (values.json) {
      console.log(JSON.stringify(document, null, 2));
      return 0;
    }
    const doc = document;
    console.log(
      human(
        `${inputLabel(run)}`,
        run.format,
        run.decisions,
        doc,
        unitLabel(run),
      ),
    );
    return 0;
  },
};
