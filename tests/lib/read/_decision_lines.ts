// Test helper: generated JSONL decision lines, valid and damaged, in the
// spellings writers use (key orders, whitespace, escapes, number forms),
// for the byte scanner's properties and the WebAssembly reader's.
import fc from "fast-check";
import { SEVERITIES } from "../../../lib/costs/severity.ts";
import { decision } from "../../_helpers.ts";

// JSON text of a string: plain, or with some characters \u-escaped
const jsonString = (s: string, escape: boolean) =>
  escape
    ? `"${
      [...s].map((c) =>
        c === '"' || c === "\\" || c < " " || /[a-z]/.test(c)
          ? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`
          : c
      ).join("")
    }"`
    : JSON.stringify(s);

const idChars = fc.constantFrom(
  "a",
  "b",
  "Z",
  "0",
  "-",
  "_",
  " ",
  "é",
  "日",
  '"',
  "\\",
  "\t",
  "\u007f",
);
const id = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom("bench", "frontier", "small", "MATCH", "t-1"),
  },
  fc.array(idChars, { minLength: 0, maxLength: 4 }).map((a) => a.join("")),
);

// spellings of a number: as JSON.stringify writes it, and others that
// parse to a value (exponents, trailing zeros, long digit strings, -0)
/** Spellings of a number that parse to it (with damage, some that do not). */
export const numberText = (v: number, damage: boolean) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.constant(JSON.stringify(v)) },
    fc.constantFrom(
      v.toExponential(),
      v.toExponential().toUpperCase(),
      v.toFixed(20),
      v.toFixed(3),
      `${v}0`.includes(".") ? `${v}0` : `${v}.0`,
      v === 0 ? "-0" : `${v}`,
      v === 0 ? "-0.0e5" : `${v}e0`,
      ...(damage ? [String(v).replace(/^0\./, "00."), `+${v}`, `.${v}`] : []),
    ),
  );

const probability = fc.oneof(
  fc.constantFrom(0, 1, 0.5, 0.829, 1e-7, 0.30000000000000004, 1.5, -0.5, 2),
  fc.double({ min: -0.5, max: 1.5, noNaN: true }),
);
const count = fc.oneof(
  fc.constantFrom(0, 1, 7, 2 ** 53 - 1, 2 ** 53, -1, 1.5),
  fc.nat(),
);
const usd = fc.oneof(
  fc.constantFrom(0, 0.0004, 4e-5, 1e21, -1, 12.5),
  fc.double({ min: 0, max: 1e6, noNaN: true }),
);

/** A value of each field, as raw JSON text, sometimes of the wrong type (damage). */
export function fieldValue(key: string, damage: boolean): fc.Arbitrary<string> {
  const str = (a: fc.Arbitrary<string>) =>
    fc.tuple(a, fc.nat(29)).map(([s, e]) => jsonString(s, e === 0));
  const wrong = fc.constantFrom('"0.9"', "0.9", "true", "null", "{}", "[]");
  const num = (a: fc.Arbitrary<number>) =>
    a.chain((v) => numberText(v, damage));
  const pick = (right: fc.Arbitrary<string>) =>
    damage ? fc.oneof({ weight: 20, arbitrary: right }, wrong) : right;
  const ok = (valid: string[], other: string[]) =>
    fc.constantFrom(...valid, ...(damage ? other : []));
  switch (key) {
    case "trial":
    case "tokensIn":
    case "tokensOut":
      return pick(
        num(
          damage ? count : fc.oneof(
            { weight: 9, arbitrary: fc.nat(100_000) },
            fc.constant(2 ** 53 - 1),
          ),
        ),
      );
    case "latencyMs":
      return pick(
        num(damage ? usd : fc.nat(10_000_000).map((v) => v / 1000)),
      );
    case "severity":
      return pick(str(ok([...SEVERITIES], ["low", "SEVERE"])));
    case "action":
      return pick(str(ok(["auto", "escalate"], ["manual"])));
    case "outcome":
      return pick(str(ok(["resolved", "timeout", "cancelled"], ["unknown"])));
    case "parseOk":
      return pick(fc.constantFrom("true", "false"));
    case "pCorrect":
      return pick(
        fc.oneof(
          fc.constant("null"),
          num(
            damage ? probability : fc.double({ min: 0, max: 1, noNaN: true }),
          ),
          num(fc.constantFrom(0, 1, 0.5, 0.829, 1e-7, 0.30000000000000004)),
          num(fc.double({ min: 0, max: 1, noNaN: true })),
        ),
      );
    case "pCorrectSource":
      return pick(
        fc.oneof(
          fc.constant("null"),
          str(
            ok(["stated", "agreement@5", "score-metadata:confidence"], [
              "agreement@0",
              "guess",
            ]),
          ),
        ),
      );
    case "cost": {
      const priced = fc.constantFrom("complete", "partial");
      const unpriced = fc.constantFrom("unavailable", "not_applicable");
      const amount = num(damage ? usd : fc.constantFrom(0, 4e-5, 12.5, 1e21));
      const pair = damage
        ? fc.tuple(
          fc.oneof(priced, unpriced),
          fc.oneof(fc.constant("null"), amount),
        )
        : fc.oneof(
          fc.tuple(priced, amount),
          fc.tuple(unpriced, fc.constant("null")),
        );
      const shaped = fc.tuple(
        pair,
        fc.boolean(),
        fc.constantFrom("", " ", "\t"),
      )
        .map(([[c, u], swap, w]) =>
          swap
            ? `{${w}"usd"${w}:${w}${u},"completeness":"${c}"${w}}`
            : `{"completeness":${w}"${c}",${w}"usd":${u}}`
        );
      return damage
        ? fc.oneof(
          { weight: 5, arbitrary: shaped },
          fc.constantFrom(
            '{"completeness":"complete","usd":1,"usd":2}',
            '{"completeness":"complete"}',
            '{"completeness":"complete","usd":1,"extra":0}',
            "null",
          ),
        )
        : shaped;
    }
    default:
      return pick(str(damage ? id : id.filter((v) => v !== "")));
  }
}

