// `npm run bench:lighthouse`: builds the app and the floor (bench/floor: a bare one-route React
// Router page with the project's own versions), starts the production server on a fresh data dir
// (seeded with demo data on first start) and the floor beside it, then runs Lighthouse (default
// mobile config: simulated throttling, mobile emulation; performance only) against Debian
// Chromium on the floor and the public pages, cold cache each, and prints every page's figures
// beside the floor's as ratios. `LIGHTHOUSE_RUNS=n` runs each page n times and keeps the median
// run by score.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromePath } from "../tests/support/chromium";
import { freePort } from "../tests/support/free-port";
import { type SpawnedServer, spawnServer, waitUntilReady } from "../tests/support/spawn-server";
import { serveFloor } from "./floor/serve";

const STARTUP_TIMEOUT_MS = 120_000;
// Issue 15's targets, relative to the floor page measured in the same run.
const SCORE_GOAL = 100;
const SCRIPT_RATIO_GOAL = 1.05;
const LCP_RATIO_GOAL = 1.15;
const REQUESTS_GOAL = 8;
const TBT_GOAL_MS = 30;
const RUNS = Math.max(1, Number.parseInt(process.env.LIGHTHOUSE_RUNS ?? "1", 10) || 1);
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

type Page = { label: string; path: string };

type Measurement = {
  score: number | null;
  fcpMs: number | null;
  lcpMs: number | null;
  tbtMs: number | null;
  cls: number | null;
  siMs: number | null;
  scriptBytes: number | null;
  scriptRequests: number | null;
  /** Every request but images (the document included). */
  requests: number | null;
  warnings: string[];
  error: string | null;
};

// The few parts of the Lighthouse result used here.
type AuditItem = { resourceType?: unknown; transferSize?: unknown; requestCount?: unknown };
type Audit = { numericValue?: number; details?: { items?: AuditItem[] } };
type Lhr = {
  categories: Record<string, { score: number | null } | undefined>;
  audits: Record<string, Audit | undefined>;
  runWarnings?: string[];
  runtimeError?: { code: string; message: string };
};

