/**
 * The shape every analysis returns.
 *
 * @module
 */

import type { ColumnTable } from "arquero";
import type { Claim } from "./claim.ts";

/** A Vega-Lite specification, as a plain JSON object. */
export type VegaLiteSpec = Record<string, unknown>;

/**
 * What an analysis returns: its tables, its charts and its claims. No files
 * are written and nothing is printed; surfaces (notebooks, `reproduce`, the
 * CLI) decide what to do with the result.
 */
export interface AnalysisResult {
  /** Analysis id, the file name under `analyses/`. */
  readonly id: string;
  /** Title of the artefact reproduced. */
  readonly title: string;
  /** The source document and section it reproduces. */
  readonly source: string;
  /** Parameters the analysis ran with (profiles, seeds, sizes), for the record. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** Named tables. */
  readonly tables: Readonly<Record<string, ColumnTable>>;
  /** Named Vega-Lite specs. */
  readonly charts: Readonly<Record<string, VegaLiteSpec>>;
  /** Asserted claims. */
  readonly claims: readonly Claim[];
}
