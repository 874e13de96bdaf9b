/**
 * The golden cases: every command's `--json` document on the shipped
 * examples, pinned byte for byte under `tests/golden/`. A refactoring that
 * moves code must leave every one unchanged; work that changes a number on
 * purpose re-pins them with `deno run -A tests/golden/pin.ts` and names the
 * change in the CHANGELOG.
 *
 * Absolute paths are replaced by a placeholder, and timestamps and timings
 * are dropped; nothing else is normalised.
 *
 * @module
 */

/** One pinned command line: its name (the golden file's) and its arguments. */
export interface GoldenCase {
  readonly name: string;
  /** The arguments after `lossbook`; `$TMP` stands for the case's scratch folder. */
  readonly args: readonly string[];
  /** Commands run first in the same scratch folder (for example to write a ledger). */
  readonly setup?: readonly (readonly string[])[];
  /** The exit code the command must give (default 0). */
  readonly code?: number;
}

const H = "data/examples/harness";
const RUN = "$TMP/run.jsonl";
const SIMULATE = [
  "simulate",
  "--tasks",
  "data/tasks/reconciliation_777_300.jsonl",
  "--model",
  "frontier_even",
  "--model",
  "small_severity_shaped",
  "--seed",
  "1",
  "--out",
  RUN,
];
const LEDGER = "$TMP/month.jsonl";
const LATER = SIMULATE.map((a) =>
  a === "1"
    ? "2"
    : a === RUN
    ? "$TMP/later.jsonl"
    : a.replace("reconciliation_777", "settlement_777")
);
const LEDGER_SETUP = [
  SIMULATE,
  LATER,
  [
    "ledger",
    "append",
    LEDGER,
    RUN,
    "--served",
    "small_severity_shaped",
    "--at",
    "2026-03-01T09:00:00Z",
  ],
  [
    "ledger",
    "append",
    LEDGER,
    "$TMP/later.jsonl",
    "--served",
    "small_severity_shaped",
    "--at",
    "2026-03-20T09:00:00Z",
  ],
];
const ALL_PROFILES = [
  "--profile",
  "flat",
  "--profile",
  "reconciliation",
  "--profile",
  "review_heavy",
  "--profile",
  "principal_risk",
];

