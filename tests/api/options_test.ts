// Each library function's options are its command's flags: the same names
// (camelCase, a repeatable flag in its plural), listed in the root's module
// doc, and checked by the same code with the same errors.
import assert from "node:assert/strict";
import * as lossbook from "../../mod.ts";
import type {
  BoardOptions,
  CalibrateOptions,
  CardOptions,
  CompareOptions,
  EscalateOptions,
  PlanOptions,
  ScoreOptions,
  SeverityTemplateOptions,
  SweepOptions,
} from "../../mod.ts";
import { SCORE_OPTIONS } from "../../api/score.ts";
import { COMPARE_OPTIONS } from "../../api/compare.ts";
import { CALIBRATE_OPTIONS } from "../../api/calibrate.ts";
import { ESCALATE_OPTIONS } from "../../api/escalate.ts";
import { SWEEP_OPTIONS } from "../../api/sweep.ts";
import { PLAN_OPTIONS } from "../../api/plan.ts";
import { CARD_OPTIONS } from "../../api/card.ts";
import { BOARD_OPTIONS } from "../../api/board.ts";
import { SEVERITY_TEMPLATE_OPTIONS } from "../../api/severity_template.ts";
import {
  optionFlags,
  type OptionsOf,
  OUTPUT_FLAGS,
} from "../../api/_options.ts";
import type { OptionTable } from "../../commands/_help.ts";
import { runCli } from "../_helpers.ts";

// Compile-time: each options interface has exactly the options of its
// command's flag table, and every value it accepts is one the flag takes.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends
  (<T>() => T extends B ? 1 : 2) ? true : false;
type Fits<I, T extends OptionTable> = [
  Equal<keyof I, keyof OptionsOf<T>>,
  Required<I> extends Required<OptionsOf<T>> ? true : false,
];
const typesFit: [
  Fits<ScoreOptions, typeof SCORE_OPTIONS>,
  Fits<CompareOptions, typeof COMPARE_OPTIONS>,
  Fits<CalibrateOptions, typeof CALIBRATE_OPTIONS>,
  Fits<EscalateOptions, typeof ESCALATE_OPTIONS>,
  Fits<SweepOptions, typeof SWEEP_OPTIONS>,
  Fits<PlanOptions, typeof PLAN_OPTIONS>,
  Fits<CardOptions, typeof CARD_OPTIONS>,
  Fits<BoardOptions, typeof BOARD_OPTIONS>,
  Fits<SeverityTemplateOptions, typeof SEVERITY_TEMPLATE_OPTIONS>,
] = [
  [true, true],
  [true, true],
  [true, true],
  [true, true],
  [true, true],
  [true, true],
  [true, true],
  [true, true],
  [true, true],
];

type Fn = (inputs: readonly string[], options: object) => Promise<unknown>;

const FUNCTIONS: ReadonlyArray<{
  name:
    | "score"
    | "compare"
    | "calibrate"
    | "escalate"
    | "sweep"
    | "plan"
    | "card"
    | "board"
    | "severityTemplate";
  /** The command, where its name is not the function's. */
  command?: string;
  table: OptionTable;
  fn: Fn;
  /** Options the function needs to get as far as reading its flags. */
  needs: Readonly<Record<string, string>>;
}> = [
  { name: "score", table: SCORE_OPTIONS, fn: lossbook.score as Fn, needs: {} },
  {
    name: "compare",
    table: COMPARE_OPTIONS,
    fn: lossbook.compare as Fn,
    needs: { a: "A", b: "B" },
  },
  {
    name: "calibrate",
    table: CALIBRATE_OPTIONS,
    fn: lossbook.calibrate as Fn,
    needs: {},
  },
  {
    name: "escalate",
    table: ESCALATE_OPTIONS,
    fn: lossbook.escalate as Fn,
    needs: {},
  },
  { name: "sweep", table: SWEEP_OPTIONS, fn: lossbook.sweep as Fn, needs: {} },
  {
    name: "plan",
    table: PLAN_OPTIONS,
    fn: lossbook.plan as Fn,
    needs: { a: "A", b: "B", profile: "flat" },
  },
  { name: "card", table: CARD_OPTIONS, fn: lossbook.card as Fn, needs: {} },
  {
    name: "board",
    table: BOARD_OPTIONS,
    fn: lossbook.board as Fn,
    needs: { resamples: "200" },
  },
  {
    name: "severityTemplate",
    command: "severity-template",
    table: SEVERITY_TEMPLATE_OPTIONS,
    fn: lossbook.severityTemplate as Fn,
    needs: {},
  },
];

const RUN = "data/examples/model_ab.jsonl";

Deno.test("every options interface has its command's flags, name for name (checked by the compiler)", () => {
  assert.equal(typesFit.flat().every((t) => t === true), true);
});

