/**
 * The main job: run every registered analysis and write `out/` — tables as
 * CSV, figures as SVG, PNG and Vega-Lite JSON, `claims.json`, a
 * self-contained `report.html` and the API reference (`deno doc --html`)
 * under `api/`. Exits 1 when any claim fails.
 *
 * Each analysis's results are also kept as `results/<id>.json`, so that
 * `--only ID` re-runs that analysis and rewrites the report and
 * `claims.json` with it merged into the other analyses' last results: the
 * report always covers every analysis whose files are in `out/`.
 *
 * Usage: `deno task reproduce [--out DIR] [--only ID]... [--no-png] [--no-api]`
 *
 * @module
 */

import { parseArgs } from "node:util";
import { formatHelp, parseSpec } from "./commands/_help.ts";
import {
  REPRODUCE_COMMAND,
  REPRODUCE_OPTIONS,
} from "./commands/_reproduce_options.ts";
import { ANALYSES, type AnalysisEntry } from "./analyses/mod.ts";
import { renderPng, renderSvg } from "./lib/charts/render.ts";
import type { Claim } from "./lib/claims/claim.ts";
import { countClaimsByKind } from "./lib/claims/claim_counts.ts";
import { reportHtml, type ReportSection } from "./lib/report/report.ts";
import { VERSION } from "./version.ts";
import { InputRangeError, isInputError } from "./lib/input_error.ts";
import { readChartFonts } from "./lib/read/chart_fonts.ts";

/** Options for {@linkcode reproduce}. */
export interface ReproduceOptions {
  /** Output folder. Default: `"out"`. */
  outDir?: string;
  /**
   * Run only these analysis ids; the report and `claims.json` still cover
   * every analysis, taking the others from their last results in
   * `results/`. Default: all.
   */
  only?: readonly string[];
  /** Where progress lines go. Default: standard error. */
  log?: (line: string) => void;
  /** Also rasterise figures to PNG. Default: `true`. */
  png?: boolean;
  /** The analyses to choose from. Default: the registry, {@linkcode ANALYSES}. */
  analyses?: readonly AnalysisEntry[];
  /**
   * Also generate the API reference into `api/` with
   * `deno doc --html --name=lossbook mod.ts`. A failure is logged and named in
   * the report's header; it does not stop the run. Default: `true`.
   */
  apiDocs?: boolean;
  /**
   * Write into an output folder that holds files `reproduce` did not write.
   * Without it such a folder is refused, so nothing of the user's is
   * overwritten; a folder of an earlier `reproduce` run (it holds the marker
   * file `.lossbook-reproduce`) is regenerated. Default: `false`.
   */
  force?: boolean;
}

/** The marker file that says a folder is `reproduce`'s own output. */
export const OUTPUT_MARKER = ".lossbook-reproduce";

