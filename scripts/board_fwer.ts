// The family-wise error of board's ranking on seeded boards with known
// truth, the table of docs/method.md ("Ranking on a board"): per scenario
// and profile, the share of boards on which some pair was declared in the
// wrong order (better while truly worse or equal), its one-sided 95% Clopper-Pearson
// upper bound, and the share of truly ordered pairs found. The scenarios
// and the simulation are those of tests/lib/board/fwer_test.ts, with more
// boards, every shipped profile, and one more case: two models of equal
// expected loss under principal_risk that err at different severities,
// where the sign-flip test claims no size.
// Usage: deno run -A scripts/board_fwer.ts [--boards 400] [--tasks 100] [--resamples 1000] [--seed 7]
import { parseArgs } from "node:util";
import { SHIPPED_PROFILES } from "../lib/costs/shipped.ts";
import { clopperPearsonUpper } from "../lib/math/clopper_pearson.ts";
import {
  boardFwer,
  SCENARIOS,
  tradeOffScenario,
} from "../tests/lib/board/_board_sim.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    boards: { type: "string", default: "400" },
    tasks: { type: "string", default: "100" },
    resamples: { type: "string", default: "1000" },
    seed: { type: "string", default: "7" },
  },
});
const boards = Number(values.boards);
const n = Number(values.tasks);
const resamples = Number(values.resamples);
const seed = Number(values.seed);
const alpha = 0.05;

console.log(
  `${boards} boards per scenario, ${n} tasks, alpha ${alpha}, ${resamples} sign assignments, seed ${seed}\n`,
);
console.log(
  "| scenario | profile | wrong order | 95% upper bound | ordered pairs found |\n| --- | --- | --- | --- | --- |",
);
for (const scenario of [...SCENARIOS, tradeOffScenario(n)]) {
  const found = boardFwer(scenario, SHIPPED_PROFILES, {
    boards,
    n,
    alpha,
    resamples,
    seed,
  });
  for (const [profile, r] of Object.entries(found)) {
    const upper = clopperPearsonUpper(r.wrong, r.boards)!;
    console.log(
      `| ${scenario.name} | ${profile} | ${(r.wrong / r.boards).toFixed(3)} | ${
        upper.toFixed(3)
      } | ${
        r.orderedPairs === 0
          ? "none ordered"
          : `${(r.found / r.orderedPairs).toFixed(3)} of ${r.orderedPairs}`
      } |`,
    );
  }
}
