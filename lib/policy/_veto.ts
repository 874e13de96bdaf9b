// Private to lib/policy: checks on the veto frontier's costs.
import type { VetoCosts } from "./break_even.ts";

/** Throw unless the veto costs are in range. */
export function _checkVetoCosts(what: string, costs: VetoCosts): VetoCosts {
  const { pj, ce, cr } = costs ?? ({} as VetoCosts);
  if (!(pj >= 0 && pj <= 1)) {
    throw new RangeError(
      `Cannot compute ${what}: pj must be in [0, 1], got ${pj}`,
    );
  }
  if (!(ce >= 0) || !Number.isFinite(ce)) {
    throw new RangeError(
      `Cannot compute ${what}: ce must be a finite number >= 0, got ${ce}`,
    );
  }
  if (!(cr > 0) || !Number.isFinite(cr)) {
    throw new RangeError(
      `Cannot compute ${what}: cr must be a finite number > 0, got ${cr}`,
    );
  }
  return { pj, ce, cr };
}