async function claimOutDir(outDir: string, force: boolean): Promise<void> {
  let info: Deno.FileInfo | null = null;
  try {
    info = await Deno.stat(outDir);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (info !== null && !info.isDirectory) {
    throw new Deno.errors.AlreadyExists(
      `Cannot write ${outDir}/: it is a file, not a folder; give --out a folder`,
    );
  }
  let entries: string[] = [];
  try {
    for await (const e of Deno.readDir(outDir)) entries.push(e.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    entries = [];
  }
  if (entries.length > 0 && !entries.includes(OUTPUT_MARKER) && !force) {
    throw new Deno.errors.AlreadyExists(
      `Cannot write ${outDir}/: the folder holds files that lossbook reproduce did not write (${
        entries.slice(0, 3).join(", ")
      }${entries.length > 3 ? ", ..." : ""}); pass --force to write into it`,
    );
  }
  await markOutputFolder(outDir);
}

/**
 * Create `dir` if needed and mark it as `reproduce`'s own output folder, so
 * a later `reproduce` regenerates it rather than refusing it.
 *
 * @param dir The folder.
 */
export async function markOutputFolder(dir: string): Promise<void> {
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(
    `${dir}/${OUTPUT_MARKER}`,
    "This folder is written by `deno task reproduce`; its files are regenerated on every run.\n",
  );
}

/** What {@linkcode reproduce} wrote. */
export interface ReproduceSummary {
  /**
   * Every claim in the report, with the analysis it belongs to: the claims
   * of the analyses run now and, with `only`, the last results of the others.
   */
  readonly claims: readonly (Claim & { analysis: string })[];
  /** Claims that do not hold. */
  readonly failed: number;
  /** Paths written, relative to the output folder (the API reference as `api/index.html`). */
  readonly files: readonly string[];
  /** Ids of the analyses run now. */
  readonly ran: readonly string[];
  /** Ids of the analyses taken from their last results in `results/`. */
  readonly reused: readonly string[];
  /** Ids of registered analyses with neither a run now nor earlier results. */
  readonly missing: readonly string[];
  /**
   * The API reference: `"written"`, `"skipped"` (not asked for), or why
   * `deno doc` failed.
   */
  readonly api: "written" | "skipped" | { readonly error: string };
}

/** Run `deno doc --html` for `mod.ts` into `dir`; resolve to the error text on failure. */
async function apiReference(dir: string): Promise<string | null> {
  const root = new URL(".", import.meta.url).pathname;
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["doc", "--html", "--name=lossbook", `--output=${dir}`, "mod.ts"],
      cwd: root,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    if (out.success) return null;
    const lines = new TextDecoder().decode(out.stderr).split("\n")
      .map((l) => l.trim());
    const at = lines.findIndex((l) => /^error:/i.test(l));
    const err = at < 0 ? "" : lines.slice(at)
      .filter((l) => l !== "" && !/^(Stack backtrace:|\d+: )/.test(l))
      .join(" ");
    return `deno doc exited ${out.code}${err === "" ? "" : `: ${err}`}`;
  } catch (error) {
    return `deno doc could not run: ${(error as Error).message}`;
  }
}

async function gitCommit(): Promise<string | null> {
  try {
    const out = await new Deno.Command("git", {
      args: ["rev-parse", "--short=12", "HEAD"],
      stdout: "piped",
      stderr: "null",
      cwd: new URL(".", import.meta.url).pathname,
    }).output();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : null;
  } catch {
    return null;
  }
}

/** Version of the `results/<id>.json` layout; a file of another version is not reused. */
const RESULTS_FORMAT = 1;

/** What `results/<id>.json` keeps of one analysis: its report section without the SVG text. */
interface StoredResult {
  readonly format: number;
  readonly lossbook: string;
  readonly id: string;
  readonly title: string;
  readonly source: string;
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly seeds: Readonly<Record<string, number>>;
  readonly claims: readonly Claim[];
  readonly tables: ReportSection["tables"];
  readonly figures: readonly {
    name: string;
    svgFile: string;
    files: Readonly<Record<string, string>>;
  }[];
}

// JSON has no NaN, Infinity or Date; the results file keeps them as tagged
// objects so that a reused table prints exactly as a fresh one.
function encodeValue(this: unknown, key: string, value: unknown): unknown {
  const raw = (this as Record<string, unknown>)[key];
  if (typeof raw === "number" && !Number.isFinite(raw)) {
    return { $number: String(raw) };
  }
  if (raw instanceof Date) return { $date: raw.toISOString() };
  return value;
}

function decodeValue(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const v = value as Record<string, unknown>;
    if (keys.length === 1 && typeof v.$number === "string") {
      return Number(v.$number);
    }
    if (keys.length === 1 && typeof v.$date === "string") {
      return new Date(v.$date);
    }
  }
  return value;
}

/**
 * Read an analysis's last results and its figures' SVG; `null` with the
 * reason when they are absent, unreadable, of another layout or version, or
 * a file they name is gone.
 */
async function loadStored(
  outDir: string,
  id: string,
): Promise<{ stored: StoredResult; svgs: string[] } | { why: string }> {
  const path = `${outDir}/results/${id}.json`;
  let stored: StoredResult;
  try {
    stored = JSON.parse(await Deno.readTextFile(path), decodeValue);
  } catch (error) {
    return {
      why: error instanceof Deno.errors.NotFound
        ? "no earlier results"
        : `results/${id}.json is unreadable (${(error as Error).message})`,
    };
  }
  if (stored.format !== RESULTS_FORMAT || stored.id !== id) {
    return { why: `results/${id}.json has another layout` };
  }
  if (stored.lossbook !== VERSION) {
    return {
      why: `results/${id}.json was written by lossbook ${stored.lossbook}`,
    };
  }
  const svgs: string[] = [];
  for (const f of stored.figures) {
    try {
      svgs.push(await Deno.readTextFile(`${outDir}/${f.svgFile}`));
    } catch {
      return { why: `${f.svgFile} is gone` };
    }
  }
  for (const t of stored.tables) {
    if (t.csv === undefined) continue;
    try {
      await Deno.stat(`${outDir}/${t.csv}`);
    } catch {
      return { why: `${t.csv} is gone` };
    }
  }
  return { stored, svgs };
}

/** Remove the tables, figures and results an earlier run wrote for `id`. */
async function removeArtefacts(outDir: string, id: string): Promise<void> {
  for (const dir of ["tables", "figures"]) {
    for await (const e of Deno.readDir(`${outDir}/${dir}`)) {
      if (e.isFile && e.name.startsWith(`${id}.`)) {
        await Deno.remove(`${outDir}/${dir}/${e.name}`);
      }
    }
  }
  await Deno.remove(`${outDir}/results/${id}.json`).catch(() => {});
}

