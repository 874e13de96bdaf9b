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
 * It then writes a board (`lossbook board --out`) of four simulated models
 * and reads its `index.html` the same way: every model in every ranking,
 * both charts visible, no network request, no console error, no sideways
 * scrolling, with screenshots `out/board.png` and `out/board-full.png`.
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
import { main } from "../cli.ts";

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

/**
 * Every table cell: none blank or printed NaN, undefined or null, and
 * every empty one reading unknown or n/a with its reason as a tooltip.
 */
async function checkEmptyCells(
  page: Page,
): Promise<{ cells: number; nulls: number }> {
  const cells = await page.evaluate(() =>
    [...document.querySelectorAll(".lb-table td")].map((td) => ({
      text: (td.textContent ?? "").trim(),
      isNull: td.classList.contains("null"),
      title: td.getAttribute("title") ?? "",
    }))
  );
  const blank = cells.filter((c) => c.text === "");
  assert.equal(blank.length, 0, "no blank cell");
  const bad = cells.filter((c) => /^(NaN|undefined|null)$/.test(c.text));
  assert.deepEqual(bad, [], "no NaN, undefined or null printed");
  const nulls = cells.filter((c) => c.isNull);
  for (const c of nulls) {
    assert.match(c.text, /^(unknown|n\/a)$/);
    assert.ok(
      c.title.length > 10,
      `a null cell says why: ${JSON.stringify(c)}`,
    );
  }
  return { cells: cells.length, nulls: nulls.length };
}

/** The page does not scroll sideways at 1280 px nor at 760 px. */
async function checkNoSidewaysScroll(page: Page): Promise<void> {
  assert.equal(await pageOverflow(page), 0, "at 1280 px");
  await page.setViewportSize({ width: 760, height: 900 });
  assert.equal(await pageOverflow(page), 0, "at 760 px");
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Screenshots `out/<name>.png` (the top) and `out/<name>-full.png` (the whole page). */
async function saveScreenshots(page: Page, name: string): Promise<void> {
  // out/ is reproduce's folder: mark it so, or the next reproduce would
  // refuse a folder holding files it did not write.
  await markOutputFolder(`${root}out`);
  await page.evaluate(() => document.documentElement.scrollTo(0, 0));
  const top = `${root}out/${name}.png`;
  const full = `${root}out/${name}-full.png`;
  await page.screenshot({ path: top });
  await page.screenshot({ path: full, fullPage: true });
  for (const path of [top, full]) {
    assert.ok((await Deno.stat(path)).size > 10_000, path);
    console.log(`screenshot: ${path}`);
  }
}

async function requireChromium(): Promise<void> {
  await Deno.stat(executablePath).catch(() => {
    throw new Error(
      `Chromium not found at ${executablePath}: install Debian's chromium (apt-get install chromium) or set LOSSBOOK_CHROMIUM`,
    );
  });
}

/**
 * Open a page from `file://` in an offline headless Chromium and run the
 * checks on it, with every request the browser made and every console
 * error seen; the browser is closed afterwards.
 */
async function withPage(
  pageUrl: string,
  checks: (
    page: Page,
    requests: readonly string[],
    consoleErrors: readonly string[],
  ) => Promise<void>,
): Promise<void> {
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
    await checks(page, requests, consoleErrors);
  } finally {
    await context.close();
    await Deno.remove(userDataDir, { recursive: true }).catch(() => {});
  }
}

Deno.test({
  name:
    "report.html reads right in headless Chromium: figures, no network, no console error, every claim",
  // playwright-core keeps its pipe to the browser and a few timers alive
  // across awaits; the browser is closed in `finally`.
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await requireChromium();
    const outDir = await reportDir();
    const claims = JSON.parse(await Deno.readTextFile(`${outDir}/claims.json`));
    const charts = [...Deno.readDirSync(`${outDir}/figures`)]
      .filter((e) => e.name.endsWith(".vl.json")).length;
    const pageUrl =
      new URL(`file://${await Deno.realPath(`${outDir}/report.html`)}`).href;

    await withPage(pageUrl, async (page, requests, consoleErrors) => {
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
          const { cells, nulls } = await checkEmptyCells(page);
          assert.ok(
            cells > 1000,
            `the tables are on the page (${cells} cells)`,
          );
          assert.ok(nulls > 0, "the report has null cells to check");
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
          await checkNoSidewaysScroll(page);
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
        await saveScreenshots(page, "report");
      });
    });
  },
});

