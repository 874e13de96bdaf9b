// Private to `board`: the page of a board document, one self-contained
// HTML file. Its charts are Vega-Lite specs rendered to inline SVG here, so
// the page runs no script and loads nothing; every number on it is read
// from the document (board.json).
import { lineChart } from "../lib/charts/line_chart.ts";
import { reliabilityDiagramChart } from "../lib/charts/reliability_diagram.ts";
import { renderSvg } from "../lib/charts/render.ts";
import { readChartFonts } from "../lib/read/chart_fonts.ts";
import { logGrid } from "../lib/sensitivity/cost_family.ts";
import {
  escapeHtml,
  formatCell,
  REPORT_CSS,
  tableHtml,
} from "../lib/report/html.ts";
import { scopeSvgIds } from "../lib/report/report.ts";
import { VERSION } from "../version.ts";
import type { BoardDocument, BoardProfile } from "./board.ts";

const PAGE_CSS = `
*,*::before,*::after{box-sizing:border-box}
body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;max-width:1180px;margin:0 auto;padding:1.5em 1.5em 4em;color:#1f2328;background:#fff}
h1{margin:0 0 0.2em;font-size:1.9em} h2{border-bottom:1px solid #d0d7de;padding-bottom:0.2em;margin:2em 0 0.6em;font-size:1.45em}
h3{margin:1.4em 0 0.4em;font-size:1.12em}
a{color:#0969da} .muted{color:#57606a;font-weight:normal} code{font-size:12px}
.summary{font-size:17px;font-weight:600;margin:0.3em 0 0.6em}
.meta{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 14px;font-size:13px;margin:0 0 1em}
.meta dt{color:#57606a} .meta dd{margin:0;overflow-wrap:anywhere}
nav#contents ol{padding-left:1.6em;margin:0.3em 0} nav#contents li{margin:0.2em 0}
.groups{font-family:ui-monospace,monospace;font-weight:600}
details{margin:0.4em 0} details summary{cursor:pointer;color:#57606a}
.lb-figure{margin:0.5em 0;min-width:0;max-width:100%}
.lb-figure svg{display:block;max-width:100%;height:auto}
.lb-figure figcaption{font-size:12px;color:#57606a;margin-top:0.2em}
footer{margin-top:3em;border-top:1px solid #d0d7de;padding-top:0.8em;font-size:13px;color:#57606a}
@media print{body{max-width:none;padding:0;font-size:11px}.lb-scroll{overflow:visible}.lb-table th{position:static}section{break-inside:avoid-page}}
`;

function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCell(n)} ${n === 1 ? one : many}`;
}

function slug(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]+/g, "-");
}

function groupsText(groups: readonly string[]): string {
  return groups.every((g) => g.length === 1)
    ? groups.join("")
    : groups.join(" ");
}

// A figure: its SVG, ids scoped to it, and a caption.
function figureHtml(name: string, svg: string, caption: string): string {
  const id = `figure-${slug(name)}`;
  return `<figure class="lb-figure" id="${id}" data-figure="${
    escapeHtml(name)
  }">${scopeSvgIds(svg, id)}<figcaption>${
    escapeHtml(caption)
  }</figcaption></figure>`;
}

function rankingHtml(p: BoardProfile): string {
  const rows = p.ranking.map((m) =>
    `<tr data-model="${
      escapeHtml(m.modelId)
    }"><td class="num">${m.position}</td><td>${
      escapeHtml(m.modelId)
    }</td><td class="num">${
      escapeHtml(formatCell(m.loss))
    }</td><td class="groups">${
      escapeHtml(groupsText(m.groups))
    }</td><td class="num">${
      m.rankInterval[0] === m.rankInterval[1]
        ? m.rankInterval[0]
        : `${m.rankInterval[0]} to ${m.rankInterval[1]}`
    }</td><td>${
      m.betterThan.length === 0 ? "none" : escapeHtml(m.betterThan.join(", "))
    }</td></tr>`
  ).join("\n");
  const pairs = p.pairs.map((x) => ({
    A: x.a,
    B: x.b,
    "loss A - B": x.difference,
    "p-value": x.pValue,
    "Holm p-value": x.adjustedPValue,
    [`${formatCell(x.lossInterval.level * 100)}% interval of loss A - B`]:
      x.lossInterval.lo === null || x.lossInterval.hi === null
        ? "unknown"
        : `${formatCell(x.lossInterval.lo)} to ${
          formatCell(x.lossInterval.hi)
        }`,
    "told apart": x.significant ? `yes: ${x.better} is better` : "no",
    "tasks that differ": x.nonZero,
    test: x.test,
  }));
  const id = `profile-${slug(p.id)}`;
  return `<h3 id="${id}">${escapeHtml(p.id)} <span class="muted">${
    escapeHtml(p.version)
  }${p.unit === null ? "" : `, loss in ${escapeHtml(p.unit)}`}</span></h3>