/** The required keys. */
export const REQUIRED = [
  "runId",
  "modelId",
  "taskId",
  "trial",
  "severity",
  "trueClass",
  "predClass",
  "parseOk",
  "pCorrect",
  "action",
  "cost",
  "outcome",
];
/** The optional keys. */
export const OPTIONAL = [
  "tokensIn",
  "tokensOut",
  "latencyMs",
  "pCorrectSource",
  "answer",
  "target",
];

// one line: the required keys (sometimes one missing, repeated or
// unknown), some optional ones, shuffled, with whitespace
// one damage at most: a field's value, or the key set, or what follows
const DAMAGES = [...REQUIRED, ...OPTIONAL, "drop", "repeat", "unknown", "tail"];
/** One line, valid or with one damage. */
export const line = fc.oneof(
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 3, arbitrary: fc.constantFrom(...DAMAGES) },
).chain((damage) =>
  fc.record({
    optional: fc.subarray(OPTIONAL),
    drop: damage === "drop" ? fc.constantFrom(...REQUIRED) : fc.constant(null),
    repeat: damage === "repeat"
      ? fc.constantFrom(...REQUIRED)
      : fc.constant(null),
    unknown: damage === "unknown"
      ? fc.constantFrom("extra", "runid", "Trial")
      : fc.constant(null),
    order: fc.nat(),
    ws: fc.constantFrom("", "", "", "", " ", "\t", "\r"),
    tail: damage === "tail"
      ? fc.constantFrom(" ", ",", "}", "x", "\u000b")
      : fc.constant(""),
  }).chain((shape) => {
    let keys = [...REQUIRED, ...shape.optional].filter((k) => k !== shape.drop);
    if (shape.repeat !== null) keys.push(shape.repeat);
    if (shape.unknown !== null) keys.push(shape.unknown);
    // a rotation keeps one writer's order for most lines
    const r = shape.order % keys.length;
    keys = [...keys.slice(r), ...keys.slice(0, r)];
    return fc.tuple(...keys.map((k) => fieldValue(k, k === damage))).map(
      (values) => {
        const w = shape.ws;
        const body = keys.map((k, i) => `${w}"${k}"${w}:${w}${values[i]}`)
          .join(",");
        return `${w}{${body}${w}}${shape.tail}`;
      },
    );
  })
);

// a line as JSON.stringify writes a valid decision (most real lines)
/** A line as JSON.stringify writes a valid decision. */
export const plainLine = fc.record({
  taskId: fc.constantFrom("t-1", "t-2", "task-3"),
  modelId: fc.constantFrom("frontier", "small"),
  trial: fc.nat(3),
  severity: fc.constantFrom(...SEVERITIES),
  trueClass: fc.constantFrom("MATCH", "AMOUNT_MISMATCH"),
  predClass: fc.constantFrom("MATCH", "AMOUNT_MISMATCH"),
  pCorrect: fc.oneof(fc.constant(null), fc.nat(1000).map((v) => v / 1000)),
  parseOk: fc.boolean(),
  action: fc.constantFrom("auto" as const, "escalate" as const),
}).map((patch) => JSON.stringify(decision(patch)));

// the value text of a field for a writer's line: valid in several
// spellings, or (damaged) one of the ways a writer gets it wrong
const ids = fc.constantFrom(
  "run",
  "frontier",
  "small",
  "MATCH",
  "t-1",
  "AMOUNT_MISMATCH",
);
const wordOf = (words: readonly string[]) =>
  fc.constantFrom(...words).map((w) => JSON.stringify(w));
