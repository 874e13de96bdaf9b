import assert from "node:assert/strict";
import fc from "fast-check";
import {
  decodeUtf8Strict,
  parseJsonBytesStrict,
  parseJsonStrict,
} from "../../../lib/import/_json_strict.ts";

const SEED = 20261201;

Deno.test("parseJsonStrict() equals JSON.parse on valid JSON (property, seed printed on failure)", () => {
  fc.assert(
    fc.property(fc.json(), fc.constantFrom(0, 2), (text, indent) => {
      const pretty = JSON.stringify(JSON.parse(text), null, indent);
      assert.deepEqual(parseJsonStrict(text), JSON.parse(text));
      assert.deepEqual(parseJsonStrict(pretty), JSON.parse(pretty));
    }),
    { seed: SEED, numRuns: 500 },
  );
});

Deno.test("parseJsonStrict() refuses what JSON.parse refuses and reads the rest the same (property)", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.stringMatching(/^[\[\]{}",:0-9.eE+\- a-z\\]{0,14}$/),
      ),
      (text) => {
        // the bare constants are the one place this reader accepts more
        if (/NaN|Infinity/.test(text)) return;
        let expected: unknown;
        try {
          expected = JSON.parse(text);
        } catch {
          assert.throws(() => parseJsonStrict(text), SyntaxError);
          return;
        }
        try {
          assert.deepEqual(parseJsonStrict(text), expected);
        } catch (error) {
          // JSON.parse keeps the last of a repeated key; we refuse it
          assert.match(String(error), /duplicate key/);
        }
      },
    ),
    { seed: SEED, numRuns: 3000 },
  );
});

Deno.test("parseJsonStrict() reads bare NaN, Infinity and -Infinity outside strings only", () => {
  const v = parseJsonStrict(
    '{"a": NaN, "b": [Infinity, -Infinity, 1e3], "c": "NaN", "d": "x\\"NaN"}',
  ) as Record<string, unknown>;
  assert.ok(Number.isNaN(v.a));
  assert.deepEqual(v.b, [Infinity, -Infinity, 1000]);
  assert.equal(v.c, "NaN");
  assert.equal(v.d, 'x"NaN');
  for (const bad of ["nan", "Inf", "-NaN", "+Infinity", "Infinityx"]) {
    assert.throws(() => parseJsonStrict(bad), SyntaxError, bad);
  }
});

Deno.test("parseJsonStrict() refuses a repeated key, naming its path, file, line and column", () => {
  assert.throws(
    () =>
      parseJsonStrict('{"samples": [{"id": 1}, {"id": 2,\n "id": 3}]}', {
        file: "log.json",
      }),
    {
      name: "SyntaxError",
      message:
        "Cannot parse JSON log.json: line 2 column 2: duplicate key $.samples[1].id",
    },
  );
  assert.throws(
    () => parseJsonStrict('{"a b": {"x": 1, "x": 1}}'),
    /duplicate key \$\["a b"\]\.x/,
  );
  // the same key in two different objects is fine
  assert.deepEqual(parseJsonStrict('[{"a": 1}, {"a": 2}]'), [{ a: 1 }, {
    a: 2,
  }]);
});

Deno.test("parseJsonStrict() names line and column of a syntax error", () => {
  assert.throws(
    () => parseJsonStrict('{\n  "a": 1,\n  "b": tru\n}', { file: "x.json" }),
    /^SyntaxError: Cannot parse JSON x\.json: line 3 column 8: unexpected/,
  );
  assert.throws(() => parseJsonStrict('{"a": 1} x'), /after the value/);
  assert.throws(() => parseJsonStrict('"abc'), /unterminated string/);
  assert.throws(() => parseJsonStrict('"a\\qb"'), /invalid escape/);
  assert.throws(() => parseJsonStrict(""), /end of input/);
});

Deno.test("parseJsonStrict() keeps __proto__ as an own key, as JSON.parse does", () => {
  const v = parseJsonStrict('{"__proto__": {"x": 1}}') as Record<
    string,
    unknown
  >;
  assert.deepEqual(Object.keys(v), ["__proto__"]);
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
});

Deno.test("the byte readers skip a BOM and refuse invalid UTF-8", () => {
  const bom = new Uint8Array([
    0xef,
    0xbb,
    0xbf,
    ...new TextEncoder().encode('{"a":NaN}'),
  ]);
  assert.ok(
    Number.isNaN((parseJsonBytesStrict(bom, "a.json") as { a: number }).a),
  );
  assert.throws(
    () => decodeUtf8Strict(new Uint8Array([0x22, 0xc3, 0x28, 0x22]), "b.json"),
    /^SyntaxError: Cannot read b\.json: invalid UTF-8$/,
  );
  assert.deepEqual(parseJsonStrict("\uFEFF[1]"), [1]);
});
