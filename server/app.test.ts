import { desc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redirectWithToast } from "~/lib/toast.server";
import { openDatabase } from "~db/client";
import { artistProfiles } from "~db/schema";
import { seedDemoData } from "~seed/seed";
import { startTestApp } from "../tests/support/app-harness";
import { signedInUser } from "../tests/support/sessions";
import { createTestDatabase } from "../tests/support/test-database";

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedDemoData(database.db, { today: "2026-11-21" });
  app = await startTestApp(database);
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

describe("health endpoints", () => {
  it("GET /healthz answers while the process is up", async () => {
    const res = await app.request("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("GET /readyz reports the database", async () => {
    const res = await app.request("/readyz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", database: database.driver });
  });

  it("GET /readyz answers 503 when the database is unreachable", async () => {
    const broken = openDatabase({ driver: "pglite" });
    await broken.close();
    const brokenApp = await startTestApp(broken);
    try {
      const res = await brokenApp.request("/readyz");
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "unavailable", database: "pglite" });
    } finally {
      await brokenApp.close();
    }
  });
});

describe("landing page", () => {
  it("renders on the server with the two top-ranked artists from the database", async () => {
    const top = await database.db
      .select({ name: artistProfiles.artistName, slug: artistProfiles.slug })
      .from(artistProfiles)
      .orderBy(
        desc(artistProfiles.verifiedSessions),
        desc(artistProfiles.rating),
        artistProfiles.id,
      )
      .limit(3);
    const res = await app.request("/");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Start Building Your Legacy");
    expect(html).toContain("Featured Artists");
    expect(html).toContain(`href="/artist/${top[0]!.slug}"`);
    expect(html).toContain(`href="/artist/${top[1]!.slug}"`);
    expect(html).not.toContain(`href="/artist/${top[2]!.slug}"`);
    expect(html).toContain("Discover More");
  });

  it("sends security headers and a CSP whose nonce is on every inline script", async () => {
    const res = await app.request("/");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("strict-transport-security")).toBeNull();
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? "");
    expect(scripts.length).toBeGreaterThan(0);
    for (const attrs of scripts) expect(attrs).toContain(`nonce="${nonce}"`);
    // A new nonce for every render (a copy served from the microcache keeps its own, see below).
    const nonceOf = async (pathname: string) =>
      /'nonce-([^']+)'/.exec(
        (await app.request(pathname)).headers.get("content-security-policy") ?? "",
      )?.[1];
    expect(await nonceOf("/auth")).not.toBe(await nonceOf("/auth"));
  });

  it("adds HSTS when the public URL is https", async () => {
    const httpsApp = await startTestApp(database, {
      APP_URL: "https://gigledger.example",
      BETTER_AUTH_SECRET: "s".repeat(40),
      MAIL_TRANSPORT: "log",
    });
    try {
      const res = await httpsApp.request("/healthz");
      expect(res.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
    } finally {
      await httpsApp.close();
    }
  });
});

describe("uploaded files", () => {
  it("are served with their own sandbox policy and nosniff, while pages keep the page policy", async () => {
    // Bytes that a browser would render as a page if the headers let it.
    const html = Buffer.from("<!doctype html><script>alert(document.cookie)</script>");
    await app.storage.put("media/headers-test/clip-1.mp4", html, "video/mp4");

    for (const range of [undefined, "bytes=0-9"]) {
      const res = await app.request("/files/media/headers-test/clip-1.mp4", {
        headers: range ? { Range: range } : {},
      });
      expect(res.status).toBe(range ? 206 : 200);
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-type")).toBe("video/mp4");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      await res.arrayBuffer();
    }

    const page = await app.request("/");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+'/);
    await page.text();
  });
});