<div class="lb-scroll"><table class="lb-table board-ranking" data-profile="${
    escapeHtml(p.id)
  }"><thead><tr><th scope="col">place</th><th scope="col">model</th><th scope="col">loss</th><th scope="col">group</th><th scope="col">rank interval</th><th scope="col">significantly better than</th></tr></thead><tbody>
${rows}</tbody></table></div>
<details class="pairs"><summary>${
    plural(p.pairs.length, "pair")
  }: the tests behind the groups</summary><div class="lb-scroll">${
    tableHtml(Object.keys(pairs[0]), pairs)
  }</div></details>`;
}

// Loss per decision along sweep's family, on sweep's grid, each crossover
// inside the grid marked.
async function lossChart(doc: BoardDocument): Promise<string> {
  const s = doc.sweep;
  const ratios = logGrid({ from: s.from, to: s.to, points: 61 });
  const values = s.lines.flatMap((l) =>
    ratios.map((r) => ({
      r,
      model: l.modelId,
      loss: l.intercept + l.slope * r,
    }))
  );
  const positive = values.every((v) => v.loss > 0);
  const markers = s.crossovers.filter((x) =>
    x.ratio >= s.from && x.ratio <= s.to
  )
    .map((x) => ({
      x: x.ratio,
      label: `${x.b} overtakes ${x.a} at ${formatCell(x.ratio)}`,
    }));
  const spec = lineChart(values, {
    x: "r",
    y: "loss",
    group: "model",
    title: `Loss per decision as K(${s.scaled.join(", ")}) grows`,
    xTitle: `r: K(${s.scaled.join(", ")}) of ${s.base} times r`,
    yTitle: "loss per decision",
    groupTitle: "model",
    xScale: "log",
    yScale: positive ? "log" : "linear",
    markers,
    colorBy: "model",
    width: 560,
    height: 300,
  });
  return await renderSvg(spec, readChartFonts());
}

async function calibrationChart(doc: BoardDocument): Promise<string> {
  const points = doc.calibration.models.flatMap((m) =>
    m.bins.map((b) => ({ series: m.modelId, ...b }))
  );
  const spec = reliabilityDiagramChart(points, {
    title: "Reliability: stated P(correct) against accuracy",
    colorBy: "model",
  });
  return await renderSvg(spec, readChartFonts());
}

function crossoversHtml(doc: BoardDocument): string {
  const s = doc.sweep;
  if (s.crossovers.length === 0) {
    return `<p id="crossovers">No two loss lines cross at r &gt; 0: the order along the family never changes.</p>`;
  }
  const rows = s.crossovers.map((x) => ({
    crossover: `${x.b} overtakes ${x.a}`,
    r: x.ratio,
    "r exact": x.exact,
    "span K(CRITICAL)/K(LOW)": x.span,
    "r 95% interval": x.interval === null
      ? null
      : `${formatCell(x.interval.lo)} to ${formatCell(x.interval.hi)}`,
    "draws that do not cross": x.noCrossShare,
    "inside the chart": x.ratio >= s.from && x.ratio <= s.to ? "yes" : "no",
  }));
  return `<div class="lb-scroll" id="crossovers">${
    tableHtml(Object.keys(rows[0]), rows, {
      nullReason: () => ({
        label: "n/a",
        why:
          "no posterior draw of the two models' loss coefficients crosses at r > 0, so the ratio has no interval",
      }),
    })
  }</div>`;
}

function calibrationTable(doc: BoardDocument): string {
  const rows = doc.calibration.models.map((m) => ({
    model: m.modelId,
    "decisions with pCorrect": m.n,
    ECE: m.ece,
    "ECE interval": m.eceInterval.lo === null
      ? null
      : `${formatCell(m.eceInterval.lo)} to ${formatCell(m.eceInterval.hi)}`,
    "noise floor (mean)": m.noiseFloor.mean,
    Brier: m.brier,
    "cost-weighted ECE": m.costWeightedEce,
  }));
  return `<div class="lb-scroll">${
    tableHtml(Object.keys(rows[0]), rows)
  }</div>`;
}

function costTable(doc: BoardDocument): string {
  const rows = doc.costEvidence.map(({ group, ...rest }) => ({
    model: group,
    ...rest,
  }));
  return `<div class="lb-scroll" id="cost-table">${
    tableHtml(Object.keys(rows[0]), rows)
  }</div>`;
}

function inputText(doc: BoardDocument): string {
  return "file" in doc ? doc.file : doc.files.join(" + ");
}

/**
 * The board's page: one HTML document with no script and no request, its
 * charts inline SVG.
 *
 * @param doc The board document (board.json).
 * @returns The page.
 */
export async function boardPage(doc: BoardDocument): Promise<string> {
  const n = doc.models.length;
  const pairs = n * (n - 1) / 2;
  const lossSvg = await lossChart(doc);
  const calibrated = doc.calibration.models.length > 0;
  const reliabilitySvg = calibrated ? await calibrationChart(doc) : null;
  const row = (k: string, v: string) => `<dt>${k}</dt><dd>${v}</dd>`;
  const ids = doc.models.map((m) => m.modelId);
  const coverage = doc.costEvidence.map((r) =>
    `${escapeHtml(r.group)}: ${formatCell(r.completeCount)} of ${
      formatCell(r.attempts)
    } complete`
  ).join("; ");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>lossbook board: ${escapeHtml(ids.join(", "))}</title>
<style>${PAGE_CSS}${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>Board</h1>
<p class="summary" id="shared-tasks" data-models="${n}" data-tasks="${doc.tasks}">${
    plural(n, "model")
  } compared on the ${plural(doc.tasks, "task")} they all answered</p>
<p>Models are ranked by loss under each cost profile. Every pair is tested with <code>compare</code>'s paired sign-flip test on these tasks, and the p-values of a profile's ${
    plural(pairs, "pair")
  } are adjusted together (Holm) at alpha ${
    formatCell(doc.alpha)
  }; a pair is told apart when its adjusted p-value is at most alpha and <code>compare</code>'s interval of its loss difference at level 1 − alpha / ${pairs} excludes zero, so that costly errors the tasks did not show still count. Models that share a letter are not told apart. A model's rank interval runs from 1 + the models significantly better to ${n} − the models significantly worse.${
    doc.unsharedTasks > 0
      ? ` ${
        plural(doc.unsharedTasks, "task")
      } answered by some models and not others ${
        doc.unsharedTasks === 1 ? "is" : "are"
      } left out.`
      : ""
  }</p>
<dl class="meta" id="run-facts">
${row("inputs", escapeHtml(inputText(doc)))}
${row("format", escapeHtml(doc.format))}
${
    row(
      "models",
      doc.models.map((m) =>
        `${escapeHtml(m.modelId)} (${plural(m.tasks, "task")} answered, ${
          plural(m.decisions, "decision")
        } on the shared tasks)`
      ).join("; "),
    )
  }
${row("cost matrix", escapeHtml(doc.matrix))}
${row("test", escapeHtml(doc.test))}
${
    row(
      "seed",
      `${doc.seed}; ${
        formatCell(doc.resamples)
      } sign assignments per Monte Carlo test`,
    )
  }
${row("lossbook", escapeHtml(VERSION))}
</dl>
<nav id="contents" aria-label="Contents"><ol>
<li><a href="#ranking">Ranking</a>: ${
    doc.profiles.map((p) =>
      `<a href="#profile-${slug(p.id)}">${escapeHtml(p.id)}</a>`
    ).join(", ")
  }</li>
<li><a href="#loss-vs-k">Loss against K</a></li>
<li><a href="#calibration">Calibration</a></li>
<li><a href="#cost-evidence">Cost evidence</a></li>
<li><a href="#notes">Notes</a></li>
</ol></nav>
</header>
<main>
<section id="ranking">
<h2>Ranking</h2>
${doc.profiles.map(rankingHtml).join("\n")}
</section>
<section id="loss-vs-k">
<h2>Loss against K</h2>
<p>The costs of ${escapeHtml(doc.sweep.scaled.join(" and "))} in ${
    escapeHtml(doc.sweep.base)
  } multiplied by r, from ${formatCell(doc.sweep.from)} to ${
    formatCell(doc.sweep.to)
  }: each model's loss per decision on the shared tasks is a line in r, and where two lines cross the order of the two models flips (as <code>sweep</code> computes it).</p>
${
    figureHtml(
      "loss-vs-k",
      lossSvg,
      `loss per decision against r; dashed rules mark the crossovers inside [${
        formatCell(doc.sweep.from)
      }, ${formatCell(doc.sweep.to)}]`,
    )
  }
${crossoversHtml(doc)}
</section>
<section id="calibration">
<h2>Calibration</h2>
${
    reliabilitySvg === null
      ? `<p>No model states pCorrect on the shared tasks, so there is nothing to calibrate.</p>`
      : `${
        figureHtml(
          "calibration",
          reliabilitySvg,
          `as calibrate reports it, ${
            doc.calibration.models[0].binsRequested
          } ${
            doc.calibration.models[0].strategy
          } bins; the cost-weighted ECE is priced by ${doc.calibration.profile}`,
        )
      }\n${calibrationTable(doc)}${
        doc.calibration.without.length === 0
          ? ""
          : `\n<p>No stated pCorrect on the shared tasks: ${
            escapeHtml(doc.calibration.without.join(", "))
          }.</p>`
      }`
  }
</section>
<section id="cost-evidence">
<h2>Cost evidence</h2>
<p>What each model's attempts on the shared tasks cost, as far as it is known: ${coverage}. An unknown cost is never counted as $0.</p>
${costTable(doc)}
</section>
<section id="notes">
<h2>Notes</h2>
<ul>
${doc.notes.map((t) => `<li>${escapeHtml(t)}</li>`).join("\n")}
</ul>
</section>
</main>
<footer>Written by <code>lossbook board</code>; every number on this page is in <code>board.json</code> beside it.</footer>
</body>
</html>
`;
}
