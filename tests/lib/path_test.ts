// lossbook's own basename, dirname and join against node:path/posix, which
// they stand in for (so that format detection loads no node: module).
import assert from "node:assert/strict";
import posix from "node:path/posix";
import fc from "fast-check";
import { basename, dirname, join } from "../../lib/_path.ts";

const pathArb = fc.array(
  fc.constantFrom("/", "//", "a", "bc", ".", "..", "x.json", "-", " "),
  { maxLength: 8 },
).map((parts) => parts.join(""));

Deno.test("basename(), dirname() and join() give node:path/posix's answers (property, seed 53)", () => {
  fc.assert(
    fc.property(pathArb, fc.array(pathArb, { maxLength: 4 }), (p, parts) => {
      assert.equal(basename(p), posix.basename(p), `basename ${p}`);
      assert.equal(dirname(p), posix.dirname(p), `dirname ${p}`);
      assert.equal(
        join(...parts),
        posix.join(...parts),
        `join ${JSON.stringify(parts)}`,
      );
      assert.equal(join(p, "run_spec.json"), posix.join(p, "run_spec.json"));
    }),
    { seed: 53, numRuns: 5000 },
  );
});