const numOf = (a: fc.Arbitrary<number>) => a.chain((v) => numberText(v, false));
const VALID: Record<string, fc.Arbitrary<string>> = {
  runId: wordOf(["run", "run-2"]),
  modelId: wordOf(["frontier", "small"]),
  // now and then spelled with an escape or a non-ASCII letter (valid JSON
  // that the byte scanner leaves to the decoder)
  taskId: fc.oneof(
    { weight: 9, arbitrary: fc.nat(999).map((i) => JSON.stringify(`t-${i}`)) },
    fc.constantFrom('"t-\\u0031"', '"té"', '"t\\"q"', '"t\\\\"', '"t\\t"'),
  ),
  trial: numOf(fc.constantFrom(0, 0, 0, 1, 2 ** 53 - 1)),
  severity: wordOf(SEVERITIES),
  trueClass: wordOf(["MATCH", "AMOUNT_MISMATCH"]),
  predClass: wordOf(["MATCH", "AMOUNT_MISMATCH", "DUPLICATE"]),
  parseOk: fc.constantFrom("true", "false"),
  pCorrect: fc.oneof(
    fc.constant("null"),
    numOf(fc.constantFrom(0, 1, 0.5, 0.829, 1e-7)),
    numOf(fc.double({ min: 0, max: 1, noNaN: true })),
  ),
  action: wordOf(["auto", "escalate"]),
  cost: fc.oneof(
    fc.tuple(
      fc.constantFrom("complete", "partial"),
      numOf(fc.constantFrom(0, 4e-4, 12.5, 1e21)),
    )
      .map(([c, u]) => `{"completeness":"${c}","usd":${u}}`),
    fc.constantFrom("unavailable", "not_applicable").map((c) =>
      `{"completeness":"${c}","usd":null}`
    ),
  ),
  outcome: wordOf(["resolved", "timeout", "cancelled"]),
  tokensIn: numOf(fc.nat(100_000)),
  tokensOut: numOf(fc.nat(100_000)),
  latencyMs: numOf(fc.nat(1_000_000).map((v) => v / 1000)),
  pCorrectSource: fc.constantFrom(
    "null",
    '"stated"',
    '"logprob-option"',
    '"agreement@5"',
  ),
  answer: ids.map((s) => JSON.stringify(s)),
  target: ids.map((s) => JSON.stringify(s)),
};
const DAMAGED: Record<string, string[]> = {
  runId: ['""', "1", "null"],
  modelId: ['""', "true"],
  taskId: ['""', "0.9"],
  trial: ["-1", "1.5", "9007199254740992", '"1"', "null", "1e400"],
  severity: ['"low"', '"SEVERE"', "0"],
  trueClass: ['""', "null"],
  predClass: ['""', "[]"],
  parseOk: ["1", '"true"', "null", "tru"],
  pCorrect: ["1.5", "-0.1", "1.0000001", '"0.5"', "true", "2", "-1e-9"],
  action: ['"manual"', '"Auto"', "null"],
  cost: [
    '{"completeness":"complete","usd":-0.01}',
    '{"completeness":"complete","usd":null}',
    '{"completeness":"unavailable","usd":1}',
    '{"completeness":"complete"}',
    '{"completeness":"nope","usd":1}',
  ],
  outcome: ['"unknown"', "null"],
  tokensIn: ["-1", "1.5", '"3"'],
  tokensOut: ["-2", "0.5"],
  latencyMs: ["-1", '"5"', "true"],
  pCorrectSource: ['"guess"', '"agreement@0"', "1"],
  answer: ["1", "null"],
  target: ["true"],
};

/**
 * The lines of one writer: one key order, spacing and set of optional keys
 * for every line (so that they share a template), values drawn per line
 * in several spellings, and about one line in `damageRate` with one field
 * spelled wrong.
 */
export const writerLines = (maxLines: number, damageRate = 8) =>
  fc.record({
    optional: fc.subarray(OPTIONAL),
    order: fc.nat(),
    ws: fc.constantFrom("", "", "", " ", "\t"),
  }).chain((shape) => {
    let keys = [...REQUIRED, ...shape.optional];
    const r = shape.order % keys.length;
    keys = [...keys.slice(r), ...keys.slice(0, r)];
    const w = shape.ws;
    const oneLine = fc.nat(damageRate * keys.length - 1).chain((d) =>
      fc.tuple(
        ...keys.map((k, i) =>
          i === d ? fc.constantFrom(...DAMAGED[k]) : VALID[k]
        ),
      ).map((values) =>
        `${w}{${
          keys.map((k, i) => `${w}"${k}"${w}:${w}${values[i]}`).join(",")
        }${w}}`
      )
    );
    // now and then one byte of a line replaced, anywhere (a key's letter,
    // a quote, a separator, a word's last letter): near misses of the
    // template and of the vocabularies
    const nearMiss = fc.tuple(
      oneLine,
      fc.nat(damageRate - 1),
      fc.nat(),
      fc.constantFrom("x", "Z", '"', ":", ",", " ", "}", "0", "E"),
    ).map(([l, roll, at, c]) => {
      if (roll !== 0) return l;
      const i = at % l.length;
      return l.slice(0, i) + c + l.slice(i + 1);
    });
    return fc.array(nearMiss, { minLength: 1, maxLength: maxLines });
  });
