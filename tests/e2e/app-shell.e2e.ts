import { expect, test } from "@playwright/test";
import { whenHydrated } from "./support/fixtures";
import { holdScripts } from "./support/hold-scripts";

test.describe("landing page", () => {
  test("shows the hero, how it works and featured artists from the database", async ({ page }) => {
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (e) => errors.push(e.message));

    await page.goto("/");
    await expect(page).toHaveTitle("GigLedger");
    await expect(page.getByRole("link", { name: "Start Building Your Legacy" })).toHaveAttribute(
      "href",
      "/profile-setup",
    );
    await expect(page.getByRole("link", { name: "Explore Artist Profiles" })).toHaveAttribute(
      "href",
      "/artist-discovery",
    );
    for (const point of ["Automatic Logging", "Build Credibility", "Social Proof"]) {
      await expect(page.getByRole("heading", { name: point })).toBeVisible();
    }
    const featured = page.getByRole("region", { name: "Featured Artists" });
    const artistLinks = featured.locator('a[href^="/artist/"]');
    await expect(artistLinks).toHaveCount(2);
    await expect(featured.getByRole("link", { name: /Discover More/ })).toHaveAttribute(
      "href",
      "/artist-discovery",
    );
    await expect(page.getByText(`© ${new Date().getFullYear()} GigLedger`)).toBeVisible();
    // Hydrated without errors (CSP violations and hydration mismatches land in the console).
    await page.waitForLoadState("networkidle");
    expect(errors).toEqual([]);
  });

  test("serves hashed assets compressed at build time with immutable caching, and compresses pages", async ({
    page,
    request,
  }) => {
    // Each response is read while the page goes on: the reads are kept and awaited below, so a
    // slow machine cannot check the list before they are in it.
    const reads: Promise<{ url: string; encoding: string | undefined; bytes: number }>[] = [];
    page.on("response", (r) => {
      if (r.request().resourceType() !== "script") return;
      reads.push(
        (async () => ({
          url: r.url(),
          encoding: (await r.allHeaders())["content-encoding"],
          bytes: (await r.body()).length,
        }))(),
      );
    });
    await page.goto("/");
    await whenHydrated(page); // the scripts start after the first paint
    await page.waitForLoadState("networkidle");
    const scripts = await Promise.all(reads);
    const ours = scripts.filter((s) => new URL(s.url).pathname.startsWith("/assets/"));
    expect(ours.length).toBeGreaterThan(0);
    // Chromium accepts Brotli, and every script the page loads has its Brotli copy, but for a
    // file under 1 KiB: compressing one gains nothing, at build time or on the fly.
    const worthIt = ours.filter((s) => s.bytes >= 1024);
    expect(worthIt.length).toBeGreaterThan(0);
    expect(worthIt.map((s) => s.encoding)).toEqual(worthIt.map(() => "br"));
    expect(ours.filter((s) => s.bytes < 1024).map((s) => s.encoding)).not.toContain("gzip");

    const asset = worthIt[0]?.url as string;
    const plain = await request.get(asset, { headers: { "Accept-Encoding": "identity" } });
    expect(plain.headers()["content-encoding"]).toBeUndefined();
    const original = await plain.body();
    for (const [accepts, sent] of [
      ["gzip, deflate, br", "br"],
      ["gzip", "gzip"],
      ["identity", undefined],
    ] as const) {
      const res = await request.get(asset, { headers: { "Accept-Encoding": accepts } });
      expect(res.headers()["content-encoding"]).toBe(sent);
      expect(res.headers().vary).toContain("Accept-Encoding");
      expect(res.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
      // The same file, whichever copy was sent (the client decodes it).
      expect((await res.body()).equals(original)).toBe(true);
    }
    const html = await request.get("/", { headers: { "Accept-Encoding": "gzip" } });
    expect(html.headers()["content-encoding"]).toBe("gzip");
  });
});