/** The simulated models of the board's page: four, two of them stating pCorrect. */
const BOARD_MODELS = [
  "frontier_even",
  "small_severity_shaped",
  "constant_confidence",
  "always_escalate",
];

Deno.test({
  name:
    "a board's index.html reads right in headless Chromium: every model, both charts, no network, no console error",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    await requireChromium();
    const dir = await Deno.makeTempDir({ prefix: "lossbook-board-" });
    try {
      const run = `${dir}/run.jsonl`;
      assert.equal(
        await main([
          "simulate",
          "--tasks",
          `${root}data/tasks/reconciliation_777_300.jsonl`,
          ...BOARD_MODELS.flatMap((m) => ["--model", m]),
          "--seed",
          "1",
          "--out",
          run,
        ]),
        0,
      );
      assert.equal(await main(["board", run, "--out", `${dir}/board`]), 0);
      const doc = JSON.parse(
        await Deno.readTextFile(`${dir}/board/board.json`),
      );
      const pageUrl =
        new URL(`file://${await Deno.realPath(`${dir}/board/index.html`)}`)
          .href;
      await withPage(pageUrl, async (page, requests, consoleErrors) => {
        await t.step(
          "the page says how many tasks the models share",
          async () => {
            const shared = page.locator("#shared-tasks");
            assert.equal(
              await shared.getAttribute("data-tasks"),
              String(doc.tasks),
            );
            assert.equal(
              await shared.getAttribute("data-models"),
              String(BOARD_MODELS.length),
            );
            assert.match(
              await shared.innerText(),
              new RegExp(
                `4 models compared on the ${doc.tasks} tasks they all answered`,
              ),
            );
          },
        );

        await t.step(
          "every model is in every profile's ranking, in board.json's order",
          async () => {
            for (const p of doc.profiles) {
              const rows = page.locator(
                `table.board-ranking[data-profile="${p.id}"] tbody tr`,
              );
              assert.ok(await rows.first().isVisible(), p.id);
              const onPage = await rows.evaluateAll((trs) =>
                trs.map((tr) => tr.getAttribute("data-model"))
              );
              assert.deepEqual(
                onPage,
                p.ranking.map((m: { modelId: string }) => m.modelId),
                p.id,
              );
            }
            console.log(
              `${BOARD_MODELS.length} models in each of ${doc.profiles.length} rankings`,
            );
          },
        );

        await t.step(
          "both charts are visible, with every model in them",
          async () => {
            const figures = page.locator("figure.lb-figure > svg");
            assert.equal(await figures.count(), 2);
            for (let i = 0; i < 2; i++) {
              const f = figures.nth(i);
              await f.scrollIntoViewIfNeeded();
              assert.ok(await f.isVisible());
              const box = await f.boundingBox();
              assert.ok(box !== null && box.width > 100 && box.height > 100);
              assert.ok(box.width <= 1280);
            }
            const lossChart = await page.locator("#figure-loss-vs-k")
              .innerHTML();
            for (const m of BOARD_MODELS) assert.ok(lossChart.includes(m), m);
          },
        );

        await t.step(
          "every empty cell reads unknown or n/a with a reason",
          async () => {
            assert.ok((await checkEmptyCells(page)).cells > 50);
          },
        );

        await t.step("the page never scrolls sideways", async () => {
          await checkNoSidewaysScroll(page);
        });

        await t.step(
          "the page makes no network request and logs no error",
          () => {
            assert.deepEqual(requests.filter((u) => u !== pageUrl), []);
            assert.deepEqual(consoleErrors, []);
          },
        );

        await t.step("screenshots are saved under out/", async () => {
          await saveScreenshots(page, "board");
        });
      });
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