Deno.test("the root's module doc lists every option of every function, and no other", async () => {
  const text = await Deno.readTextFile(
    new URL("../../mod.ts", import.meta.url),
  );
  const doc = text.slice(0, text.indexOf("@module"));
  for (const { name, table } of FUNCTIONS) {
    const start = doc.indexOf(` * - \`${name}\`:`);
    assert.ok(start >= 0, `${name} has no list in the module doc`);
    const next = doc.indexOf("\n * - `", start + 1);
    const para = doc.indexOf("\n *\n", start);
    const end = next < 0 ? para : Math.min(next, para);
    const listed = [...doc.slice(start, end).matchAll(/`(\w+)`/g)]
      .map((m) => m[1]).slice(1);
    assert.deepEqual(
      [...listed].sort(),
      [...optionFlags(table).keys()].sort(),
      name,
    );
  }
});

Deno.test("output flags stay in the commands: a function refuses them as unknown options", async () => {
  for (const { name, table, fn, needs } of FUNCTIONS) {
    for (const flag of OUTPUT_FLAGS) {
      if (!(flag in table)) continue;
      await assert.rejects(
        () => fn([RUN], { ...needs, [flag]: true }),
        new RegExp(`${name}: unknown option ${flag}`),
      );
    }
  }
});

// A value no flag accepts here: each option given it fails as its flag does,
// with the same message, or, where the flag takes it, gives the same output.
Deno.test("each option is checked as its flag, with the same error (every function, every flag)", async () => {
  let refused = 0;
  let taken = 0;
  for (const { name, command, table, fn, needs } of FUNCTIONS) {
    for (const [option, flag] of optionFlags(table)) {
      const doc = table[flag];
      const needed = Object.entries(needs).filter(([k]) => k !== option);
      const value = doc.type === "boolean" ? true : "x%1";
      const args = [
        command ?? name,
        RUN,
        ...needed.flatMap(([k, v]) => [`--${k}`, v]),
        ...(doc.type === "boolean" ? [`--${flag}`] : [`--${flag}`, "x%1"]),
        "--json",
      ];
      const cli = await runCli(args);
      const options = {
        ...Object.fromEntries(needed),
        [option]: doc.multiple ? [value] : value,
      };
      const got = await fn([RUN], options).then(
        (d) => ({ ok: JSON.stringify(d, null, 2) + "\n" }),
        (e: Error) => ({ error: e.message }),
      );
      const where = `${name} ${option} (--${flag})`;
      if (cli.code === 0) {
        taken++;
        assert.deepEqual(got, { ok: cli.stdout }, where);
      } else {
        refused++;
        assert.ok(
          "error" in got,
          `${where}: the CLI failed, the function did not`,
        );
        assert.ok(
          cli.stderr.includes(got.error),
          `${where}: CLI said ${cli.stderr.trim()}, the function ${got.error}`,
        );
      }
    }
  }
  // both paths ran: flags that refuse the value, switches that take it
  assert.ok(refused > 60 && taken >= 3, `${refused} refused, ${taken} taken`);
});

Deno.test("a number stands for its decimal string, and a list for a repeated flag", async () => {
  const cli = await runCli([
    "score",
    RUN,
    "--ci",
    "0.9",
    "--resamples",
    "200",
    "--seed",
    "7",
    "--profile",
    "flat",
    "--profile",
    "principal_risk",
    "--json",
  ]);
  assert.equal(cli.code, 0);
  const doc = await lossbook.score([RUN], {
    ci: 0.9,
    resamples: 200,
    seed: 7,
    profiles: ["flat", "principal_risk"],
  });
  assert.equal(JSON.stringify(doc, null, 2) + "\n", cli.stdout);
});

Deno.test("an unknown option, or a value of the wrong kind, is refused by name", async () => {
  await assert.rejects(
    () => lossbook.score([RUN], { profile: "flat" } as ScoreOptions),
    /score: unknown option profile; its options are .*profiles/,
  );
  await assert.rejects(
    () => lossbook.score([RUN], { profiles: "flat" } as never),
    /option profiles \(--profile, repeatable\) takes a list, got "flat"/,
  );
  await assert.rejects(
    () => lossbook.score([RUN], { ci: Number.NaN }),
    /option ci \(--ci\) takes a string or a finite number, got NaN/,
  );
  await assert.rejects(
    () => lossbook.calibrate([RUN], { bySource: "yes" } as never),
    /option bySource \(--by-source\) is a switch: true or false, got "yes"/,
  );
});

Deno.test('engine: "chdb" reaches score() and sweep() as --engine chdb does: without chdb installed, the same refusal naming the command that installs it', async () => {
  const dir = await Deno.makeTempDir({ prefix: "lossbook-no-chdb-" });
  const saved = Deno.env.get("XDG_CACHE_HOME");
  Deno.env.set("XDG_CACHE_HOME", dir);
  try {
    const cli = await runCli(["score", RUN, "--engine", "chdb"]);
    assert.equal(cli.code, 2);
    const message = cli.stderr.replace(/^lossbook score: /, "").trim();
    assert.match(message, /`lossbook engine install chdb`/);
    for (const fn of [lossbook.score, lossbook.sweep]) {
      await assert.rejects(
        () => fn([RUN], { engine: "chdb" }),
        (error: Error) => error.message.endsWith(message),
      );
    }
  } finally {
    if (saved === undefined) Deno.env.delete("XDG_CACHE_HOME");
    else Deno.env.set("XDG_CACHE_HOME", saved);
    await Deno.remove(dir, { recursive: true });
  }
});
