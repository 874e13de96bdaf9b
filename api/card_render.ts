// The consequence card written out: Markdown to paste into a model card or
// a README (GitHub's flavour: pipe tables, code spans), and the same card
// as a standalone HTML page. Both are drawn from one list of blocks, so
// they say the same thing; every number is one of the document's, printed
// as score, sweep and calibrate print it in their reports.
import { formatNumber } from "../commands/_command.ts";
import { formatLevel, formatRateMethod } from "../commands/_format.ts";
import type { Severity } from "../lib/costs/severity.ts";
import type { CardDocument, CardModel, WinSpan } from "./card.ts";
import { pBestUnstatedNote } from "./score.ts";

/** A run of inline text: plain, a code span, or strong. */
type Inline = { text: string; code?: true; strong?: true };
/** A block of the card. */
type Block =
  | { kind: "heading"; level: 2 | 3; text: Inline[] }
  | { kind: "paragraph"; text: Inline[] }
  | { kind: "list"; items: Inline[][] }
  | {
    kind: "table";
    head: string[];
    align: ("left" | "right")[];
    rows: Inline[][][];
  };

const t = (text: string): Inline => ({ text });
const c = (text: string): Inline => ({ text, code: true });
const b = (text: string): Inline => ({ text, strong: true });

function pct(v: number | null): string {
  return v === null ? "n/a" : `${(v * 100).toFixed(2)}%`;
}

function fixed(v: number | null, digits = 4): string {
  return v === null ? "n/a" : v.toFixed(digits);
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}

function accuracyText(
  m: CardModel,
  level: string,
  unit: CardDocument["unit"],
): string {
  const ci = m.accuracyInterval;
  if (m.accuracy === null) return "n/a";
  if (ci === null) return pct(m.accuracy);
  const method = formatRateMethod(
    ci,
    unit === "cluster" ? "clusters" : "tasks",
  );
  return `${pct(m.accuracy)} (${level} ${method}: ${pct(ci.lo)} to ${
    pct(ci.hi)
  })`;
}

function recallText(m: CardModel, level: string): string {
  const r = m.severityWeightedRecall;
  const ci = m.severityWeightedRecallInterval;
  if (r === null || ci === null) return "n/a (no exception classes to weigh)";
  const method = ci.interval === "bootstrap"
    ? "bootstrap"
    : "Clopper-Pearson per cell";
  return `${r.toFixed(4)} (${level} ${method}: ${fixed(ci.lo)} to ${
    fixed(ci.hi)
  })`;
}

function severityLine(doc: CardDocument): Inline[] {
  const s = doc.severities;
  switch (s.from) {
    case "--severity":
      return [t("every decision given "), c(`--severity ${s.value}`)];
    case "--severity-map":
      return [
        t("from "),
        c(`--severity-map ${s.file}`),
        t(" (SHA-256 "),
        c(s.sha256),
        t(")"),
        ...(s.key === null
          ? [t(", by task id")]
          : [t(", keyed on "), c(s.key)]),
      ];
    case "--severity-field":
      return [
        t("read at "),
        c(`--severity-field ${s.path}`),
        t(" of each item"),
      ];
    case "inputs":
      return [t("the inputs' own "), c("severity"), t(" field")];
  }
}

function kText(k: Readonly<Partial<Record<Severity, number>>>): string[] {
  return Object.entries(k).map(([s, v]) => `K(${s}) ${formatNumber(v!)}`);
}

function spanText(w: WinSpan): string {
  const from = kText(w.K.from);
  const to = kText(w.K.to);
  const ks = from.map((f, i) => `${f} to ${to[i].replace(/^K\(\w+\) /, "")}`);
  return `r from ${formatNumber(w.from, 8)} to ${formatNumber(w.to, 8)} (${
    ks.join(", ")
  })${w.tiedWith.length > 0 ? `, tied with ${w.tiedWith.join(", ")}` : ""}`;
}

