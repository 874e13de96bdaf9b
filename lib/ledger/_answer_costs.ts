// Private: what each recorded answer costs if acted on automatically and if
// escalated, under a profile and a cost matrix, from what is known about its
// case's gold class. When the label leaves several outcomes possible, the
// cost is known only if every possible outcome costs the same under the
// matrix; otherwise it is NaN: unevaluable, never guessed.
import type { CostProfile } from "../costs/profile.ts";
import { SEVERITIES } from "../costs/severity.ts";
import { type CostMatrix, ruleCost } from "../metrics/loss.ts";
import { isVerdictClass, OUTCOMES } from "../metrics/sufficient_stats.ts";
import type { LedgerColumns } from "./columns.ts";

const CORRECT = 1, MISSED = 2, WRONG_TYPE = 4, FALSE_ALARM = 8;
const BITS = [CORRECT, MISSED, WRONG_TYPE, FALSE_ALARM]; // in OUTCOMES order

/**
 * Bit mask of the outcomes a (gold, not, pred) triple leaves possible.
 * `verdict` marks the codes of the reserved harness verdict classes: a wrong
 * harness verdict is always a miss, never a wrong type or a false alarm.
 */
export function possibleOutcomes(
  gold: number,
  not: number,
  pred: number,
  verdict: (code: number) => boolean = () => false,
): number {
  const clean = 0;
  if ((gold >= 0 && verdict(gold)) || verdict(pred)) {
    if (gold >= 0) return pred === gold ? CORRECT : MISSED;
    return not >= 0 && pred === not ? MISSED : CORRECT | MISSED;
  }
  if (gold >= 0) {
    if (pred === gold) return CORRECT;
    if (gold === clean) return FALSE_ALARM;
    return pred === clean ? MISSED : WRONG_TYPE;
  }
  if (not >= 0 && pred === not) {
    return pred === clean ? MISSED : FALSE_ALARM | WRONG_TYPE;
  }
  if (pred === clean) return CORRECT | MISSED;
  return CORRECT | WRONG_TYPE | (not === clean ? 0 : FALSE_ALARM);
}

/** Per-answer costs; NaN where unknown. */
export interface AnswerCosts {
  /** Cost if acted on automatically. */
  readonly auto: Float64Array;
  /** Cost if escalated. */
  readonly escalate: Float64Array;
  /** 1 when the answer is wrong, 0 when right, NaN when unknown. */
  readonly wrong: Float64Array;
}

/** Cost of each answer under each action. O(answers). */
export function answerCosts(
  cols: LedgerColumns,
  profile: CostProfile,
  matrix: CostMatrix,
): AnswerCosts {
  // cost[severity][action][mask], NaN when the mask's outcomes disagree
  const table = SEVERITIES.map((s) =>
    [matrix.auto, matrix.escalate].map((side) => {
      const out = new Float64Array(16).fill(NaN);
      for (let mask = 1; mask < 16; mask++) {
        let v: number | null = null;
        let same = true;
        OUTCOMES.forEach((o, i) => {
          if ((mask & BITS[i]) === 0) return;
          const c = ruleCost(side[o], profile, s);
          if (v === null) v = c;
          else if (v !== c) same = false;
        });
        if (same && v !== null) out[mask] = v;
      }
      return out;
    })
  );
  const verdictCodes = new Set(
    cols.classes.flatMap((name, code) => isVerdictClass(name) ? [code] : []),
  );
  const verdict = (code: number) => verdictCodes.has(code);
  const n = cols.answers;
  const auto = new Float64Array(n);
  const escalate = new Float64Array(n);
  const wrong = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const c = cols.answerCase[j];
    const mask = possibleOutcomes(
      cols.caseGold[c],
      cols.caseNot[c],
      cols.answerPred[j],
      verdict,
    );
    const t = table[cols.caseSeverity[c]];
    auto[j] = t[0][mask];
    escalate[j] = t[1][mask];
    wrong[j] = mask === CORRECT ? 0 : (mask & CORRECT) === 0 ? 1 : NaN;
  }
  return { auto, escalate, wrong };
}
