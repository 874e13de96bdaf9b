import assert from "node:assert/strict";
import fc from "fast-check";
import {
  decodeUtf8Strict,
  findDuplicateKey,
  parseJsonBytesStrict,
  parseJsonNoDuplicates,
  parseJsonStrict,
  refuseDuplicateKeys,
} from "../../lib/_json.ts";

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

Deno.test("parseJsonStrict() refuses what JSON.parse refuses and reads the rest the same; with nonFinite, bare NaN and Infinity besides (property)", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ maxLength: 12 }),
        fc.stringMatching(/^[\[\]{}",:0-9.eE+\- a-zNIfinty\\]{0,14}$/),
      ),
      fc.boolean(),
      (text, nonFinite) => {
        let expected: unknown;
        try {
          expected = JSON.parse(text);
        } catch {
          // the bare constants are the one place nonFinite accepts more
          if (nonFinite && /NaN|Infinity/.test(text)) return;
          assert.throws(
            () => parseJsonStrict(text, { nonFinite }),
            SyntaxError,
          );
          return;
        }
        try {
          assert.deepEqual(parseJsonStrict(text, { nonFinite }), expected);
        } catch (error) {
          // JSON.parse keeps the last of a repeated key; we refuse it
          assert.match(String(error), /duplicate key/);
        }
      },
    ),
    { seed: SEED, numRuns: 3000 },
  );
});

Deno.test("parseJsonStrict() reads bare NaN, Infinity and -Infinity outside strings only, where the caller takes them", () => {
  const text =
    '{"a": NaN, "b": [Infinity, -Infinity, 1e3], "c": "NaN", "d": "x\\"NaN"}';
  const v = parseJsonStrict(text, { nonFinite: true }) as Record<
    string,
    unknown
  >;
  assert.ok(Number.isNaN(v.a));
  assert.deepEqual(v.b, [Infinity, -Infinity, 1000]);
  assert.equal(v.c, "NaN");
  assert.equal(v.d, 'x"NaN');
  for (const bad of ["nan", "Inf", "-NaN", "+Infinity", "Infinityx"]) {
    assert.throws(
      () => parseJsonStrict(bad, { nonFinite: true }),
      SyntaxError,
      bad,
    );
  }
  assert.throws(() => parseJsonStrict(text, { file: "x.json" }), {
    name: "SyntaxError",
    message: "Cannot parse JSON x.json: line 1 column 7: NaN is not JSON",
  });
  assert.throws(
    () => parseJsonStrict("[1, -Infinity]"),
    /line 1 column 5: -Infinity is not JSON/,
  );
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
  const v = parseJsonBytesStrict(bom, "a.json", { nonFinite: true });
  assert.ok(Number.isNaN((v as { a: number }).a));
  assert.throws(() => parseJsonBytesStrict(bom, "a.json"), /NaN is not JSON/);
  assert.throws(
    () => decodeUtf8Strict(new Uint8Array([0x22, 0xc3, 0x28, 0x22]), "b.json"),
    /^SyntaxError: Cannot read b\.json: invalid UTF-8$/,
  );
  assert.deepEqual(parseJsonStrict("\uFEFF[1]"), [1]);
  // U+FFFD written as such is text, not an invalid sequence
  assert.equal(
    decodeUtf8Strict(new TextEncoder().encode("a\uFFFDb"), "c.json"),
    "a\uFFFDb",
  );
});

Deno.test("parseJsonStrict() reads with JSON.parse only what the tokenizer reads the same: a key repeated past a marker in a string, nesting past 2000, and bare NaN go to the tokenizer", () => {
  assert.throws(
    () => parseJsonStrict('{"a": "x\\":", "b": 1, "b": 2}', { file: "m.json" }),
    /m\.json: line 1 column 23: duplicate key \$\.b/,
  );
  assert.deepEqual(parseJsonStrict('{"a": "x\\":", "b": 1}'), {
    a: 'x":',
    b: 1,
  });
  const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
  assert.equal(JSON.stringify(parseJsonStrict(deep(2000))), deep(2000));
  assert.throws(
    () => parseJsonStrict(deep(2001), { file: "d.json" }),
    /d\.json: line 1 column 2001: nested more than 2000 levels deep/,
  );
  assert.deepEqual(
    parseJsonStrict('{"s": "NaN", "v": NaN}', { nonFinite: true }),
    { s: "NaN", v: NaN },
  );
});