describe("pages", () => {
  it.each([
    ["/discover", "How GigLedger works"],
    ["/privacy-policy", "Privacy Policy"],
    ["/data-deletion", "Data Deletion"],
    ["/verification", "Lineup-verified"],
  ])("%s renders", async (pathname, heading) => {
    const res = await app.request(pathname);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(heading);
  });

  it("answers an unknown path with the 404 page", async () => {
    const res = await app.request("/no/such/page");
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain("Oops! Page not found");
    expect(html).toContain('href="/"');
  });

  it("answers a method no route takes with a 405, logged as a request, not as an error", async () => {
    const logged = app.logs.length;
    for (const method of ["OPTIONS", "PATCH"]) {
      const res = await app.request("/artist-discovery", {
        method,
        headers: { Origin: app.env.appUrl.origin },
      });
      expect(res.status, method).toBe(405);
    }
    const lines = app.logs.slice(logged);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(lines.filter((l) => l.msg === "request" && l.status === 405)).toHaveLength(2);
  });

  it("shows a friendly error page and logs the error when a loader fails", async () => {
    const broken = openDatabase({ driver: "pglite" });
    await broken.close();
    const brokenApp = await startTestApp(broken);
    try {
      const res = await brokenApp.request("/");
      expect(res.status).toBe(500);
      const html = await res.text();
      expect(html).toContain("Something went wrong");
      expect(html).not.toMatch(/PGlite is closed|at .*\.ts:\d+/);
      expect(brokenApp.logs.some((l) => l.msg === "unhandled route error" && l.level >= 50)).toBe(
        true,
      );
    } finally {
      await brokenApp.close();
    }
  });
});

describe("caching by a shared cache (CDN)", () => {
  const shared = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";

  it("lets a shared cache keep the public pages and their data for anonymous visitors", async () => {
    const [artist] = await database.db
      .select({ slug: artistProfiles.slug })
      .from(artistProfiles)
      .limit(1);
    for (const pathname of ["/", "/artist-discovery", `/artist/${artist?.slug}`, "/discover"]) {
      const res = await app.request(pathname);
      expect(res.status, pathname).toBe(200);
      expect(res.headers.get("Cache-Control"), pathname).toBe(shared);
      expect(res.headers.get("Vary"), pathname).toMatch(/cookie/i);
    }
    const data = await app.request(`/artist/${artist?.slug}.data`);
    expect(data.status).toBe(200);
    expect(data.headers.get("Cache-Control")).toBe(shared);
  });

  it("never lets a shared cache keep a signed-in answer, a redirect, a 404 or a cookie", async () => {
    const { cookie } = await signedInUser(app, database.db, "Cached");
    const signedIn = await app.request("/", { headers: { Cookie: cookie } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.get("Cache-Control")).toBe("private, no-store");
    const signedInData = await app.request("/artist-discovery.data", {
      headers: { Cookie: cookie },
    });
    expect(signedInData.headers.get("Cache-Control")).toBe("private, no-store");

    const redirect = await app.request("/dashboard", { redirect: "manual" });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("Cache-Control")).toBe("private, no-store");

    const missing = await app.request("/artist/no-such-artist");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("Cache-Control")).toBe("private, no-store");

    // A toast left by a redirect is read (and cleared) by the next page: that page is private.
    const toastCookie = (await redirectWithToast("/", { title: "Saved" })).headers
      .get("Set-Cookie")
      ?.split(";")[0];
    const withToast = await app.request("/", { headers: { Cookie: toastCookie ?? "" } });
    expect(await withToast.text()).toContain("Saved");
    expect(withToast.headers.get("Set-Cookie")).toMatch(/^gl_toast=/);
    expect(withToast.headers.get("Cache-Control")).toBe("private, no-store");
  });
});

describe("microcache", () => {
  const nonceOf = (res: Response) =>
    /'nonce-([^']+)'/.exec(res.headers.get("Content-Security-Policy") ?? "")?.[1];

  it("serves an anonymous public page again with its own nonce, and renders anew after a write", async () => {
    const first = await app.request("/artist-discovery");
    const firstHtml = await first.text();
    const nonce = nonceOf(first);
    expect(nonce).toBeTruthy();
    expect(firstHtml).toContain(`nonce="${nonce}"`);

    const second = await app.request("/artist-discovery");
    expect(nonceOf(second)).toBe(nonce);
    expect(await second.text()).toBe(firstHtml);

    // Any write on this instance makes it forget (here a refused sign-in).
    await app.request("/auth", {
      method: "POST",
      body: new URLSearchParams({ intent: "signin", email: "nobody@example.com", password: "x" }),
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Origin: app.env.appUrl.origin,
      },
    });
    const third = await app.request("/artist-discovery");
    expect(nonceOf(third)).not.toBe(nonce);
    expect(await third.text()).toContain(`nonce="${nonceOf(third)}"`);
  });

  it("renders a signed-in visitor's page for them, never from the microcache", async () => {
    await app.request("/");
    const { cookie } = await signedInUser(app, database.db, "Fresh");
    const res = await app.request("/", { headers: { Cookie: cookie } });
    expect(await res.text()).toContain("Account menu for");
  });
});
