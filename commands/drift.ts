// `lossbook drift`: compare a ledger's decisions before and after a split
// time on the loss distribution, not only on accuracy.
import { ledgerDrift } from "../lib/ledger/drift.ts";
import { isTimestamp } from "../lib/ledger/record.ts";
import {
  alignRows,
  type Command,
  formatNumber,
  parseFlags,
  UsageError,
} from "./_command.ts";
import { oneProfile, readVerifiedLedger } from "./ledger.ts";
import { decisionCountWarnings } from "./_input.ts";
import { matrixFlag } from "./_matrix.ts";
import { commandHelp } from "./_help.ts";
import { JSON_OPTION, MATRIX_MODE_OPTION, profileOption } from "./_options.ts";

/** The options of `drift`, as `--help` lists them and `parseFlags` reads them. */
const DRIFT_OPTIONS = {
  split: {
    type: "string",
    value: "ISO",
    doc:
      "UTC timestamp (ISO 8601) that splits the ledger: decisions before it form the reference window, the rest the current window",
    required: true,
  },
  profile: {
    ...profileOption(),
    doc:
      "cost profile that prices realised and expected loss: a shipped id (see 'lossbook profiles') or a profile file",
  },
  mode: MATRIX_MODE_OPTION,
  alpha: {
    type: "string",
    value: "P",
    doc:
      'significance level, in (0, 1), of the tests between the windows and of the "errors flat, cost rising" detector',
    byDefault: "0.01",
  },
  window: {
    type: "string",
    value: "N",
    doc: "decisions per window of the rolling calibration, >= 1",
    byDefault: "2000",
  },
  bound: {
    type: "string",
    value: "ECE",
    doc:
      "rolling calibration alerts on a window whose ECE of stated risk is above this, >= 0",
    byDefault: "0.02",
  },
  "fail-on-alert": {
    type: "boolean",
    doc:
      'exit 1 when the "errors flat, cost rising" detector fires or any calibration window alerts (for CI and cron); without it drift reports and exits 0',
  },
  json: JSON_OPTION,
} as const;

/** The `drift` command. */
export const driftCommand: Command = {
  summary:
    "Drift between two windows of a ledger: error rate, loss per decision (errors flat, cost rising), PSI and KS on expected loss, rolling calibration",
  ...commandHelp({
    forms: [{
      command: "drift",
      args: "<ledger.jsonl>",
      options: DRIFT_OPTIONS,
    }],
    notes: [
      "The ledger is verified first; one that does not verify is not analysed (exit 1).",
    ],
  }),
  example:
    "deno task lossbook drift month.jsonl --split 2026-03-16T00:00:00Z --json",
  async run(args) {
    const { values, positionals } = parseFlags("drift", args, DRIFT_OPTIONS);
    if (positionals.length !== 1) {
      throw new UsageError(
        `drift takes one ledger file, got ${positionals.length} arguments`,
      );
    }
    if (values.split === undefined || !isTimestamp(values.split)) {
      throw new UsageError(
        `--split must be an ISO 8601 UTC timestamp like 2026-03-16T00:00:00Z, got ${
          values.split === undefined ? "nothing" : JSON.stringify(values.split)
        }`,
      );
    }
    const num = (
      flag: string,
      v: string | undefined,
      d: number,
      ok: (x: number) => boolean,
    ) => {
      const x = v === undefined ? d : Number(v);
      if (!ok(x)) throw new UsageError(`--${flag} is out of range: ${v}`);
      return x;
    };
    const alpha = num("alpha", values.alpha, 0.01, (x) => x > 0 && x < 1);
    const window = num(
      "window",
      values.window,
      2000,
      (x) => Number.isInteger(x) && x >= 1,
    );
    const bound = num("bound", values.bound, 0.02, (x) => x >= 0);
    const profile = await oneProfile(values.profile);
    const matrix = matrixFlag(values.mode);
    const path = positionals[0];
    const { verification, columns } = await readVerifiedLedger(path);
    if (columns === null) {
      console.error(
        `lossbook drift: ${verification.reason}; a ledger that does not verify is not analysed`,
      );
      return 1;
    }
    const d = ledgerDrift(columns, {
      split: values.split,
      profile,
      matrix,
      alpha,
      calibration: { window, bound },
    });
    // drift's tests count decisions, whatever the ledger's decisions name
    const warnings = decisionCountWarnings(
      {
        unit: columns.caseCluster.some((c) => c !== null)
          ? "cluster"
          : "taskId",
      },
      "each of drift's tests",
    );
    for (const w of warnings) console.error(`warning: ${w}`);
    const alerts = d.calibration.filter((w) => w.alert).length;
    const code = values["fail-on-alert"] && (d.detector.fired || alerts > 0)
      ? 1
      : 0;
    if (values.json) {
      console.log(JSON.stringify(
        {
          ledger: {
            path,
            records: verification.records,
            head: verification.head,
            expectedLossMatrices: columns.expectedLossMatrices,
            expectedLossAssumedStrict: columns.expectedLossAssumedStrict,
          },
          matrix: matrix.id,
          ...(warnings.length === 0 ? {} : { warnings }),
          ...d,
        },
        null,
        2,
      ));
      return code;
    }
    const t = d.detector;
    const pct = (x: number | null) =>
      x === null ? "n/a" : `${(x * 100).toFixed(2)}%`;
    console.log(
      `${path}: split at ${d.split}, realised loss under ${d.profile}, ${matrix.id} matrix; recorded expected loss under ${
        columns.expectedLossMatrices.join(", ") || "none"
      }`,
    );
    console.log(alignRows([
      ["", "before", "after", "test"],
      [
        "decisions (labelled)",
        `${d.reference.decisions} (${d.reference.labelled})`,
        `${d.current.decisions} (${d.current.labelled})`,
        "",
      ],
      [
        "error rate",
        pct(t.errorRate.reference),
        pct(t.errorRate.current),
        `z ${formatNumber(t.errorRate.z, 3)}, p ${
          formatNumber(t.errorRate.pValue, 3)
        }${t.errorRate.drifted ? ", DRIFTED" : ", flat"}`,
      ],
      [
        "loss per decision",
        formatNumber(t.lossPerDecision.reference, 4),
        formatNumber(t.lossPerDecision.current, 4),
        `x${formatNumber(t.lossPerDecision.ratio, 3)}, z ${
          formatNumber(t.lossPerDecision.z, 3)
        }, p ${formatNumber(t.lossPerDecision.pValue, 3)}${
          t.lossPerDecision.rising ? ", RISING" : ""
        }`,
      ],
      [
        "errors on HIGH",
        pct(d.reference.errorShare.HIGH),
        pct(d.current.errorShare.HIGH),
        "",
      ],
      [
        "expected loss",
        "",
        "",
        `PSI ${formatNumber(d.expectedLoss.psi.psi, 3)}, KS D ${
          formatNumber(d.expectedLoss.ks.statistic, 3)
        } p ${formatNumber(d.expectedLoss.ks.pValue, 3)}`,
      ],
    ]));
    console.log(
      t.fired
        ? "errors flat, cost rising: the loss per decision rose while the error rate did not move"
        : "the errors-flat-cost-rising detector did not fire",
    );
    console.log(
      `calibration: ${d.calibration.length} windows of ${window}, ${alerts} with ECE above ${bound}${
        alerts > 0
          ? ` (first from ${d.calibration.find((w) => w.alert)!.from})`
          : ""
      }`,
    );
    return code;
  },
};
