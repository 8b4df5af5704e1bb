// Shared by `npm run bench:lighthouse` and `npm run bench:weight`: building the app and the floor
// (bench/floor), starting the production server on a fresh data dir (seeded with demo data on its
// first start), finding the four public pages in the demo data and signing in an artist.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { type SpawnedServer, spawnServer, waitUntilReady } from "../tests/support/spawn-server";

export type Page = { label: string; path: string; cookie?: string };

const STARTUP_TIMEOUT_MS = 120_000;
const root = path.resolve(import.meta.dirname, "..");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Bytes as KiB with one decimal, as every bench prints them. */
export const kib = (bytes: number) => (bytes / 1024).toFixed(1);

/** Lighthouse's mobile preset (a Moto G Power): the viewport decides what a page loads and draws. */
export const PHONE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
};

/** The median of some figures (the mean of the middle two for an even count); NaN for none. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = sorted.length / 2;
  return Number.isInteger(middle)
    ? ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
    : (sorted[Math.floor(middle)] as number);
}

/** `npm run build`. */
export function buildApp() {
  console.log("== npm run build ==");
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status})`);
}

/** `npm run build` and the floor's `react-router build bench/floor`. */
export function buildAppAndFloor() {
  buildApp();
  console.log("== react-router build bench/floor ==");
  const floorBuild = spawnSync("npx", ["react-router", "build", "bench/floor"], {
    cwd: root,
    stdio: "inherit",
  });
  if (floorBuild.status !== 0) throw new Error(`floor build failed (exit ${floorBuild.status})`);
}

/** Starts `build/server/main.js` on a fresh data directory under `tmp` and waits until ready. */
export async function startApp(tmp: string): Promise<SpawnedServer> {
  const dataDir = path.join(tmp, "data");
  mkdirSync(dataDir, { recursive: true });
  const server = await spawnServer({ DATA_DIR: dataDir, LOG_LEVEL: "warn" });
  console.log(`\n== starting node build/server/main.js on ${server.url} (DATA_DIR=${dataDir}) ==`);
  const startedAt = performance.now();
  try {
    await waitUntilReady(server, STARTUP_TIMEOUT_MS);
  } catch (error) {
    await stopServer(server);
    throw error;
  }
  console.log(
    `ready after ${((performance.now() - startedAt) / 1000).toFixed(2)} s (migrations + demo seed)`,
  );
  return server;
}

export async function stopServer(server: SpawnedServer) {
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

/**
 * CPU time (user + system, in ms) a process has used so far, from Linux's /proc (10 ms steps);
 * null where there is no /proc.
 */
export function processCpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]); // utime + stime, at 100 per second
    return Number.isFinite(ticks) ? ticks * 10 : null;
  } catch {
    return null;
  }
}

export async function html(url: string) {
  const res = await fetch(url);
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return text;
}

export function hrefs(text: string, prefix: string) {
  const pattern = new RegExp(`href="(${prefix}[^"]+)"`, "g");
  const found = [...text.matchAll(pattern)].map((m) => (m[1] ?? "").replaceAll("&amp;", "&"));
  return [...new Set(found)];
}

/**
 * The four public pages, the heaviest of each kind in the demo data: the landing page, discovery,
 * the artist profile with the largest document among those the landing page and discovery link
 * (the demo seed varies which artists are featured, and the first one was not always the same
 * weight), and the largest public portfolio those artists link.
 */
