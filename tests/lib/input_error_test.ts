import assert from "node:assert/strict";
import {
  InputRangeError,
  InputSyntaxError,
  InputTypeError,
  isInputError,
} from "../../lib/input_error.ts";

Deno.test("input errors are the built-in errors of their meaning, told apart from the same built-ins raised by a bug", () => {
  const cases = [
    [new InputTypeError("t"), TypeError],
    [new InputRangeError("r"), RangeError],
    [new InputSyntaxError("s"), SyntaxError],
  ] as const;
  for (const [e, Builtin] of cases) {
    assert.ok(e instanceof Builtin);
    assert.equal(e.name, Builtin.name);
    assert.equal(isInputError(e), true);
    assert.equal(isInputError(new Builtin("a bug")), false);
  }
  assert.equal(isInputError(null), false);
  assert.equal(isInputError("text"), false);
});