function modelBlocks(doc: CardDocument, m: CardModel): Block[] {
  const level = formatLevel(doc.level);
  const blocks: Block[] = [
    { kind: "heading", level: 3, text: [t(m.modelId)] },
    {
      kind: "table",
      head: ["Measure", "Value"],
      align: ["left", "left"],
      rows: [
        [[t("Decisions")], [t(formatNumber(m.decisions))]],
        [[t("Tasks")], [t(formatNumber(m.tasks))]],
        [[t("Accuracy")], [t(accuracyText(m, level, doc.unit))]],
        [[t("Severity-weighted recall R_w")], [t(recallText(m, level))]],
      ],
    },
  ];
  const hasBest = m.pBest !== null;
  blocks.push(
    {
      kind: "paragraph",
      text: [
        t(
          "Loss under each cost profile, summed over the decisions (lower is better)",
        ),
        t(hasBest ? "; P(best) is the probability of the lowest loss:" : ":"),
      ],
    },
    {
      kind: "table",
      head: [
        "Profile",
        "Loss",
        `${level} interval`,
        "Interval method",
        ...(hasBest ? ["P(best)"] : []),
        "Unit",
      ],
      align: [
        "left",
        "right",
        "right",
        "left",
        ...(hasBest ? ["right" as const] : []),
        "left",
      ],
      rows: doc.profiles.map((p) => {
        const ci = m.lossIntervals[p.id];
        return [
          [c(`${p.id}@${p.version}`)],
          [t(formatNumber(m.loss[p.id]))],
          [
            t(
              ci.lo === null
                ? "n/a"
                : `[${formatNumber(ci.lo)}, ${formatNumber(ci.hi)}]`,
            ),
          ],
          [t(ci.method)],
          ...(hasBest ? [[t(m.pBest![p.id]?.toFixed(3) ?? "n/a")]] : []),
          [t(p.unit ?? "")],
        ];
      }),
    },
  );
  const unstated = pBestUnstatedNote(m, doc.profiles.map((p) => p.id));
  if (unstated !== null) {
    blocks.push({ kind: "paragraph", text: [t(unstated)] });
  }
  const f = doc.sweep.family;
  const family: Inline[] = [
    t(" along "),
    c(f.base),
    t(
      ` with ${
        f.scaled.map((s) => `K(${s})`).join(" and ")
      } multiplied by r from ${formatNumber(doc.sweep.grid.from)} to ${
        formatNumber(doc.sweep.grid.to)
      } (loss per ${doc.sweep.per}): `,
    ),
  ];
  blocks.push({
    kind: "paragraph",
    text: [
      b("Where it has the lowest loss"),
      ...family,
      t(
        m.wins.length === 0
          ? "nowhere."
          : `${m.wins.map(spanText).join("; ")}.`,
      ),
    ],
  });
  const cal = m.calibration;
  if (cal === null) {
    blocks.push({
      kind: "paragraph",
      text: [
        b("Calibration:"),
        t(" none, no decision of this model states a probability (pCorrect)."),
      ],
    });
  } else {
    const ci = cal.eceInterval;
    const sources = Object.entries(cal.pCorrectSources).map(([s, n]) =>
      `${s === "null" ? "unstated" : s} (${formatNumber(n)})`
    );
    blocks.push({
      kind: "paragraph",
      text: [
        b("Calibration:"),
        t(
          ` ECE ${fixed(cal.ece)} (${formatLevel(ci.level)} ${ci.method}: ${
            fixed(ci.lo)
          } to ${fixed(ci.hi)}), Brier ${fixed(cal.brier)}, over ${
            plural(cal.n, "decision")
          } with a probability; `,
        ),
        c("pCorrectSource"),
        t(`: ${sources.join(", ")}.`),
      ],
    });
  }
  const k = m.cost;
  const perSuccess = k.costPerSuccessLabel === "complete"
    ? `USD ${formatNumber(k.costPerSuccessUsd)} (complete)`
    : k.costPerSuccessLabel === "incomplete"
    ? "not given (incomplete: some decision's cost is not complete)"
    : "not computable (no decision succeeded)";
  blocks.push({
    kind: "paragraph",
    text: [
      b("Cost evidence:"),
      t(
        ` of ${plural(k.attempts, "decision")}, ${
          formatNumber(k.complete)
        } complete, ${formatNumber(k.partial)} partial, ${
          formatNumber(k.unavailable)
        } unavailable, ${
          formatNumber(k.notApplicable)
        } not applicable; cost per success ${perSuccess}.`,
      ),
    ],
  });
  return blocks;
}