export async function findPages(base: string): Promise<Page[]> {
  const pages: Page[] = [
    { label: "landing", path: "/" },
    { label: "discovery", path: "/artist-discovery" },
  ];
  const artists = [
    ...new Set([
      ...hrefs(await html(`${base}/`), "/artist/"),
      ...hrefs(await html(`${base}/artist-discovery`), "/artist/"),
    ]),
  ];
  if (artists.length === 0) {
    console.log('no href="/artist/…" link on / or discovery: skipping the profile and portfolio');
    return pages;
  }
  const artistPages = await fetchAll(base, artists);
  const profile = largest(artistPages);
  pages.push({ label: "artist profile", path: profile.path });
  const portfolios = [...new Set(artistPages.flatMap((page) => hrefs(page.text, "/portfolio/")))];
  if (portfolios.length === 0) {
    console.log(`none of the ${artists.length} artist pages links a public portfolio: skipping it`);
    return pages;
  }
  const portfolioPages = await fetchAll(base, portfolios);
  const portfolio = largest(portfolioPages);
  pages.push({ label: "portfolio", path: portfolio.path });
  console.log(
    `heaviest of ${artistPages.length} profiles: ${profile.path} (${kib(profile.text.length)} KiB of HTML); ` +
      `of ${portfolioPages.length} portfolios: ${portfolio.path} (${kib(portfolio.text.length)} KiB)`,
  );
  return pages;
}

type Fetched = { path: string; text: string };

const fetchAll = (base: string, paths: string[]): Promise<Fetched[]> =>
  Promise.all(paths.map(async (route) => ({ path: route, text: await html(`${base}${route}`) })));

const largest = (pages: Fetched[]): Fetched =>
  pages.reduce((a, b) => (b.text.length > a.text.length ? b : a));

/**
 * A signed-in artist for the signed-in runs: an account made through the sign-up form, confirmed
 * through the development outbox's link, with an artist profile (so it has a dashboard). Returns
 * the session cookie to send with every request of those runs.
 */
export async function signedInArtist(base: string): Promise<string> {
  const email = `lighthouse.${Date.now().toString(36)}@example.com`;
  const headers = { Origin: base, "Content-Type": "application/x-www-form-urlencoded" };
  const signUp = await fetch(`${base}/auth`, {
    method: "POST",
    headers,
    redirect: "manual",
    body: new URLSearchParams({
      intent: "signup",
      firstName: "Bench",
      lastName: "Mark",
      email,
      password: "bench-mark-password",
    }),
  });
  if (signUp.status >= 400) throw new Error(`sign-up answered ${signUp.status}`);
  const outbox = await html(`${base}/dev/outbox`);
  const mail = [
    ...outbox.matchAll(/<article aria-label="Mail to ([^"]+?):[^"]*"[^>]*>([\s\S]*?)<\/article>/g),
  ].find((m) => m[1] === email)?.[2];
  const link = mail && /href="([^"]+)"/.exec(mail)?.[1]?.replaceAll("&amp;", "&");
  if (!link) throw new Error("no confirmation mail in the development outbox");
  // Follow the link's redirects by hand, keeping every cookie set on the way.
  const jar = new Map<string, string>();
  let next: string | null = link;
  for (let hop = 0; next && hop < 5; hop++) {
    const res: Response = await fetch(new URL(next, base), {
      redirect: "manual",
      headers: { Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const set of res.headers.getSetCookie()) {
      const [pair = ""] = set.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    next = res.status >= 300 && res.status < 400 ? res.headers.get("location") : null;
  }
  const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  if (!cookie) throw new Error("the confirmation link set no session cookie");
  const profile = await fetch(`${base}/profile-setup`, {
    method: "POST",
    headers: { ...headers, Cookie: cookie },
    redirect: "manual",
    body: new URLSearchParams({
      artistName: `Bench Mark ${Date.now().toString(36)}`,
      genre: "Jazz",
      bio: "Measures pages.",
      location: "Pune",
      experience: "3 years",
      instruments: "Piano",
      hourlyRate: "2000",
      instagram: "",
      youtube: "",
      facebook: "",
    }),
  });
  if (profile.status >= 400) throw new Error(`profile setup answered ${profile.status}`);
  return cookie;
}

/** A new database on the server at `serverUrl`, dropped by `drop`. */
export async function createBenchDatabase(serverUrl: string, prefix: string) {
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