Deno.test("refuseDuplicateKeys() names the first repeated key and its object; a marker inside a string is no key", () => {
  const refuse = (text: string) =>
    refuseDuplicateKeys(text, JSON.parse(text), () => "a.jsonl: line 3");
  assert.throws(() => refuse('{"severity":"CRITICAL","severity":"LOW"}'), {
    name: "SyntaxError",
    message:
      'a.jsonl: line 3: key "severity" appears twice; a repeated key is ambiguous, so it is refused',
  });
  assert.throws(
    () => refuse('{"cost":{"usd":0.001,"usd" :0}}'),
    /^SyntaxError: a\.jsonl: line 3: cost: key "usd" appears twice/,
  );
  assert.throws(
    () => refuse('[{"a b":[{"x":1}, {"y":{"z":1,"\\u007a":2}}]}]'),
    /line 3: \[0\]\.a b\[1\]\.y: key "z" appears twice/,
  );
  refuse('{"answer":"{\\"class\\": \\"X\\"}","a":{"b":"\\":"}}');
  refuse('"not an object"');
  assert.throws(
    () => parseJsonNoDuplicates('{"K": 1, "K": 2}', () => "p.json"),
    /^SyntaxError: p\.json: key "K" appears twice/,
  );
  assert.throws(() => parseJsonNoDuplicates("{", () => "p.json"), SyntaxError);
});

// JSON text with repeated keys now and then: objects over a few keys, some
// spelled with escapes, some values holding a key marker
const { tree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: "small" }, tie("leaf"), tie("obj"), tie("arr")),
  leaf: fc.oneof(
    fc.constantFrom("1", "null", '"x"', '"a\\":b"', '"\\u0061"', "-0.5e3"),
    fc.json({ maxDepth: 1 }),
  ),
  obj: fc.array(
    fc.tuple(
      fc.constantFrom("a", "b", "\\u0061", "a b", "", "__proto__"),
      tie("tree"),
      fc.constantFrom("", " ", "\n"),
    ),
    { maxLength: 5 },
  ).map((kv) => `{${kv.map(([k, v, s]) => `"${k}"${s}:${s}${v}`).join(",")}}`),
  arr: fc.array(tie("tree"), { maxLength: 4 }).map((a) => `[${a.join(",")}]`),
}));

Deno.test("findDuplicateKey() and refuseDuplicateKeys() name the key parseJsonStrict refuses, or none when it reads the text (property)", () => {
  let repeated = 0;
  fc.assert(
    fc.property(tree, (t) => {
      const text = t as string;
      const found = findDuplicateKey(text);
      let strict: string | null = null;
      try {
        assert.deepEqual(parseJsonStrict(text), JSON.parse(text));
      } catch (error) {
        strict = (error as Error).message;
      }
      if (found === null) {
        assert.equal(strict, null);
        refuseDuplicateKeys(text, JSON.parse(text), () => "w");
        return;
      }
      repeated++;
      const path = [...found.path, found.key].map((k) =>
        typeof k === "number"
          ? `[${k}]`
          : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k)
          ? `.${k}`
          : `[${JSON.stringify(k)}]`
      ).join("");
      assert.ok(strict?.endsWith(`duplicate key $${path}`), strict ?? "");
      assert.throws(
        () => refuseDuplicateKeys(text, JSON.parse(text), () => "w"),
        new RegExp(
          `key ${RegExp.escape(JSON.stringify(found.key))} appears twice`,
        ),
      );
    }),
    { seed: SEED, numRuns: 2000 },
  );
  assert.ok(repeated > 200, `${repeated} texts with a repeated key`);
});