/** The card as blocks. */
function cardBlocks(doc: CardDocument): Block[] {
  const files = "file" in doc
    ? [doc.file]
    : "files" in doc
    ? doc.files
    : [`table ${doc.table}`];
  const models = doc.models;
  const facts: Inline[][] = [
    [b("Severities:"), t(" "), ...severityLine(doc), t(".")],
  ];
  const ev = doc.evaluation;
  if (
    ev.taskTypes.length + ev.datasetTypes.length + ev.datasetNames.length > 0
  ) {
    const part = (label: string, values: string[]): Inline[] =>
      values.length === 0 ? [] : [
        t(`${label} `),
        ...values.flatMap((v, i) => [
          ...(i > 0 ? [t(", ")] : []),
          c(v),
        ]),
      ];
    const parts = [
      part("task", ev.taskTypes),
      [
        ...part("dataset", ev.datasetNames),
        ...(
          ev.datasetTypes.length === 0 ? [] : [
            t(ev.datasetNames.length === 0 ? "" : " "),
            ...part(
              ev.datasetNames.length === 0 ? "dataset at" : "at",
              ev.datasetTypes,
            ),
          ]
        ),
      ],
    ].filter((p) => p.length > 0);
    facts.push([
      b("Evaluation:"),
      t(" "),
      ...parts.flatMap((p, i) => [...(i > 0 ? [t("; ")] : []), ...p]),
      t("."),
    ]);
  }
  facts.push(
    doc.sameTasks
      ? [
        b("Tasks:"),
        t(
          models.length > 1
            ? ` every model answered the same ${plural(doc.tasks, "task")}.`
            : ` ${plural(doc.tasks, "task")}.`,
        ),
      ]
      : [
        b("Tasks:"),
        t(
          ` the models did not all answer the same tasks: ${
            models.map((m) => `${m.modelId} ${formatNumber(m.tasks)}`).join(
              ", ",
            )
          }, of ${plural(doc.tasks, "task")} in all, ${
            formatNumber(doc.sharedTasks)
          } answered by every model. Each model's figures are over its own tasks, as `,
        ),
        c("lossbook score"),
        t(" prints them."),
      ],
  );
  for (const i of doc.inputs ?? []) {
    facts.push([
      b("Incomplete log"),
      t(" read with "),
      c("--allow-incomplete"),
      t(": "),
      c(i.file),
      t(
        `, status ${i.status ?? "none"}, ${formatNumber(i.samplesRead)} of ${
          i.samplesExpected === null ? "an unstated number of" : formatNumber(
            i.samplesExpected,
          )
        } samples.`,
      ),
    ]);
  }
  if (doc.setAside !== undefined && doc.setAside.length > 0) {
    const by: Record<string, number> = {};
    for (const s of doc.setAside) by[s.outcome] = (by[s.outcome] ?? 0) + 1;
    facts.push([
      b("Set aside:"),
      t(
        ` ${plural(doc.setAside.length, "log item")} that ${
          doc.setAside.length === 1 ? "is" : "are"
        } no decision (${
          Object.entries(by).map(([o, n]) => `${o} ${formatNumber(n)}`).join(
            ", ",
          )
        }).`,
      ),
    ]);
  }
  facts.push([
    b("Scoring:"),
    t(
      ` ${doc.mode} mode (${doc.matrix} matrix); ${
        formatLevel(doc.level)
      } intervals, loss intervals by ${doc.lossIntervalMethod} (`,
    ),
    c(`--interval ${doc.interval}`),
    t(`); seed ${doc.seed}, ${formatNumber(doc.resamples)} resamples.`),
    ...(doc.unit === "cluster"
      ? [t(
        " Every interval and test counts clusters (a cluster's tasks, which the decisions name, count as one unit) but the ECE interval, which counts decisions.",
      )]
      : []),
  ]);
  return [
    { kind: "heading", level: 2, text: [t("Consequence card")] },
    {
      kind: "paragraph",
      text: [
        t(
          `${plural(models.length, "model")}, ${
            plural(doc.decisions, "decision")
          } on ${plural(doc.tasks, "task")}, read from `,
        ),
        ...files.flatMap((f, i) => [...(i > 0 ? [t(", ")] : []), c(f)]),
        t(` (${doc.format}) by lossbook ${doc.lossbook}:`),
      ],
    },
    { kind: "paragraph", text: [c(doc.command)] },
    { kind: "list", items: facts },
    ...models.flatMap((m) => modelBlocks(doc, m)),
  ];
}

