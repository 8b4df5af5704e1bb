import { expect, test } from "./support/fixtures";

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
