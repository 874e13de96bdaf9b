// Regenerate data/examples/model_ab.jsonl: the 800 exceptions of each model in
// the Third Number's Model A vs B month, one Decision per line.
// Usage: deno run --allow-write scripts/generate_examples.ts
import { scenarioDecisions } from "../analyses/divergence.ts";

const path = new URL("../data/examples/model_ab.jsonl", import.meta.url);
const lines = scenarioDecisions(undefined, { includeClean: false }).map((d) =>
  JSON.stringify(d)
);
await Deno.writeTextFile(path, lines.join("\n") + "\n");
console.error(`wrote ${lines.length} decisions to ${path.pathname}`);