// Markdown: text escaped where GitHub would read it as markup: an
// underscore only where it could open or close emphasis (not inside a word)
function mdText(s: string): string {
  return s.replace(/[\\`*<>|]/g, (ch) => `\\${ch}`).replace(
    /(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g,
    "\\_",
  );
}

function mdCode(s: string): string {
  const ticks = Math.max(0, ...[...s.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(ticks + 1);
  const pad = s.startsWith("`") || s.endsWith("`") ? " " : "";
  return `${fence}${pad}${s}${pad}${fence}`;
}

function mdInline(parts: readonly Inline[], inTable = false): string {
  return parts.map((p) => {
    const s = p.code ? mdCode(p.text) : mdText(p.text);
    const out = p.strong ? `**${s}**` : s;
    // a pipe inside a code span still splits a table row on GitHub
    return inTable && p.code ? out.replaceAll("|", "\\|") : out;
  }).join("");
}

/**
 * The card as Markdown, to paste into a model card or a README.
 *
 * @param doc The `card --json` document.
 * @returns The Markdown, ending in a newline.
 */
export function cardMarkdown(doc: CardDocument): string {
  const out: string[] = [];
  for (const block of cardBlocks(doc)) {
    switch (block.kind) {
      case "heading":
        out.push(`${"#".repeat(block.level)} ${mdInline(block.text)}`);
        break;
      case "paragraph":
        out.push(mdInline(block.text));
        break;
      case "list":
        out.push(block.items.map((i) => `- ${mdInline(i)}`).join("\n"));
        break;
      case "table": {
        const row = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
        out.push(
          [
            row(block.head.map(mdText)),
            row(block.align.map((a) => a === "right" ? "---:" : "---")),
            ...block.rows.map((r) =>
              row(r.map((cell) => mdInline(cell, true)))
            ),
          ].join("\n"),
        );
        break;
      }
    }
  }
  return `${out.join("\n\n")}\n`;
}

function html(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function htmlInline(parts: readonly Inline[]): string {
  return parts.map((p) => {
    const s = p.code ? `<code>${html(p.text)}</code>` : html(p.text);
    return p.strong ? `<strong>${s}</strong>` : s;
  }).join("");
}

const STYLE =
  "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5}table{border-collapse:collapse;margin:1rem 0}th,td{border:1px solid #ccc;padding:.25rem .5rem}td.r,th.r{text-align:right}code{font-size:.9em;background:#f4f4f4;padding:0 .2em}";

/**
 * The card as a standalone HTML page: the same blocks as
 * {@linkcode cardMarkdown}.
 *
 * @param doc The `card --json` document.
 * @returns The page, ending in a newline.
 */
export function cardHtml(doc: CardDocument): string {
  const out: string[] = [];
  for (const block of cardBlocks(doc)) {
    switch (block.kind) {
      case "heading":
        out.push(
          `<h${block.level}>${htmlInline(block.text)}</h${block.level}>`,
        );
        break;
      case "paragraph":
        out.push(`<p>${htmlInline(block.text)}</p>`);
        break;
      case "list":
        out.push(
          `<ul>\n${
            block.items.map((i) => `<li>${htmlInline(i)}</li>`).join("\n")
          }\n</ul>`,
        );
        break;
      case "table": {
        const cls = (i: number) =>
          block.align[i] === "right" ? ' class="r"' : "";
        const head = `<thead><tr>${
          block.head.map((h, i) => `<th${cls(i)}>${html(h)}</th>`).join("")
        }</tr></thead>`;
        out.push(
          `<table>${head}<tbody>\n${
            block.rows.map((r) =>
              `<tr>${
                r.map((cell, i) => `<td${cls(i)}>${htmlInline(cell)}</td>`)
                  .join("")
              }</tr>`
            ).join("\n")
          }\n</tbody></table>`,
        );
        break;
      }
    }
  }
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Consequence card</title>\n<style>${STYLE}</style>\n</head>\n<body>\n${
    out.join("\n")
  }\n</body>\n</html>\n`;
}