/** Every golden case, in the order they are pinned. */
export const GOLDEN_CASES: readonly GoldenCase[] = [
  { name: "profiles", args: ["profiles", "--json"] },
  {
    name: "score_model_ab",
    args: ["score", "data/examples/model_ab.jsonl", ...ALL_PROFILES, "--json"],
  },
  {
    name: "score_simulated",
    setup: [SIMULATE],
    args: ["score", RUN, ...ALL_PROFILES, "--json"],
  },
  {
    name: "score_inspect_eval",
    args: [
      "score",
      `${H}/inspect_qwen.eval`,
      "--severity-map",
      `${H}/inspect_severity.csv`,
      "--json",
    ],
  },
  {
    name: "score_inspect_json",
    args: ["score", `${H}/inspect_sonnet.json`, "--severity", "HIGH", "--json"],
  },
  {
    name: "score_lm_eval",
    args: [
      "score",
      `${H}/lm_eval/samples_recon_mc_2026-11-30T10-00-00.000000.jsonl`,
      "--severity-field",
      "doc.severity",
      "--metric",
      "acc_norm",
      "--json",
    ],
  },
  {
    name: "score_helm",
    args: [
      "score",
      `${H}/helm/recon_model_example_recon-7b`,
      "--severity",
      "HIGH",
      "--json",
    ],
  },
  {
    name: "score_promptfoo",
    args: [
      "score",
      `${H}/promptfoo_results.json`,
      "--severity-field",
      "testCase.metadata.severity",
      "--correct",
      "equals",
      "--json",
    ],
  },
  {
    name: "score_reconforge",
    args: ["score", "data/examples/reconforge_run.json", "--json"],
  },
  {
    name: "score_lossbench",
    args: [
      "score",
      "data/examples/lossbench_ledger.jsonl",
      "--format",
      "lossbench",
      "--probability",
      "correct",
      "--json",
    ],
  },
  {
    name: "compare_model_ab",
    args: [
      "compare",
      "data/examples/model_ab.jsonl",
      "--a",
      "A",
      "--b",
      "B",
      ...ALL_PROFILES,
      "--json",
    ],
  },
  {
    name: "compare_simulated",
    setup: [SIMULATE],
    args: [
      "compare",
      RUN,
      "--a",
      "frontier_even",
      "--b",
      "small_severity_shaped",
      "--profile",
      "principal_risk",
      "--json",
    ],
  },
  {
    name: "compare_harness",
    args: [
      "compare",
      `${H}/inspect_qwen.eval`,
      `${H}/inspect_sonnet.json`,
      "--format",
      "inspect",
      "--severity",
      "HIGH",
      "--a",
      "ollama/qwen2.5:0.5b",
      "--b",
      "anthropic/claude-sonnet-4-0",
      "--json",
    ],
  },
  {
    name: "calibrate_simulated",
    setup: [SIMULATE],
    args: [
      "calibrate",
      RUN,
      "--bins",
      "10",
      "--strategy",
      "equal-mass",
      "--profile",
      "reconciliation",
      "--json",
    ],
  },
  {
    name: "calibrate_lm_eval",
    args: [
      "calibrate",
      `${H}/lm_eval/samples_recon_mc_2026-11-30T10-00-00.000000.jsonl`,
      "--severity",
      "HIGH",
      "--json",
    ],
  },
  {
    name: "escalate_simulated",
    setup: [SIMULATE],
    args: ["escalate", RUN, "--profile", "reconciliation", "--json"],
  },
  {
    name: "sweep_simulated",
    setup: [SIMULATE],
    args: [
      "sweep",
      RUN,
      "--base",
      "reconciliation",
      "--from",
      "1",
      "--to",
      "100000",
      "--points",
      "61",
      "--registry-draws",
      "2000",
      "--seed",
      "1",
      "--json",
    ],
  },
  {
    name: "sweep_model_ab",
    args: ["sweep", "data/examples/model_ab.jsonl", "--json"],
  },
  {
    name: "plan_simulated",
    setup: [SIMULATE],
    args: [
      "plan",
      RUN,
      "--a",
      "frontier_even",
      "--b",
      "small_severity_shaped",
      "--profile",
      "principal_risk",
      "--n-tasks",
      "512",
      "--json",
    ],
  },
  {
    name: "breakeven",
    args: ["breakeven", "--pj", "0.1", "--ce", "0.02", "--cr", "1", "--json"],
  },
  {
    name: "verify_reconciliation",
    args: ["verify", "data/tasks/reconciliation_777_300.jsonl", "--json"],
  },
  {
    name: "verify_payment_repair",
    args: ["verify", "data/tasks/payment_repair_777_300.jsonl", "--json"],
  },
  {
    name: "verify_settlement",
    args: ["verify", "data/tasks/settlement_777_300.jsonl", "--json"],
  },
  {
    name: "contamination",
    args: [
      "contamination",
      "data/tasks/reconciliation_777_300.jsonl",
      "data/tasks/reconciliation_777_300.jsonl",
      "--json",
    ],
    code: 1,
  },
  {
    name: "ledger_verify",
    setup: LEDGER_SETUP,
    args: ["ledger", "verify", LEDGER, "--json"],
  },
  {
    name: "ledger_verify_lossbench",
    args: [
      "ledger",
      "verify",
      "data/examples/lossbench_ledger.jsonl",
      "--format",
      "lossbench",
      "--json",
    ],
  },
  {
    name: "replay_threshold",
    setup: LEDGER_SETUP,
    args: [
      "replay",
      LEDGER,
      "--threshold",
      "0.3",
      "--profile",
      "principal_risk",
      "--json",
    ],
  },
  {
    name: "replay_route",
    setup: LEDGER_SETUP,
    args: [
      "replay",
      LEDGER,
      "--threshold",
      "chow",
      "--route",
      "HIGH=frontier_even",
      "--route",
      "CRITICAL=frontier_even",
      "--json",
    ],
  },
  {
    name: "replay_curve",
    setup: LEDGER_SETUP,
    args: ["replay", LEDGER, "--thresholds", "0:1:50", "--json"],
  },
  {
    name: "ledger_reviews",
    setup: LEDGER_SETUP,
    args: [
      "ledger",
      "reviews",
      LEDGER,
      "--now",
      "2026-04-01T00:00:00Z",
      "--json",
    ],
  },
  {
    name: "drift",
    setup: LEDGER_SETUP,
    args: ["drift", LEDGER, "--split", "2026-03-16T00:00:00Z", "--json"],
  },
];
