// `lossbook breakeven`: the veto frontier's break-even p* = p_j + C_e/C_r.
import { breakEven } from "../lib/policy/break_even.ts";
import {
  type Command,
  parseFlags,
  UsageError,
  withUserValues,
} from "./_command.ts";

function number(name: string, raw: string | undefined): number {
  if (raw === undefined) {
    throw new UsageError(`--${name} is required`);
  }
  const v = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(v)) {
    throw new UsageError(
      `--${name} must be a number, got ${JSON.stringify(raw)}`,
    );
  }
  return v;
}

/** The `breakeven` command. */
export const breakevenCommand: Command = {
  summary:
    "The veto frontier's break-even p* = p_j + C_e/C_r: escalate iff P(wrong) > p*, or never when p* >= 1",
  usage: "lossbook breakeven --pj P --ce COST --cr COST [--json]",
  example: "deno task lossbook breakeven --pj 0.1 --ce 0.02 --cr 1",
  run(args) {
    const { values, positionals } = parseFlags("breakeven", args, {
      pj: { type: "string" },
      ce: { type: "string" },
      cr: { type: "string" },
      json: { type: "boolean" },
    });
    if (positionals.length > 0) {
      throw new UsageError(
        `unexpected argument ${JSON.stringify(positionals[0])}`,
      );
    }
    const b = withUserValues(() =>
      breakEven({
        pj: number("pj", values.pj),
        ce: number("ce", values.ce),
        cr: number("cr", values.cr),
      })
    );
    if (values.json) {
      console.log(JSON.stringify(
        {
          pj: b.pj,
          ce: b.ce,
          cr: b.cr,
          pStar: b.pStar,
          regime: b.regime,
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
          Number(b.pStar.toPrecision(12))
        } >= 1: escalation never pays; a wider rejection band only adds cost, change the judge tier`,
      );
    } else {
      console.log(
        `p* = ${b.pj} + ${b.ce}/${b.cr} = ${
          Number(b.pStar.toPrecision(12))
        }: escalate a decision to the judge iff P(wrong) > ${
          Number(b.pStar.toPrecision(12))
        }`,
      );
    }
    return Promise.resolve(0);
  },
};