test.describe("navigation", () => {
  test("moves between the landing page and the static pages", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("link", { name: "See How It Works" }).click();
    await expect(page).toHaveURL(/\/discover$/);
    await expect(
      page.getByRole("heading", { level: 1, name: "How GigLedger works" }),
    ).toBeVisible();

    const footer = page.getByRole("navigation", { name: "Footer" });
    await footer.getByRole("link", { name: "Privacy Policy" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
    await footer.getByRole("link", { name: "Data Deletion" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Data Deletion" })).toBeVisible();
    await expect(page).toHaveTitle("Data Deletion | GigLedger");

    await page.getByRole("link", { name: "GigLedger", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    const main = page.getByRole("navigation", { name: "Main" });
    await expect(main.getByRole("link", { name: "Discover" })).toHaveAttribute(
      "href",
      "/artist-discovery",
    );
    await expect(main.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/auth");
    await expect(main.getByRole("link", { name: "Join" })).toBeVisible();
  });

  test("shows the 404 page for an unknown address, with a way home", async ({ page }) => {
    const response = await page.goto("/this/does/not/exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    await page.getByRole("link", { name: "Return to Home" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "Your performance history, verified.",
    );
  });
});

test.describe("scroll restoration", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("keeps the reader's place on the way back and across a reload, before the scripts run", async ({
    page,
  }) => {
    const scrollY = () => page.evaluate(() => Math.round(window.scrollY));
    await page.addInitScript(() => {
      const w = window as Window & { historyWrites?: number };
      const replaceState = window.history.replaceState.bind(window.history);
      w.historyWrites = 0;
      window.history.replaceState = (...args) => {
        w.historyWrites = (w.historyWrites ?? 0) + 1;
        replaceState(...args);
      };
    });
    const historyWrites = () =>
      page.evaluate(() => (window as Window & { historyWrites?: number }).historyWrites);
    let release = await holdScripts(page);
    await page.goto("/artist-discovery", { waitUntil: "domcontentloaded" });
    // The server's inline script gives a new history entry its key (in a task of its own) before
    // any script loads, and the router, starting, finds nothing to add: one write in all.
    await expect
      .poll(() => page.evaluate(() => window.history.state))
      .toEqual({ key: expect.any(String), idx: 0 });
    await release();
    expect(await historyWrites()).toBe(1);

    await page.evaluate(() => window.scrollTo(0, 900));
    await expect.poll(scrollY).toBe(900);
    await page.getByRole("link", { name: "GigLedger", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/artist-discovery$/);
    await expect.poll(scrollY).toBe(900);

    // After a reload the router's code has not run yet: the server's script puts the page back.
    // The router lets the browser restore the place too (it sets "auto" as the page hides); this
    // handler, run after the router's, turns that off so that only the script can.
    await page.evaluate(() =>
      window.addEventListener("pagehide", () => {
        window.history.scrollRestoration = "manual";
      }),
    );
    release = await holdScripts(page);
    await page.reload({ waitUntil: "domcontentloaded" });
    await expect.poll(scrollY).toBe(900);
    expect(await page.evaluate(() => "__reactRouterRouteModules" in window)).toBe(false);
    await release();
    expect(await scrollY()).toBe(900);
  });
});

test.describe("mobile navigation", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("moves the navigation into a side sheet titled 'Navigation'", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await page.getByRole("button", { name: "Open navigation" }).click();
    const sheet = page.getByRole("dialog", { name: "Navigation" });
    await expect(sheet).toBeVisible();
    await expect(sheet.getByRole("link", { name: "Discover" })).toBeVisible();
    await expect(sheet.getByRole("link", { name: "Sign In" })).toBeVisible();

    // Escape closes it; a link inside navigates and closes it.
    await page.keyboard.press("Escape");
    await expect(sheet).toBeHidden();
    await page.getByRole("button", { name: "Open navigation" }).click();
    await sheet.getByRole("button", { name: "Close navigation" }).click();
    await expect(sheet).toBeHidden();
    await page.getByRole("button", { name: "Open navigation" }).click();
    await sheet.getByRole("link", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(sheet).toBeHidden();
  });

  test("a sheet opened before the page's scripts run stays open once they have", async ({
    page,
  }) => {
    // The scripts start after the first paint (decision 024): hold them until the sheet is open.
    const runScripts = await holdScripts(page);
    await page.goto("/", { waitUntil: "domcontentloaded" });
    await page.getByRole("button", { name: "Open navigation" }).click();
    const sheet = page.getByRole("dialog", { name: "Navigation" });
    await expect(sheet).toBeVisible();

    await runScripts();
    await expect(sheet).toBeVisible();
    await sheet.getByRole("link", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(sheet).toBeHidden();
  });

  test("opens the sheet before JavaScript has loaded", async ({ browser }) => {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 375, height: 740 },
    });
    const page = await context.newPage();
    await page.goto("/");
    await page.getByRole("button", { name: "Open navigation" }).click();
    await expect(page.getByRole("dialog", { name: "Navigation" })).toBeVisible();
    await context.close();
  });
});

test.describe("pages drawn on the server only (decision 022)", () => {
  test("follow their links on the client, without loading a new document", async ({ page }) => {
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    // A value kept on the window lives only as long as this document.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    await page.getByRole("link", { name: "Explore Artist Profiles" }).click();
    await expect(
      page.getByRole("heading", { level: 1, name: "Discover Talented Artists" }),
    ).toBeVisible();
    await page
      .getByRole("link", { name: /View Profile & Book/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/artist\/[^/]+$/);
    await expect(page.getByRole("heading", { level: 2, name: "Reviews" })).toBeVisible();

    expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);
  });
});
