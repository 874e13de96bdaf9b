// `lossbook breakeven`: the veto frontier's break-even p* = p_j + C_e/C_r.
import { breakEven } from "../lib/policy/break_even.ts";
import type { Rational } from "../lib/sensitivity/_rational.ts";
import {
  type Command,
  parseFlags,
  UsageError,
  withUserValues,
} from "./_command.ts";
import {
  compareWithOne,
  exactBreakEven,
  nearestDouble,
  parseDecimal,
} from "./_decimal.ts";
import { formatRule } from "./_format.ts";
import { commandHelp } from "./_help.ts";
import { JSON_OPTION } from "./_options.ts";

function number(
  name: string,
  raw: string | undefined,
): { value: number; exact: Rational } {
  if (raw === undefined) {
    throw new UsageError(`--${name} is required`);
  }
  const exact = parseDecimal(raw);
  const v = Number(raw);
  if (exact === null || raw.trim() === "" || !Number.isFinite(v)) {
    throw new UsageError(
      `--${name} must be a number, got ${JSON.stringify(raw)}`,
    );
  }
  return { value: v, exact };
}

/** The options of `breakeven`, as `--help` lists them and `parseFlags` reads them. */
const BREAKEVEN_OPTIONS = {
  pj: {
    type: "string",
    value: "P",
    doc: "p_j, the judge's error rate on the decisions it is sent, in [0, 1]",
    required: true,
  },
  ce: {
    type: "string",
    value: "COST",
    doc: "C_e, the cost of one judge call (an escalation), >= 0",
    required: true,
  },
  cr: {
    type: "string",
    value: "COST",
    doc: "C_r, the cost of one wrong automatic decision, > 0",
    required: true,
  },
  json: JSON_OPTION,
} as const;

/** The `breakeven` command. */
export const breakevenCommand: Command = {
  summary:
    "The veto frontier's break-even p* = p_j + C_e/C_r: escalate iff P(wrong) > p*, or never when p* >= 1",
  ...commandHelp({
    forms: [{ command: "breakeven", options: BREAKEVEN_OPTIONS }],
    notes: [
      "The inputs are read as exact decimals, so the regime (threshold or never pays) is decided exactly, also where p* is within rounding of 1.",
    ],
  }),
  example: "deno task lossbook breakeven --pj 0.1 --ce 0.02 --cr 1",
  run(args) {
    const { values, positionals } = parseFlags(
      "breakeven",
      args,
      BREAKEVEN_OPTIONS,
    );
    if (positionals.length > 0) {
      throw new UsageError(
        `unexpected argument ${JSON.stringify(positionals[0])}`,
      );
    }
    const pj = number("pj", values.pj);
    const ce = number("ce", values.ce);
    const cr = number("cr", values.cr);
    // range checks and the floating-point p* come from the library ...
    const float = withUserValues(() =>
      breakEven({ pj: pj.value, ce: ce.value, cr: cr.value })
    );
    // ... the regime is decided on the decimal inputs exactly: p_j + C_e/C_r
    // compared with 1 as rationals, so 0.08 + 1.38/1.5 is 1 and never pays
    // although its double sum is 0.9999999999999999
    const exact = exactBreakEven(pj.exact, ce.exact, cr.exact);
    const b = {
      ...float,
      pStar: nearestDouble(exact),
      regime: compareWithOne(exact) >= 0
        ? "never-pays" as const
        : "threshold" as const,
    };
    if (values.json) {
      console.log(JSON.stringify(
        {
          pj: b.pj,
          ce: b.ce,
          cr: b.cr,
          pStar: b.pStar,
          regime: b.regime,
          pStarExact: `${exact.num}/${exact.den}`,
          rule: b.regime === "never-pays"
            ? "never escalate: p_j + C_e/C_r >= 1, so no decision is wrong often enough for the judge to pay; change the judge tier"
            : `escalate iff P(wrong) > ${b.pStar}`,
        },
        null,
        2,
      ));
    } else if (b.regime === "never-pays") {
      console.log(
        `p* = ${b.pj} + ${b.ce}/${b.cr} = ${
          formatRule(b.pStar)
        } >= 1: escalation never pays; a wider rejection band only adds cost, change the judge tier`,
      );
    } else {
      console.log(
        `p* = ${b.pj} + ${b.ce}/${b.cr} = ${
          formatRule(b.pStar)
        }: escalate a decision to the judge iff P(wrong) > ${
          formatRule(b.pStar)
        }`,
      );
    }
    return Promise.resolve(0);
  },
};