function selectAnalyses(
  all: readonly AnalysisEntry[],
  only: readonly string[] | undefined,
): AnalysisEntry[] {
  if (only === undefined || only.length === 0) return [...all];
  const known = all.map((a) => a.id);
  for (const id of only) {
    if (!known.includes(id)) {
      throw new InputRangeError(
        `Unknown analysis ${JSON.stringify(id)}: known analyses are ${
          known.join(", ")
        }`,
      );
    }
  }
  return all.filter((a) => only.includes(a.id));
}

/**
 * Run the analyses and write their artefacts.
 *
 * @param options Output folder, selection and logging.
 * @returns The claims and the files written.
 * @throws {RangeError} When `only` names an unknown analysis.
 * @throws {Deno.errors.AlreadyExists} When the output folder holds files
 * `reproduce` did not write and `force` is not set.
 */
export async function reproduce(
  options: ReproduceOptions = {},
): Promise<ReproduceSummary> {
  const outDir = options.outDir ?? "out";
  const log = options.log ?? ((line: string) => console.error(line));
  const png = options.png ?? true;
  const registry = options.analyses ?? ANALYSES;
  const entries = selectAnalyses(registry, options.only);
  await claimOutDir(outDir, options.force ?? false);
  await Deno.mkdir(`${outDir}/tables`, { recursive: true });
  await Deno.mkdir(`${outDir}/figures`, { recursive: true });
  await Deno.mkdir(`${outDir}/results`, { recursive: true });
  const files: string[] = [];
  const write = async (rel: string, data: string | Uint8Array) => {
    const path = `${outDir}/${rel}`;
    if (typeof data === "string") await Deno.writeTextFile(path, data);
    else await Deno.writeFile(path, data);
    files.push(rel);
  };
  const sections: ReportSection[] = [];
  const claims: (Claim & { analysis: string })[] = [];
  const seeds: Record<string, number> = {};
  const ran: string[] = [];
  const reused: string[] = [];
  const missing: string[] = [];
  const toRun = new Set(entries.map((e) => e.id));
  let step = 0;
  for (const entry of registry) {
    if (!toRun.has(entry.id)) {
      const loaded = await loadStored(outDir, entry.id);
      if ("why" in loaded) {
        missing.push(entry.id);
        log(
          `${entry.id}: not in the report (${loaded.why}); run reproduce without --only to add it`,
        );
        continue;
      }
      const { stored, svgs } = loaded;
      Object.assign(seeds, stored.seeds);
      for (const c of stored.claims) claims.push({ analysis: stored.id, ...c });
      sections.push({
        id: stored.id,
        title: stored.title,
        source: stored.source,
        parameters: stored.parameters,
        claims: stored.claims,
        tables: stored.tables,
        figures: stored.figures.map((f, i) => ({
          name: f.name,
          svg: svgs[i],
          files: f.files,
        })),
      });
      reused.push(entry.id);
      continue;
    }
    step++;
    const i = step - 1;
    const started = performance.now();
    log(`[${i + 1}/${entries.length}] ${entry.id}: running`);
    const result = await entry.run();
    await removeArtefacts(outDir, result.id);
    const ownSeeds: Record<string, number> = {};
    for (const [k, v] of Object.entries(result.parameters)) {
      if (/seed/i.test(k) && typeof v === "number") {
        ownSeeds[`${result.id}.${k}`] = v;
      }
    }
    Object.assign(seeds, ownSeeds);
    const tables = [];
    for (const [name, table] of Object.entries(result.tables)) {
      const csv = `tables/${result.id}.${name}.csv`;
      await write(csv, table.toCSV());
      tables.push({
        name,
        columns: table.columnNames(),
        rows: table.objects() as Record<string, unknown>[],
        csv,
      });
    }
    const figures = [];
    for (const [name, spec] of Object.entries(result.charts)) {
      const svg = await renderSvg(spec, readChartFonts());
      const base = `figures/${result.id}.${name}`;
      await write(`${base}.vl.json`, JSON.stringify(spec, null, 2) + "\n");
      await write(`${base}.svg`, svg);
      if (png) {
        await write(`${base}.png`, await renderPng(svg, readChartFonts()));
      }
      figures.push({
        name,
        svg,
        files: {
          SVG: `${base}.svg`,
          ...(png ? { PNG: `${base}.png` } : {}),
          "Vega-Lite": `${base}.vl.json`,
        },
      });
    }
    for (const c of result.claims) claims.push({ analysis: result.id, ...c });
    sections.push({
      id: result.id,
      title: result.title,
      source: result.source,
      parameters: result.parameters,
      claims: result.claims,
      tables,
      figures,
    });
    const stored: StoredResult = {
      format: RESULTS_FORMAT,
      lossbook: VERSION,
      id: result.id,
      title: result.title,
      source: result.source,
      parameters: result.parameters,
      seeds: ownSeeds,
      claims: result.claims,
      tables,
      figures: figures.map((f) => ({
        name: f.name,
        svgFile: f.files.SVG,
        files: f.files,
      })),
    };
    await write(
      `results/${result.id}.json`,
      JSON.stringify(stored, encodeValue, 2) + "\n",
    );
    ran.push(result.id);
    const failing = result.claims.filter((c) => !c.holds);
    log(
      `[${i + 1}/${entries.length}] ${entry.id}: ${
        result.claims.length - failing.length
      }/${result.claims.length} claims hold, ${tables.length} tables, ${figures.length} figures (${
        ((performance.now() - started) / 1000).toFixed(1)
      } s)`,
    );
    for (const c of failing) {
      log(
        `  FAILS ${c.id}: expected ${JSON.stringify(c.expected)}, got ${
          JSON.stringify(c.actual)
        }`,
      );
    }
  }
  if (reused.length > 0) {
    log(
      `merged with the last results of ${reused.length} other ${
        reused.length === 1 ? "analysis" : "analyses"
      }: ${reused.join(", ")}`,
    );
  }
  const failed = claims.filter((c) => !c.holds).length;
  await write(
    "claims.json",
    JSON.stringify(
      {
        lossbook: VERSION,
        total: claims.length,
        holding: claims.length - failed,
        failed,
        kinds: countClaimsByKind(claims),
        analyses: {
          ran,
          reused,
          missing,
        },
        claims,
      },
      null,
      2,
    ) + "\n",
  );
  let api: ReproduceSummary["api"] = "skipped";
  if (options.apiDocs ?? true) {
    log(`api: deno doc --html mod.ts into ${outDir}/api/`);
    const error = await apiReference(`${outDir}/api`);
    if (error === null) {
      api = "written";
      files.push("api/index.html");
    } else {
      api = { error };
      log(`api: FAILED, the report has no API reference link: ${error}`);
    }
  }
  await write(
    "report.html",
    reportHtml(sections, {
      version: VERSION,
      deno: Deno.version.deno,
      commit: await gitCommit(),
      generatedAt: new Date().toISOString(),
      seeds,
      api: api === "written" ? "api/index.html" : null,
      ...(typeof api === "object" ? { apiError: api.error } : {}),
    }),
  );
  const kinds = countClaimsByKind(claims);
  log(
    `wrote ${files.length} files to ${outDir}/: ${
      claims.length - failed
    } of ${claims.length} claims hold (${kinds.published.holding} of ${kinds.published.total} published figures reproduced, ${kinds.derived.holding} of ${kinds.derived.total} derived values, ${kinds.property.holding} of ${kinds.property.total} properties)`,
  );
  return { claims, failed, files, api, ran, reused, missing };
}

