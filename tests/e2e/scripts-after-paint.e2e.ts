import { COMPILE_HINT } from "../../vite.compile-hints";
import { expect, test, whenHydrated } from "./support/fixtures";

/**
 * A page's scripts are asked for once it has painted (decision 024): its text never waits for,
 * nor shares the connection with, the framework's code, and the page still comes alive.
 */
for (const path of ["/", "/artist-discovery", "/artist/maya-lindqvist"]) {
  test(`${path}: the scripts start after the first paint, and the page hydrates`, async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(path);
    await whenHydrated(page);
    await page.waitForLoadState("networkidle");

    const timing = await page.evaluate(() => ({
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
      scripts: performance
        .getEntriesByType("resource")
        .filter((entry) => new URL(entry.name).pathname.endsWith(".js"))
        .map((entry) => ({ name: entry.name, start: entry.startTime })),
      hydrated: "__reactRouterRouteModules" in window,
    }));
    expect(timing.paint).not.toBeNull();
    expect(timing.scripts.length).toBeGreaterThanOrEqual(4);
    for (const script of timing.scripts) {
      expect(script.start, `${script.name} started after the paint`).toBeGreaterThanOrEqual(
        timing.paint ?? Number.POSITIVE_INFINITY,
      );
    }
    expect(timing.hydrated).toBe(true);
    // Hydrated: a link of the header is followed on the client (no new document).
    await page.evaluate(() => {
      (window as Window & { sameDocument?: true }).sameDocument = true;
    });
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Discover" })
      .click();
    await expect(page).toHaveURL(/\/artist-discovery$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Discover Talented Artists");
    expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);
    expect(errors).toEqual([]);
  });
}

/**
 * The framework's two files start with V8's compile hint, so Chromium compiles them off the main
 * thread while they download (decision 027); our own files go without (they run only in part).
 */
test("the framework's files, and only they, carry the compile hint", async ({ page }) => {
  const responses: Promise<{ url: string; body: string }>[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script")
      responses.push(response.text().then((body) => ({ url: response.url(), body })));
  });
  await page.goto("/artist/maya-lindqvist");
  await whenHydrated(page);
  await page.waitForLoadState("networkidle");
  const scripts = await Promise.all(responses);
  expect(scripts).toHaveLength(4);
  const bySize = scripts.toSorted((a, b) => b.body.length - a.body.length);
  const hinted = bySize.map((script) => script.body.startsWith(COMPILE_HINT));
  expect(hinted, bySize.map((script) => script.url).join("\n")).toEqual([true, true, false, false]);
});
