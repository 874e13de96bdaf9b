// Private: turn the first zod issue into "field: problem, got value" text.
import type { z } from "zod";

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const key of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[key as string];
  }
  return v;
}

function show(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The dotted field path of an issue, `(root)` for the whole value. */
export function fieldOf(path: readonly PropertyKey[], prefix = ""): string {
  const parts = path.map((k) =>
    typeof k === "number" ? `[${k}]` : `${String(k)}`
  );
  const joined = parts.reduce(
    (acc, p) => p.startsWith("[") ? acc + p : acc === "" ? p : `${acc}.${p}`,
    prefix,
  );
  return joined === "" ? "(root)" : joined;
}

/** Describe a zod issue in one line: field, what is wrong, what was found. */
export function describeIssue(
  issue: z.core.$ZodIssue,
  input: unknown,
  prefix = "",
): string {
  const field = fieldOf(issue.path, prefix);
  const got = valueAt(input, issue.path);
  if (got === undefined && issue.code !== "unrecognized_keys") {
    return `${field} is missing`;
  }
  // JSON.parse reads a number past the largest double (1e400) as Infinity,
  // which JSON.stringify would show as null
  if (typeof got === "number" && !Number.isFinite(got) && !Number.isNaN(got)) {
    return `${field} is out of range: a number ${got > 0 ? "above" : "below"} ${
      got > 0 ? "" : "-"
    }1.8e308, past the largest a double holds`;
  }
  switch (issue.code) {
    case "unrecognized_keys":
      return `${field === "(root)" ? "" : `${field}: `}unknown field${
        issue.keys.length > 1 ? "s" : ""
      } ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`;
    case "invalid_type":
      return `${field} must be ${issue.expected}, got ${show(got)}`;
    default: {
      const message = lowerFirst(issue.message);
      const sep = message.startsWith("must ") ? " " : ": ";
      return `${field}${sep}${message}, got ${show(got)}`;
    }
  }
}

function lowerFirst(s: string): string {
  return s.length === 0 ? s : s[0].toLowerCase() + s.slice(1);
}
