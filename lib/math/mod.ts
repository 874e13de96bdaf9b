/**
 * The mathematics every area shares: binomial rates and their intervals
 * (Wilson, Clopper–Pearson), the normal quantile, special functions and the
 * seeded sampler.
 *
 * @module
 */

export * from "./normal_quantile.ts";
export * from "./rate.ts";
export * from "./sampling.ts";
export * from "./clopper_pearson.ts";
export * from "./exact_sum.ts";