const kib = (bytes: number) => (bytes / 1024).toFixed(1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function stopServer(server: SpawnedServer) {
  const child = server.process;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timedOut = await Promise.race([
    server.exited.then(() => false),
    sleep(15_000).then(() => true),
  ]);
  if (timedOut) {
    console.warn("server did not stop within 15 s after SIGTERM; sending SIGKILL");
    child.kill("SIGKILL");
    await server.exited;
  }
}

async function html(url: string) {
  const res = await fetch(url);
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return text;
}

function hrefs(text: string, prefix: string) {
  const pattern = new RegExp(`href="(${prefix}[^"]+)"`, "g");
  const found = [...text.matchAll(pattern)].map((m) => (m[1] ?? "").replaceAll("&amp;", "&"));
  return [...new Set(found)];
}

async function findPages(base: string): Promise<Page[]> {
  const pages: Page[] = [
    { label: "landing", path: "/" },
    { label: "discovery", path: "/artist-discovery" },
  ];
  const artists = hrefs(await html(`${base}/`), "/artist/");
  const artistPath = artists[0];
  if (!artistPath) {
    console.log('no href="/artist/…" link on / — skipping the artist profile and portfolio pages');
    return pages;
  }
  pages.push({ label: "artist profile", path: artistPath });
  for (const artist of artists) {
    const portfolio = hrefs(await html(`${base}${artist}`), "/portfolio/")[0];
    if (portfolio) {
      pages.push({ label: "portfolio", path: portfolio });
      return pages;
    }
  }
  console.log(
    `none of the ${artists.length} featured artist pages links a public portfolio — skipping the portfolio page`,
  );
  return pages;
}

function scriptTransfer(lhr: Lhr): { bytes: number; requests: number } | null {
  const network = lhr.audits["network-requests"]?.details?.items;
  if (network) {
    const scripts = network.filter((item) => item.resourceType === "Script");
    const bytes = scripts.reduce(
      (sum, item) => sum + (typeof item.transferSize === "number" ? item.transferSize : 0),
      0,
    );
    return { bytes, requests: scripts.length };
  }
  const summary = lhr.audits["resource-summary"]?.details?.items;
  const script = summary?.find((item) => item.resourceType === "script");
  if (script && typeof script.transferSize === "number") {
    const requests = typeof script.requestCount === "number" ? script.requestCount : 0;
    return { bytes: script.transferSize, requests };
  }
  return null;
}

async function measure(url: string, userDataDir: string): Promise<Measurement> {
  // A fresh Chrome (and profile) per run: cold HTTP cache, no service worker, no cookies.
  mkdirSync(userDataDir, { recursive: true });
  const chrome = await chromeLauncher.launch({
    chromePath: chromePath(),
    chromeFlags: CHROME_FLAGS,
    userDataDir,
    logLevel: "silent",
  });
  try {
    // No config: Lighthouse's default (mobile) config.
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance"],
    });
    if (!result) throw new Error("Lighthouse returned no result");
    const lhr = result.lhr as unknown as Lhr;
    const score = lhr.categories.performance?.score;
    const value = (id: string) => lhr.audits[id]?.numericValue ?? null;
    const scripts = scriptTransfer(lhr);
    const network = lhr.audits["network-requests"]?.details?.items;
    return {
      score: typeof score === "number" ? Math.round(score * 100) : null,
      fcpMs: value("first-contentful-paint"),
      lcpMs: value("largest-contentful-paint"),
      tbtMs: value("total-blocking-time"),
      cls: value("cumulative-layout-shift"),
      siMs: value("speed-index"),
      scriptBytes: scripts?.bytes ?? null,
      scriptRequests: scripts?.requests ?? null,
      requests: network ? network.filter((item) => item.resourceType !== "Image").length : null,
      warnings: lhr.runWarnings ?? [],
      error: lhr.runtimeError ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` : null,
    };
  } finally {
    chrome.kill();
  }
}

const ms = (v: number | null) => (v === null ? "?" : `${Math.round(v)} ms`);
const sec = (v: number | null) => (v === null ? "?" : `${(v / 1000).toFixed(2)} s`);

async function main() {
  const root = path.resolve(import.meta.dirname, "..");

  console.log("== npm run build ==");
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status})`);
  console.log("== react-router build bench/floor ==");
  const floorBuild = spawnSync("npx", ["react-router", "build", "bench/floor"], {
    cwd: root,
    stdio: "inherit",
  });
  if (floorBuild.status !== 0) throw new Error(`floor build failed (exit ${floorBuild.status})`);
  const floorPort = await freePort();
  const floorServer = await serveFloor(floorPort);

  const tmp = mkdtempSync(path.join(os.tmpdir(), "gigledger-lighthouse-"));
  const dataDir = path.join(tmp, "data");
  mkdirSync(dataDir);
  let server: SpawnedServer | null = null;
  try {
    server = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
    console.log(
      `\n== starting node build/server/main.js on ${server.url} (DATA_DIR=${dataDir}) ==`,
    );
    const startedAt = performance.now();
    await waitUntilReady(server, STARTUP_TIMEOUT_MS);
    console.log(
      `ready after ${((performance.now() - startedAt) / 1000).toFixed(2)} s (migrations + demo seed)`,
    );

    const floorPage: Page = { label: "floor", path: `http://127.0.0.1:${floorPort}/` };
    const pages = [floorPage, ...(await findPages(server.url))];
    const versions = spawnSync(chromePath(), ["--version"], { encoding: "utf8" }).stdout.trim();
    console.log(
      `\n== Lighthouse (default mobile config, simulated throttling, performance only), ${versions}` +
        `${RUNS > 1 ? `, best of ${RUNS} runs per page` : ""} ==`,
    );

    const results: { page: Page; best: Measurement; scores: (number | null)[] }[] = [];
    let runNumber = 0;
    for (const page of pages) {
      const runs: Measurement[] = [];
      for (let i = 0; i < RUNS; i++) {
        runNumber++;
        const run = await measure(
          page.path.startsWith("http") ? page.path : `${server.url}${page.path}`,
          path.join(tmp, `chrome-${runNumber}`),
        );
        console.log(
          `${page.path}${RUNS > 1 ? ` (run ${i + 1})` : ""}: score ${run.score ?? "?"}` +
            `${run.error ? ` — runtime error ${run.error}` : ""}`,
        );
        for (const warning of run.warnings) console.log(`  warning: ${warning}`);
        runs.push(run);
      }
      const sorted = [...runs].sort((a, b) => (a.score ?? -1) - (b.score ?? -1));
      const median = sorted[Math.floor(sorted.length / 2)] ?? runs[0];
      if (median) results.push({ page, best: median, scores: runs.map((r) => r.score) });
    }

    const floor = results[0]?.best;
    const ratio = (v: number | null, base: number | null | undefined) =>
      v === null || !base ? null : v / base;
    const x = (r: number | null) => (r === null ? "?" : `${r.toFixed(2)}×`);
    console.log();
    console.table(
      results.map(({ page, best, scores }) => ({
        page: page.label,
        score: best.score ?? "?",
        ...(RUNS > 1 ? { "all scores": scores.map((s) => s ?? "?").join(" / ") } : {}),
        FCP: sec(best.fcpMs),
        LCP: sec(best.lcpMs),
        "LCP/floor": x(ratio(best.lcpMs, floor?.lcpMs)),
        TBT: ms(best.tbtMs),
        CLS: best.cls === null ? "?" : best.cls.toFixed(3),
        "script KiB": best.scriptBytes === null ? "?" : kib(best.scriptBytes),
        "JS/floor": x(ratio(best.scriptBytes, floor?.scriptBytes)),
        scripts: best.scriptRequests ?? "?",
        requests: best.requests ?? "?",
      })),
    );
    for (const { page, best } of results.slice(1)) {
      const js = ratio(best.scriptBytes, floor?.scriptBytes);
      const lcp = ratio(best.lcpMs, floor?.lcpMs);
      const checks: [boolean, string][] = [
        [
          best.score !== null && best.score >= SCORE_GOAL,
          `score ≥ ${SCORE_GOAL}: ${best.score ?? "?"}`,
        ],
        [js !== null && js <= SCRIPT_RATIO_GOAL, `JS ≤ ${SCRIPT_RATIO_GOAL}× floor: ${x(js)}`],
        [lcp !== null && lcp <= LCP_RATIO_GOAL, `LCP ≤ ${LCP_RATIO_GOAL}× floor: ${x(lcp)}`],
        [
          best.requests !== null && best.requests <= REQUESTS_GOAL,
          `requests ≤ ${REQUESTS_GOAL}: ${best.requests ?? "?"}`,
        ],
        [
          best.tbtMs !== null && best.tbtMs <= TBT_GOAL_MS,
          `TBT ≤ ${TBT_GOAL_MS} ms: ${ms(best.tbtMs)}`,
        ],
        [best.cls === 0, `CLS 0: ${best.cls ?? "?"}`],
      ];
      for (const [ok, text] of checks)
        console.log(`${ok ? "PASS" : "FAIL"}  ${page.label}  ${text}`);
    }
  } finally {
    floorServer.close();
    if (server) await stopServer(server);
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
