// The board's promise, checked by simulation with known truth before any
// board prints it: under each profile, the chance of declaring some pair in
// the wrong order (one model better while it is truly worse or equal) stays
// at or under alpha. Seeded and small; scripts/board_fwer.ts runs the study
// of docs/method.md ("Ranking on a board") with more boards and profiles.
import assert from "node:assert/strict";
import { getProfile } from "../../../lib/costs/shipped.ts";
import { boardFwer, SCENARIOS } from "./_board_sim.ts";

const ALPHA = 0.05;
const PROFILES = [getProfile("flat"), getProfile("principal_risk")];

for (const scenario of SCENARIOS.slice(0, 3)) {
  Deno.test(`board: wrongly ordered pairs stay under alpha, ${scenario.name}`, () => {
    const found = boardFwer(scenario, PROFILES, {
      boards: 150,
      n: 80,
      alpha: ALPHA,
      resamples: 400,
      seed: 2026,
    });
    for (const [profile, r] of Object.entries(found)) {
      const rate = r.wrong / r.boards;
      console.log(
        `${scenario.name}, ${profile}: ${r.wrong} of ${r.boards} boards with a wrongly ordered pair (${
          rate.toFixed(3)
        }); ${r.found} of ${r.orderedPairs} truly ordered pairs found`,
      );
      assert.ok(rate <= ALPHA, `${profile}: ${rate}`);
      // a board that never tells anything apart would pass vacuously
      if (r.orderedPairs > 0 && scenario.name.includes("better")) {
        assert.ok(r.found > 0, `${profile}: no ordered pair found`);
      }
    }
  });
}
