/// <reference lib="dom" />
/**
 * Browser test of the reproduction report, in Debian's headless Chromium
 * driven by playwright-core: `deno task test:browser`.
 *
 * It runs `reproduce` into a temporary folder (or reads the folder named by
 * `LOSSBOOK_REPORT_DIR`), opens `report.html` from `file://` and checks what
 * a reader sees: every figure visible with a non-zero size, no network
 * request, no console error, the claim count of `claims.json`, every empty
 * cell marked with a reason, and no sideways scrolling of the page. It saves
 * screenshots as `out/report.png` (the top of the page) and
 * `out/report-full.png` (the whole page).
 *
 * The file is deliberately not named `*_test.ts`, so that `deno task test`
 * does not collect it and still passes on a machine without Chromium. The
 * browser is `/usr/bin/chromium` unless `LOSSBOOK_CHROMIUM` names another.
 *
 * @module
 */

import assert from "node:assert/strict";
import { chromium, type Page } from "playwright-core";
import { markOutputFolder, reproduce } from "../reproduce.ts";

const root = new URL("../", import.meta.url).pathname;
const executablePath = Deno.env.get("LOSSBOOK_CHROMIUM") ?? "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

async function reportDir(): Promise<string> {
  const given = Deno.env.get("LOSSBOOK_REPORT_DIR");
  if (given !== undefined && given !== "") return given;
  const outDir = await Deno.makeTempDir({ prefix: "lossbook-report-" });
  const summary = await reproduce({ outDir, log: () => {} });
  assert.equal(summary.failed, 0, "every claim holds before the page is read");
  return outDir;
}

/** Horizontal overflow of the page itself, in CSS pixels (0 when none). */
function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() =>
    document.documentElement.scrollWidth -
    document.documentElement.clientWidth
  );
}

