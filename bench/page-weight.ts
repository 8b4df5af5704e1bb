// `npm run bench:weight`: the deterministic half of the page-speed budget, in about a minute. Builds
// the app and the floor (bench/floor), starts both on a fresh data dir like bench:lighthouse, then
// loads each public page cold (a new browser context: empty cache, no service worker) in Debian
// Chromium with a phone's viewport, waits until the network is idle, and prints per page the
// JavaScript transferred (encoded bytes on the wire, headers included, as Lighthouse counts it),
// the number of scripts and of requests (images excluded), beside the floor's, signed out, signed
// in, and the artist dashboard; then PASS/FAIL against the targets. Exits 1 on a FAIL.
//
//   npm run bench:weight                 # build, then measure
//   npm run bench:weight -- --no-build   # measure the current build/ and bench/floor/build/
//   npm run bench:weight -- --list       # also list every request of every page
//   npm run bench:weight -- --server-cpu # also the server's CPU time per cold load of each page
//
// `--server-cpu` loads each of the app's pages SERVER_CPU_LOADS more times, each cold and more
// than the microcache's second after the last (so the page is rendered each time, as for a
// visitor who finds no cached copy), and prints the app server's CPU time per load: rendering,
// the document's compression and serving the scripts, styles and images (decision 031).
//
// Timing figures (LCP, TBT, score) need `npm run bench:lighthouse` on a quiet machine.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type CDPSession, chromium } from "@playwright/test";
import { CHROMIUM_ARGS, chromePath } from "../tests/support/chromium";
import { freePort } from "../tests/support/free-port";
import type { SpawnedServer } from "../tests/support/spawn-server";
import {
  buildAppAndFloor,
  findPages,
  kib,
  type Page,
  PHONE,
  processCpuMs,
  signedInArtist,
  startApp,
  stopServer,
} from "./bench-setup";
import { serveFloor } from "./floor/serve";

// The page-speed budget's targets, relative to the floor page measured in the same run.
const SCRIPT_RATIO_GOAL = 1.05;
const REQUESTS_GOAL = 8;
const DASHBOARD_SCRIPT_RATIO_GOAL = 1.5;
const SERVER_CPU_LOADS = 10;
/** Longer than the microcache's one second (server/micro-cache.ts). */
const PAST_MICROCACHE_MS = 1_100;

type Request = { url: string; type: string; bytes: number };
type Weight = { scriptBytes: number; scripts: number; requests: number; list: Request[] };

/** Every request of one cold page load, with its encoded size on the wire (headers included). */
async function weigh(
  browser: import("@playwright/test").Browser,
  url: string,
  cookie?: string,
): Promise<Weight> {
  const context = await browser.newContext({
    ...PHONE,
    ...(cookie ? { extraHTTPHeaders: { Cookie: cookie } } : {}),
  });
  try {
    const page = await context.newPage();
    const cdp: CDPSession = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    const seen = new Map<string, Request>();
    cdp.on("Network.requestWillBeSent", (e) => {
      seen.set(e.requestId, { url: e.request.url, type: e.type ?? "Other", bytes: 0 });
    });
    cdp.on("Network.responseReceived", (e) => {
      const request = seen.get(e.requestId);
      if (request) request.type = e.type;
    });
    cdp.on("Network.loadingFinished", (e) => {
      const request = seen.get(e.requestId);
      if (request) request.bytes = e.encodedDataLength;
    });
    await page.goto(url, { waitUntil: "networkidle" });
    // Hydration's own requests (route discovery, a report) start after load: let them settle.
    await page.waitForTimeout(500);
    await page.waitForLoadState("networkidle");
    const list = [...seen.values()].filter((r) => r.type !== "Image" && !r.url.startsWith("data:"));
    const scripts = list.filter((r) => r.type === "Script");
    return {
      scriptBytes: scripts.reduce((sum, r) => sum + r.bytes, 0),
      scripts: scripts.length,
      requests: list.length,
      list,
    };
  } finally {
    await context.close();
  }
}