/**
 * Command-line entry: parse flags, run, and map the outcome to an exit code
 * (0 all claims hold, 1 a claim fails, 2 bad usage).
 *
 * @param args Command-line arguments.
 * @returns The exit code.
 */
export async function reproduceMain(args: readonly string[]): Promise<number> {
  let values: {
    out?: string;
    only?: string[];
    help?: boolean;
    "no-png"?: boolean;
    "no-api"?: boolean;
    force?: boolean;
    json?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: [...args],
      // the table `lossbook reproduce --help` lists
      options: parseSpec(REPRODUCE_OPTIONS),
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`lossbook reproduce: ${(error as Error).message}`);
    return 2;
  }
  if (values.help) {
    console.log(formatHelp(REPRODUCE_COMMAND));
    return 0;
  }
  try {
    const summary = await reproduce({
      ...(values.out === undefined ? {} : { outDir: values.out }),
      ...(values.only === undefined ? {} : { only: values.only }),
      png: !values["no-png"],
      apiDocs: !values["no-api"],
      force: values.force ?? false,
    });
    if (values.json) {
      console.log(JSON.stringify(
        {
          outDir: values.out ?? "out",
          claims: summary.claims.length,
          holding: summary.claims.length - summary.failed,
          failed: summary.failed,
          kinds: countClaimsByKind(summary.claims),
          failing: summary.claims.filter((c) => !c.holds).map((c) => c.id),
          files: summary.files.length,
        },
        null,
        2,
      ));
    }
    return summary.failed === 0 ? 0 : 1;
  } catch (error) {
    if (
      isInputError(error) || error instanceof Deno.errors.AlreadyExists ||
      error instanceof Deno.errors.NotADirectory ||
      error instanceof Deno.errors.PermissionDenied
    ) {
      console.error(
        `lossbook reproduce: ${(error as Error).message.split("\n")[0]}`,
      );
      return 2;
    }
    throw error;
  }
}

if (import.meta.main) {
  Deno.exit(await reproduceMain(Deno.args));
}