Deno.test({
  name:
    "report.html reads right in headless Chromium: figures, no network, no console error, every claim",
  // playwright-core keeps its pipe to the browser and a few timers alive
  // across awaits; the browser is closed in `finally`.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await Deno.stat(executablePath).catch(() => {
      throw new Error(
        `Chromium not found at ${executablePath}: install Debian's chromium (apt-get install chromium) or set LOSSBOOK_CHROMIUM`,
      );
    });
    const outDir = await reportDir();
    const claims = JSON.parse(await Deno.readTextFile(`${outDir}/claims.json`));
    const charts = [...Deno.readDirSync(`${outDir}/figures`)]
      .filter((e) => e.name.endsWith(".vl.json")).length;
    const pageUrl =
      new URL(`file://${await Deno.realPath(`${outDir}/report.html`)}`).href;

    const userDataDir = await Deno.makeTempDir({
      prefix: "lossbook-chromium-",
    });
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath,
      headless: true,
      args: FLAGS,
      viewport: { width: 1280, height: 900 },
      offline: true,
    });
    const requests: string[] = [];
    const consoleErrors: string[] = [];
    context.on("request", (r) => requests.push(r.url()));
    try {
      const page = context.pages()[0] ?? await context.newPage();
      page.on("console", (m) => {
        if (m.type() === "error") consoleErrors.push(m.text());
      });
      page.on("pageerror", (e) => consoleErrors.push(e.message));
      const response = await page.goto(pageUrl, { waitUntil: "load" });
      assert.ok(response === null || response.ok(), "the page loads");

      await t.step(
        "every figure is visible and has a non-zero size",
        async () => {
          const figures = page.locator("figure.lb-figure > svg");
          const n = await figures.count();
          assert.equal(
            n,
            charts,
            "one inline SVG per chart written to figures/",
          );
          let smallest = Number.POSITIVE_INFINITY;
          for (let i = 0; i < n; i++) {
            const figure = figures.nth(i);
            await figure.scrollIntoViewIfNeeded();
            const name = await figure.locator("xpath=..").getAttribute(
              "data-figure",
            );
            assert.ok(await figure.isVisible(), `${name} is visible`);
            const box = await figure.boundingBox();
            assert.ok(
              box !== null && box.width > 0 && box.height > 0,
              `${name} has a size`,
            );
            assert.ok(
              box.width <= 1280,
              `${name} fits the page (${box.width} px)`,
            );
            smallest = Math.min(smallest, box.width * box.height);
          }
          console.log(
            `${n} figures visible, the smallest ${Math.round(smallest)} px²`,
          );
        },
      );

      await t.step(
        "the claim count on the page equals claims.json",
        async () => {
          const onPage = await page.locator("tr.claim").count();
          assert.equal(onPage, claims.total);
          console.log(
            `${onPage} claims on the page, claims.json total ${claims.total}`,
          );
          const summary = page.locator("#claim-summary");
          assert.equal(
            await summary.getAttribute("data-claims"),
            String(claims.total),
          );
          assert.equal(
            await summary.getAttribute("data-holding"),
            String(claims.holding),
          );
          assert.equal(
            await page.locator('tr.claim[data-holds="false"]').count(),
            claims.failed,
          );
        },
      );

      await t.step(
        "every empty cell reads unknown or n/a with a reason, never blank, NaN or undefined",
        async () => {
          const cells = await page.evaluate(() =>
            [...document.querySelectorAll(".lb-table td")].map((td) => ({
              text: (td.textContent ?? "").trim(),
              isNull: td.classList.contains("null"),
              title: td.getAttribute("title") ?? "",
            }))
          );
          assert.ok(
            cells.length > 1000,
            `the tables are on the page (${cells.length} cells)`,
          );
          const blank = cells.filter((c) => c.text === "");
          assert.equal(blank.length, 0, "no blank cell");
          const bad = cells.filter((c) =>
            /^(NaN|undefined|null)$/.test(c.text)
          );
          assert.deepEqual(bad, [], "no NaN, undefined or null printed");
          const nulls = cells.filter((c) => c.isNull);
          assert.ok(nulls.length > 0, "the report has null cells to check");
          for (const c of nulls) {
            assert.match(c.text, /^(unknown|n\/a)$/);
            assert.ok(
              c.title.length > 10,
              `a null cell says why: ${JSON.stringify(c)}`,
            );
          }
        },
      );

      await t.step(
        "the table of contents links to every section, table and figure",
        async () => {
          const broken = await page.evaluate(() =>
            [...document.querySelectorAll('nav#contents a[href^="#"]')]
              .map((a) => a.getAttribute("href")!.slice(1))
              .filter((id) => document.getElementById(id) === null)
          );
          assert.deepEqual(broken, []);
          assert.equal(
            await page.locator("nav#contents > ol > li").count(),
            await page.locator("main > section.analysis").count(),
          );
        },
      );

      await t.step(
        "the page never scrolls sideways; wide tables scroll in their own box",
        async () => {
          assert.equal(await pageOverflow(page), 0, "at 1280 px");
          await page.setViewportSize({ width: 760, height: 900 });
          assert.equal(await pageOverflow(page), 0, "at 760 px");
          await page.setViewportSize({ width: 1280, height: 900 });
        },
      );

      await t.step("the page makes no network request", () => {
        const others = requests.filter((u) => u !== pageUrl);
        assert.deepEqual(others, [], "only the page itself is loaded");
        assert.ok(requests.includes(pageUrl), "the page's own load is seen");
        console.log(`${requests.length} request recorded: the page itself`);
      });

      await t.step("the console shows no error", () => {
        assert.deepEqual(consoleErrors, []);
      });

      await t.step("screenshots are saved under out/", async () => {
        // out/ is reproduce's folder: mark it so, or the next reproduce would
        // refuse a folder holding files it did not write.
        await markOutputFolder(`${root}out`);
        await page.evaluate(() => document.documentElement.scrollTo(0, 0));
        const top = `${root}out/report.png`;
        const full = `${root}out/report-full.png`;
        await page.screenshot({ path: top });
        await page.screenshot({ path: full, fullPage: true });
        for (const path of [top, full]) {
          assert.ok((await Deno.stat(path)).size > 10_000, path);
          console.log(`screenshot: ${path}`);
        }
      });
    } finally {
      await context.close();
      await Deno.remove(userDataDir, { recursive: true }).catch(() => {});
    }
  },
});