async function main() {
  const args = process.argv.slice(2);
  if (!args.includes("--no-build")) buildAppAndFloor();
  const listRequests = args.includes("--list");
  const serverCpu = args.includes("--server-cpu");

  const floorPort = await freePort();
  const floorServer = await serveFloor(floorPort);
  const tmp = mkdtempSync(path.join(os.tmpdir(), "gigledger-weight-"));
  let server: SpawnedServer | null = null;
  const browser = await chromium.launch({ executablePath: chromePath(), args: CHROMIUM_ARGS });
  try {
    server = await startApp(tmp);
    const publicPages = await findPages(server.url);
    const cookie = await signedInArtist(server.url);
    const pages: Page[] = [
      { label: "floor", path: `http://127.0.0.1:${floorPort}/` },
      ...publicPages,
      ...publicPages.map((p) => ({ ...p, label: `${p.label} (signed in)`, cookie })),
      { label: "artist dashboard (signed in)", path: "/artist-dashboard", cookie },
    ];

    const results: { page: Page; weight: Weight }[] = [];
    for (const page of pages) {
      const url = page.path.startsWith("http") ? page.path : `${server.url}${page.path}`;
      const weight = await weigh(browser, url, page.cookie);
      results.push({ page, weight });
      if (listRequests) {
        console.log(`\n${page.label} — ${page.path}`);
        for (const r of weight.list)
          console.log(`  ${r.type.padEnd(10)} ${kib(r.bytes).padStart(6)} KiB  ${r.url}`);
      }
    }

    const floor = results[0]?.weight;
    const ratio = (v: number) => (floor?.scriptBytes ? v / floor.scriptBytes : Number.NaN);
    const isDashboard = (page: Page) => page.path === "/artist-dashboard";
    const scriptGoal = (page: Page) =>
      isDashboard(page) ? DASHBOARD_SCRIPT_RATIO_GOAL : SCRIPT_RATIO_GOAL;
    console.log();
    console.table(
      results.map(({ page, weight }) => ({
        page: page.label,
        "script KiB": kib(weight.scriptBytes),
        "JS/floor": `${ratio(weight.scriptBytes).toFixed(2)}×`,
        // Bytes left under the page's JavaScript budget (negative: over it by that much).
        "margin B": floor
          ? Math.floor(scriptGoal(page) * floor.scriptBytes - weight.scriptBytes)
          : "?",
        scripts: weight.scripts,
        requests: weight.requests,
      })),
    );
    let failed = false;
    for (const { page, weight } of results.slice(1)) {
      const js = ratio(weight.scriptBytes);
      const dashboard = isDashboard(page);
      const goal = scriptGoal(page);
      const checks: [boolean, string][] = [[js <= goal, `JS ≤ ${goal}× floor: ${js.toFixed(2)}×`]];
      if (!dashboard)
        checks.push([
          weight.requests <= REQUESTS_GOAL,
          `requests ≤ ${REQUESTS_GOAL}: ${weight.requests}`,
        ]);
      for (const [ok, text] of checks) {
        if (!ok) failed = true;
        console.log(`${ok ? "PASS" : "FAIL"}  ${page.label}  ${text}`);
      }
    }
    if (serverCpu && server) {
      const pid = server.process.pid;
      const rows = [];
      for (const page of pages.slice(1)) {
        let total = 0;
        for (let load = 0; load < SERVER_CPU_LOADS; load++) {
          await new Promise((resolve) => setTimeout(resolve, PAST_MICROCACHE_MS));
          const before = pid ? processCpuMs(pid) : null;
          await weigh(browser, `${server.url}${page.path}`, page.cookie);
          const after = pid ? processCpuMs(pid) : null;
          total += before === null || after === null ? Number.NaN : after - before;
        }
        rows.push({ page: page.label, "server CPU ms per cold load": total / SERVER_CPU_LOADS });
      }
      console.log(`\n== the app server's CPU time per cold load, mean of ${SERVER_CPU_LOADS} ==`);
      console.table(rows);
    }
    if (failed) process.exitCode = 1;
  } finally {
    await browser.close();
    floorServer.close();
    if (server) await stopServer(server);
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
