// `lossbook escalate`: the command over `escalate` (api/escalate.ts), with
// its help and the human report.
import { SEVERITIES } from "../lib/costs/severity.ts";
import {
  alignRows,
  type Command,
  formatNumber,
  parseFlags,
} from "./_command.ts";
import { fileLabel } from "./_input.ts";
import { matrixLine } from "./_matrix.ts";
import { formatQuantity, formatRule } from "./_format.ts";
import { commandHelp } from "./_help.ts";
import {
  ESCALATE_OPTIONS,
  escalateRun,
  type EscalationReport,
} from "../api/escalate.ts";

function human(r: EscalationReport, unit: string): string {
  const t = (x: number | null) =>
    x === null ? "escalate all" : `P(error) ≤ ${formatRule(x)}`;
  const lines = [
    `${r.modelId}: ${r.n} decisions with pCorrect${
      r.missingPCorrect ? ` (${r.missingPCorrect} without, left out)` : ""
    }; always auto ${formatNumber(r.costAllAuto)} ${unit} (expected ${
      formatNumber(r.expectedCostAllAuto)
    } from stated P(error)), always escalate ${
      formatNumber(r.costAllEscalate)
    }`,
    `  best global threshold: serve automatically iff ${
      t(r.global.threshold)
    }: ${r.global.escalated} escalated, cost ${
      formatNumber(r.global.cost)
    }, saves ${formatNumber(r.global.saved)}`,
    `  best per-severity thresholds: cost ${
      formatNumber(r.perSeverity.cost)
    }, saves ${formatNumber(r.perSeverity.saved)}`,
  ];
  const rows = [[
    "severity",
    "serve automatically iff",
    "escalated",
    "cost",
    "saved",
  ]];
  for (const s of SEVERITIES) {
    const g = r.bySeverity[s];
    if (g === null) continue;
    rows.push([
      s,
      t(g.threshold),
      formatNumber(g.escalated),
      formatNumber(g.cost),
      formatNumber(g.saved),
    ]);
  }
  lines.push(alignRows(rows).replace(/^/gm, "    "));
  lines.push(
    `  Bayes rule on stated P(error) (escalate iff P(error) × cost if wrong > review cost): ${r.bayes.escalated} escalated, cost ${
      formatNumber(r.bayes.cost)
    }, saves ${formatNumber(r.bayes.saved)}`,
    // an excess over the optimum is read at the scale of the AURC itself, so
    // float noise of a perfect ranking (6.9e-18) prints 0
    `  AURC ${formatNumber(r.aurc, 4)}, E-AURC ${
      formatQuantity(r.eAurc, { digits: 4, scale: r.aurc ?? undefined })
    }; money AURC ${formatNumber(r.moneyAurc, 4)}, money E-AURC ${
      formatQuantity(r.moneyEAurc, {
        digits: 4,
        scale: r.moneyAurc ?? undefined,
      })
    }`,
    `  risk-coverage in money:`,
  );
  const curve = [["coverage", "threshold", "cost", "selective risk"]];
  for (const p of r.riskCoverage) {
    curve.push([
      p.coverage.toFixed(3),
      p.threshold === null ? "-" : formatRule(p.threshold),
      formatNumber(p.cost),
      p.selectiveRisk === null ? "n/a" : p.selectiveRisk.toFixed(4),
    ]);
  }
  lines.push(alignRows(curve).replace(/^/gm, "    "));
  return lines.join("\n");
}

/** The `escalate` command. */
export const escalateCommand: Command = {
  summary:
    "Escalation thresholds that minimise a run's cost: global and per severity, the Bayes rule, loss saved, risk-coverage in money",
  ...commandHelp({
    forms: [{
      command: "escalate",
      args: "<file>...",
      options: ESCALATE_OPTIONS,
    }],
  }),
  example:
    "deno task lossbook escalate data/examples/reconforge_run.json --profile reconciliation",
  async run(args) {
    const { values, positionals } = parseFlags(
      "escalate",
      args,
      ESCALATE_OPTIONS,
    );
    const { document, profile, matrix, unit } = await escalateRun(
      positionals,
      values,
    );
    if (values.json) {
      console.log(JSON.stringify(document, null, 2));
      return 0;
    }
    const path = fileLabel(
      "file" in document ? [document.file] : document.files,
    );
    const outcomes = { format: document.format };
    const models = document.models;
    console.log(
      [
        `${path} (${outcomes.format}) under ${profile.id}, ${
          matrixLine(matrix)
        } (review cost ${profile.reviewCost} ${unit})`,
        ...models.map((m) => human(m, unit)),
      ].join("\n\n"),
    );
    return 0;
  },
};
