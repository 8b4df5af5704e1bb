// `npm run bench:render`: what a public page's markup costs the browser's main thread to parse,
// style, lay out and paint on its first load, as CPU time, with a spread small enough to compare
// two versions of a page. Lighthouse's Total Blocking Time on this machine varies by tens of
// milliseconds between loads of the same page (decisions 024 and 026); most of that is the
// machine, not the page. This bench loads each public page with scripts off (the markup's own
// cost: the scripts come later, decision 024) in Debian Chromium with Lighthouse's phone viewport,
// records a trace, and sums the CPU time (`tdur`, not wall time, so a busy core counts less) of
// the page's ParseHTML, UpdateLayoutTree (style), Layout and Paint events, and its longest layout.
// Pages take turns in each round; each figure is the median over the rounds.
//
//   npm run bench:render                 # build, then measure (RENDER_ROUNDS=n, default 9)
//   npm run bench:render -- --no-build   # measure the current build/
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium } from "@playwright/test";
import { CHROMIUM_ARGS, chromePath } from "../tests/support/chromium";
import type { SpawnedServer } from "../tests/support/spawn-server";
import { buildApp, findPages, html, kib, median, PHONE, startApp, stopServer } from "./bench-setup";

const ROUNDS = Math.max(1, Number.parseInt(process.env.RENDER_ROUNDS ?? "9", 10) || 9);
const PHASES = ["ParseHTML", "UpdateLayoutTree", "Layout", "Paint"] as const;

type TraceEvent = { name: string; ph: string; dur?: number; tdur?: number };
type Cost = Record<(typeof PHASES)[number] | "longestLayout" | "total", number>;

/** CPU milliseconds of one cold load of `url` with scripts off, by phase. */
async function renderCost(browser: Browser, url: string): Promise<Cost> {
  const context = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await browser.startTracing(page, { categories: ["devtools.timeline"] });
    await page.goto(url, { waitUntil: "load" });
    // A block drawn when near (content-visibility) is drawn in a frame after the load.
    await page.waitForTimeout(300);
    const trace = JSON.parse((await browser.stopTracing()).toString()) as {
      traceEvents: TraceEvent[];
    };
    const complete = trace.traceEvents.filter((e) => e.ph === "X");
    const cpuMs = (e: TraceEvent) => (e.tdur ?? e.dur ?? 0) / 1000;
    const sum = (name: string) =>
      complete.filter((e) => e.name === name).reduce((total, e) => total + cpuMs(e), 0);
    const layouts = complete.filter((e) => e.name === "Layout").map(cpuMs);
    const cost = { longestLayout: Math.max(0, ...layouts), total: 0 } as Cost;
    for (const phase of PHASES) {
      cost[phase] = sum(phase);
      cost.total += cost[phase];
    }
    return cost;
  } finally {
    await context.close();
  }
}

async function main() {
  if (!process.argv.includes("--no-build")) buildApp();
  const tmp = mkdtempSync(path.join(os.tmpdir(), "gigledger-render-"));
  let server: SpawnedServer | null = null;
  const browser = await chromium.launch({ executablePath: chromePath(), args: CHROMIUM_ARGS });
  try {
    server = await startApp(tmp);
    const base = server.url;
    const pages = await findPages(base);
    const costs = new Map(pages.map((p) => [p.label, [] as Cost[]]));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const page of pages)
        costs.get(page.label)?.push(await renderCost(browser, base + page.path));
      console.log(`round ${round} of ${ROUNDS} done`);
    }
    const rows = [];
    for (const page of pages) {
      const runs = costs.get(page.label) ?? [];
      const of = (key: keyof Cost) => median(runs.map((r) => r[key])).toFixed(1);
      const totals = runs.map((r) => r.total);
      rows.push({
        page: page.label,
        "HTML KiB": kib((await html(base + page.path)).length),
        "CPU ms": of("total"),
        "min–max": `${Math.min(...totals).toFixed(1)}–${Math.max(...totals).toFixed(1)}`,
        parse: of("ParseHTML"),
        style: of("UpdateLayoutTree"),
        layout: of("Layout"),
        paint: of("Paint"),
        "longest layout": of("longestLayout"),
      });
    }
    console.log(`\nMain-thread CPU time of a first load with scripts off, medians of ${ROUNDS}:`);
    console.table(rows);
  } finally {
    await browser.close();
    if (server) await stopServer(server);
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
