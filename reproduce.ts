/**
 * The main job: run every registered analysis and write `out/` — tables as
 * CSV, figures as SVG, PNG and Vega-Lite JSON, `claims.json`, a
 * self-contained `report.html` and the API reference (`deno doc --html`)
 * under `api/`. Exits 1 when any claim fails.
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
import { reportHtml, type ReportSection } from "./lib/report/report.ts";
import { VERSION } from "./version.ts";
import { InputRangeError, isInputError } from "./lib/input_error.ts";

/** Options for {@linkcode reproduce}. */
export interface ReproduceOptions {
  /** Output folder. Default: `"out"`. */
  outDir?: string;
  /** Run only these analysis ids. Default: all. */
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
  /** Every claim, with the analysis it belongs to. */
  readonly claims: readonly (Claim & { analysis: string })[];
  /** Claims that do not hold. */
  readonly failed: number;
  /** Paths written, relative to the output folder (the API reference as `api/index.html`). */
  readonly files: readonly string[];
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
  const entries = selectAnalyses(options.analyses ?? ANALYSES, options.only);
  await claimOutDir(outDir, options.force ?? false);
  await Deno.mkdir(`${outDir}/tables`, { recursive: true });
  await Deno.mkdir(`${outDir}/figures`, { recursive: true });
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
  for (const [i, entry] of entries.entries()) {
    const started = performance.now();
    log(`[${i + 1}/${entries.length}] ${entry.id}: running`);
    const result = await entry.run();
    for (const [k, v] of Object.entries(result.parameters)) {
      if (/seed/i.test(k) && typeof v === "number") {
        seeds[`${result.id}.${k}`] = v;
      }
    }
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
      const svg = await renderSvg(spec);
      const base = `figures/${result.id}.${name}`;
      await write(`${base}.vl.json`, JSON.stringify(spec, null, 2) + "\n");
      await write(`${base}.svg`, svg);
      if (png) await write(`${base}.png`, await renderPng(svg));
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
  const failed = claims.filter((c) => !c.holds).length;
  await write(
    "claims.json",
    JSON.stringify(
      {
        lossbook: VERSION,
        total: claims.length,
        holding: claims.length - failed,
        failed,
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
  log(
    `wrote ${files.length} files to ${outDir}/: ${
      claims.length - failed
    } of ${claims.length} claims hold`,
  );
  return { claims, failed, files, api };
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
