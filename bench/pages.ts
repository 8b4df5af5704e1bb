// `npm run bench`: builds, starts the production server on an empty data dir, then measures
// throughput/latency (autocannon) and the gzipped JS/CSS each public page loads (Chromium).
// With BENCH_DATABASE_URL (a PostgreSQL server) it runs on a fresh database there, seeded with
// the demo data, and prints the profile's throughput as a share of the 404 page's (the shell
// with no data): the page-speed budget asks for at least 0.6.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { type Browser, chromium, type Response } from "@playwright/test";
import autocannon from "autocannon";
import { CHROMIUM_ARGS, chromePath } from "../tests/support/chromium";
import { freePort } from "../tests/support/free-port";
import { createBenchDatabase, kib } from "./bench-setup";

const DURATION_S = 10;
const CONNECTIONS = 10;
const STARTUP_TIMEOUT_MS = 120_000;
const JS_BUDGET_BYTES = 150 * 1000; // "≤ 150 KB gzipped JS per public page"
const JS_GOAL_BYTES = 125 * 1024; // our stricter goal: 125 KiB
const PROFILE_TO_404_GOAL = 0.6;
const NOT_FOUND_PATH = "/no-such-page";

type Page = { path: string };

type AssetRow = {
  page: string;
  type: "js" | "css";
  file: string;
  status: number;
  encoding: string;
  transferredB: number | null;
  rawB: number;
  gzipB: number;
};

type AssetSummary = {
  page: string;
  status: number;
  jsFiles: number;
  jsGzipB: number;
  cssFiles: number;
  cssGzipB: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForHealthy(base: string, child: ChildProcess, startedAt: number) {
  while (performance.now() - startedAt < STARTUP_TIMEOUT_MS) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `server exited before answering /healthz (code ${child.exitCode}, signal ${child.signalCode})`,
      );
    }
    try {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(1_000) });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - startedAt;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`server did not answer /healthz within ${STARTUP_TIMEOUT_MS / 1000} s`);
}

async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timedOut = await Promise.race([exited.then(() => false), sleep(15_000).then(() => true)]);
  if (timedOut) {
    console.warn("server did not stop within 15 s after SIGTERM; sending SIGKILL");
    child.kill("SIGKILL");
    await exited;
  }
}

async function findArtistPath(base: string): Promise<string | null> {
  const res = await fetch(`${base}/`);
  const html = await res.text();
  const match = /href="(\/artist\/[^"]+)"/.exec(html);
  return match?.[1]?.replaceAll("&amp;", "&") ?? null;
}

async function statusOf(url: string) {
  const res = await fetch(url, { redirect: "manual" });
  await res.arrayBuffer();
  return res.status;
}

async function loadTest(pages: Page[], base: string) {
  const rows = [];
  for (const page of pages) {
    const url = `${base}${page.path}`;
    const status = await statusOf(url);
    console.log(
      `autocannon ${page.path} (HTTP ${status}): ${DURATION_S} s, ${CONNECTIONS} connections…`,
    );
    const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
    rows.push({
      page: page.path,
      status,
      "req/s (avg)": Math.round(result.requests.average),
      "p50 ms": result.latency.p50,
      "p99 ms": result.latency.p99,
      requests: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
    });
  }
  return rows;
}

async function measureAssets(browser: Browser, base: string, page: Page) {
  // A fresh context per page: empty cache, no service worker, no cookies.
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    const pending: Promise<AssetRow | null>[] = [];
    const seen = new Set<string>();
    tab.on("response", (response: Response) => {
      const kind = response.request().resourceType();
      if (kind !== "script" && kind !== "stylesheet") return;
      if (seen.has(response.url())) return;
      seen.add(response.url());
      pending.push(assetRow(page.path, kind === "script" ? "js" : "css", response, base));
    });
    const response = await tab.goto(`${base}${page.path}`, { waitUntil: "networkidle" });
    const assets = (await Promise.all(pending)).filter((row) => row !== null);
    const js = assets.filter((a) => a.type === "js");
    const css = assets.filter((a) => a.type === "css");
    const summary: AssetSummary = {
      page: page.path,
      status: response?.status() ?? 0,
      jsFiles: js.length,
      jsGzipB: js.reduce((sum, a) => sum + a.gzipB, 0),
      cssFiles: css.length,
      cssGzipB: css.reduce((sum, a) => sum + a.gzipB, 0),
    };
    return { summary, assets };
  } finally {
    await context.close();
  }
}

async function assetRow(
  page: string,
  type: "js" | "css",
  response: Response,
  base: string,
): Promise<AssetRow | null> {
  try {
    const body = await response.body();
    const sizes = await response
      .request()
      .sizes()
      .catch(() => null);
    const url = new URL(response.url());
    return {
      page,
      type,
      file: url.origin === new URL(base).origin ? url.pathname : url.href,
      status: response.status(),
      encoding: (await response.headerValue("content-encoding")) ?? "identity",
      transferredB: sizes?.responseBodySize ?? null,
      rawB: body.length,
      gzipB: gzipSync(body).length,
    };
  } catch (error) {
    console.warn(`could not read ${response.url()}: ${(error as Error).message}`);
    return null;
  }
}

