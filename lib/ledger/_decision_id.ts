// Private: a decision's key (run, model, task, trial) and the id lossbook
// gives it. The id is the canonical JSON of the key as an array, so no two
// keys share an id even when a field holds the separator an older id used
// (`openai/gpt-4o`). Records written with the older `run/model/task/trial`
// ids keep them; duplicates are found on the key, never on the id string.

import { canonicalJson } from "./_canonical_json.ts";

/** The fields that identify a decision. */
export interface DecisionKeyFields {
  readonly runId: string;
  readonly modelId: string;
  readonly taskId: string;
  readonly trial: number;
}

/** The decision id lossbook writes: `["run","model","task",trial]`. */
export function decisionKeyId(d: DecisionKeyFields): string {
  return canonicalJson([d.runId, d.modelId, d.taskId, d.trial]);
}

/** The id earlier versions wrote: `run/model/task/trial`, ambiguous when a field holds `/`. */
export function legacyDecisionId(d: DecisionKeyFields): string {
  return `${d.runId}/${d.modelId}/${d.taskId}/${d.trial}`;
}

/** A map key for a decision's key fields. */
export function decisionKey(d: DecisionKeyFields): string {
  return decisionKeyId(d);
}
