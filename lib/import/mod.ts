/**
 * The harness importers: inspect_ai, lm-evaluation-harness, HELM, promptfoo,
 * ReconForge and LossBench logs turned into Decision records, with severity
 * and probability provenance decided in one shared mapping.
 *
 * @module
 */

export * from "./reconforge.ts";
export * from "./lossbench.ts";
export * from "./lm_eval.ts";
export * from "./helm.ts";
export * from "./promptfoo.ts";
export * from "./inspect.ts";
export * from "./inspect_eval.ts";
export * from "./harness.ts";
export * from "./mapping.ts";
export * from "./detect.ts";
export * from "./severity_template.ts";