function budgetLine(label: string, limit: number, summaries: AssetSummary[]) {
  const failing = summaries.filter((s) => s.jsGzipB > limit);
  const worst = summaries.reduce<AssetSummary | undefined>(
    (max, s) => (max === undefined || s.jsGzipB > max.jsGzipB ? s : max),
    undefined,
  );
  const worstText = worst
    ? `largest: ${worst.page} ${kib(worst.jsGzipB)} KiB (${worst.jsGzipB} B)`
    : "no pages measured";
  const verdict = summaries.length > 0 && failing.length === 0 ? "PASS" : "FAIL";
  const over = failing.length > 0 ? `; over: ${failing.map((s) => s.page).join(", ")}` : "";
  console.log(`${verdict}  ${label} [limit ${limit} B = ${kib(limit)} KiB]: ${worstText}${over}`);
}

async function main() {
  const root = path.resolve(import.meta.dirname, "..");

  console.log("== npm run build ==");
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status})`);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "gigledger-bench-"));
  const serverUrl = process.env.BENCH_DATABASE_URL;
  const database = serverUrl ? await createBenchDatabase(serverUrl, "gigledger_bench") : null;
  const databaseEnv: Record<string, string> = database ? { DATABASE_URL: database.url } : {};
  if (database) {
    console.log(
      "\n== PostgreSQL server: a fresh database with the demo data (seed/seed-cli.ts) ==",
    );
    const seed = spawnSync("npx", ["tsx", "seed/seed-cli.ts"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, ...databaseEnv, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    });
    if (seed.status !== 0) throw new Error(`seeding failed (exit ${seed.status})`);
  }
  let server: ChildProcess | null = null;
  let browser: Browser | null = null;
  try {
    console.log(`\n== starting node build/server/main.js on ${base} (DATA_DIR=${dataDir}) ==`);
    const startedAt = performance.now();
    server = spawn(process.execPath, ["build/server/main.js"], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        LOG_LEVEL: "warn",
        NODE_ENV: "production",
        ...databaseEnv,
      },
    });
    const startupMs = await waitForHealthy(base, server, startedAt);
    console.log(
      `first request answered after ${(startupMs / 1000).toFixed(2)} s (${database ? "PostgreSQL server" : "empty DATA_DIR: migrations + demo seed"})`,
    );

    const pages: Page[] = [{ path: "/" }, { path: "/artist-discovery" }];
    const artistPath = await findArtistPath(base);
    if (artistPath) pages.push({ path: artistPath });
    else console.log('no href="/artist/…" link on / — skipping the artist profile page');

    console.log(`\n== throughput: autocannon, ${DURATION_S} s × ${CONNECTIONS} connections ==`);
    const load = await loadTest([...pages, { path: NOT_FOUND_PATH }], base);
    console.table(load);
    const rate = (p: string | undefined) => load.find((row) => row.page === p)?.["req/s (avg)"];
    const profileRate = rate(artistPath ?? undefined);
    const notFoundRate = rate(NOT_FOUND_PATH);
    if (profileRate && notFoundRate) {
      const ratio = profileRate / notFoundRate;
      console.log(
        `${ratio >= PROFILE_TO_404_GOAL ? "PASS" : "FAIL"}  artist profile / 404 page throughput on ` +
          `${database ? "PostgreSQL" : "PGlite"}: ${profileRate} / ${notFoundRate} req/s = ` +
          `${ratio.toFixed(2)} (goal ≥ ${PROFILE_TO_404_GOAL})`,
      );
    }

    console.log("\n== browser: JS/CSS a cold Chromium loads per page (gzip -6 of each body) ==");
    browser = await chromium.launch({ executablePath: chromePath(), args: CHROMIUM_ARGS });
    const summaries: AssetSummary[] = [];
    const allAssets: AssetRow[] = [];
    for (const page of pages) {
      const { summary, assets } = await measureAssets(browser, base, page);
      summaries.push(summary);
      allAssets.push(...assets);
    }
    console.log("\nfiles:");
    console.table(
      allAssets.map((a) => ({
        page: a.page,
        type: a.type,
        file: a.file,
        status: a.status,
        "sent encoding": a.encoding,
        "transferred B": a.transferredB ?? "?",
        "raw B": a.rawB,
        "gzip B": a.gzipB,
      })),
    );
    console.log("per page:");
    console.table(
      summaries.map((s) => ({
        page: s.page,
        status: s.status,
        "JS files": s.jsFiles,
        "JS gzip KiB": kib(s.jsGzipB),
        "CSS files": s.cssFiles,
        "CSS gzip KiB": kib(s.cssGzipB),
        "total gzip KiB": kib(s.jsGzipB + s.cssGzipB),
      })),
    );
    budgetLine("≤ 150 KB gzipped JS per public page", JS_BUDGET_BYTES, summaries);
    budgetLine("goal ≤ 125 KiB gzipped JS per public page", JS_GOAL_BYTES, summaries);
  } finally {
    if (browser) await browser.close().catch(() => {});
    if (server) await stopServer(server);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
