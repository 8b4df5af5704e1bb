import { randomInt } from "node:crypto";
import type { Page } from "@playwright/test";
import { createArtistProfile, localDateTimeInput } from "./support/artist-helpers";
import { expect, newAccount, signUpConfirmed, test, whenHydrated } from "./support/fixtures";
import { holdRequests } from "./support/hold-scripts";

/**
 * Each page's document carries only the stylesheet rules its markup uses (decision 023); the
 * whole stylesheet comes as a file once the scripts run. Read without JavaScript, every element
 * of a page must look exactly as it does with the whole stylesheet: the rules left out can
 * match nothing on the page.
 */

/**
 * Every element's computed style, as one list of "element: property=value" lines. Custom
 * properties are left out: the whole stylesheet sets defaults for every one it uses anywhere,
 * and one that nothing on the page reads draws nothing.
 */
function computedStyles(page: Page) {
  return page.evaluate(() => {
    const lines: string[] = [];
    document.querySelectorAll("body *").forEach((element, index) => {
      const style = getComputedStyle(element);
      const values: string[] = [];
      for (let i = 0; i < style.length; i++) {
        const property = style.item(i);
        if (property.startsWith("--")) continue;
        values.push(`${property}=${style.getPropertyValue(property)}`);
      }
      lines.push(`${index} ${element.tagName.toLowerCase()}: ${values.join("; ")}`);
    });
    return lines;
  });
}

/** The lines that differ, shortened to the properties that differ. */
function differences(before: string[], after: string[]) {
  const found: string[] = [];
  before.forEach((line, index) => {
    const other = after[index] ?? "";
    if (line === other) return;
    const head = line.slice(0, line.indexOf(":"));
    const mine = line.slice(line.indexOf(":") + 2).split("; ");
    const theirs = other.slice(other.indexOf(":") + 2).split("; ");
    const changed = [
      ...mine.filter((value) => !theirs.includes(value)).map((value) => `-${value}`),
      ...theirs.filter((value) => !mine.includes(value)).map((value) => `+${value}`),
    ];
    found.push(`${head}: ${changed.join("; ")}`);
  });
  return found;
}

test("a page's own rules draw it exactly as the whole stylesheet does", async ({
  browser,
  page: withScript,
}) => {
  test.setTimeout(120_000);
  // With JavaScript the page asks for the whole stylesheet, as a file, at the first sign of use
  // (decision 028): a page only read never does.
  await withScript.goto("/");
  await whenHydrated(withScript);
  await withScript.waitForLoadState("networkidle");
  const stylesheet = withScript.locator('link[rel="stylesheet"]');
  await expect(stylesheet).toHaveCount(0);
  await withScript.mouse.move(200, 300);
  await expect(stylesheet).toHaveCount(1);
  const stylesheetUrl = (await stylesheet.getAttribute("href")) as string;
  expect(stylesheetUrl).toMatch(/^\/assets\/app-[\w-]+\.css$/);
  const whole = await (await withScript.request.get(stylesheetUrl)).text();
  await expect
    .poll(() => withScript.evaluate(() => document.styleSheets.length))
    .toBeGreaterThanOrEqual(2);

  // The pages a visitor opens first, found the way a visitor finds them.
  const profile = (await withScript
    .locator('main a[href^="/artist/"]')
    .first()
    .getAttribute("href")) as string;
  await withScript.goto(profile);
  const portfolio = await withScript.locator('a[href^="/portfolio/"]').first().getAttribute("href");
  const paths = ["/", "/artist-discovery", profile, "/verification", "/auth", "/no-such-page"];
  if (portfolio) paths.push(portfolio);

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 375, height: 812 },
  ]) {
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport,
      baseURL: test.info().project.use.baseURL,
      extraHTTPHeaders: { "X-Forwarded-For": `198.51.100.${randomInt(1, 255)}` },
    });
    const page = await context.newPage();
    for (const path of paths) {
      await test.step(`${path} at ${viewport.width} px`, async () => {
        await page.goto(path);
        const own = await page.evaluate(() => document.querySelector("head style")?.textContent);
        expect(own?.length, "the page's own rules are written into it").toBeGreaterThan(1000);
        expect(own?.length, "only a part of the whole stylesheet").toBeLessThan(whole.length * 0.7);
        await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0);

        const before = await computedStyles(page);
        // Added as the page's script would (its events do not fire here: the page runs none).
        await page.evaluate((href) => {
          const link = document.createElement("link");
          link.rel = "stylesheet";
          link.href = href;
          document.head.append(link);
        }, stylesheetUrl);
        await expect
          .poll(() =>
            page.evaluate(
              () =>
                document.querySelector("link[rel=stylesheet]") !== null &&
                document.styleSheets.length === 2,
            ),
          )
          .toBe(true);
        const after = await computedStyles(page);
        expect(after.length).toBe(before.length);
        expect(differences(before, after)).toEqual([]);
      });
    }
    await context.close();
  }
});

test("a page reached on the client is drawn once the whole stylesheet is there", async ({
  page,
}) => {
  const release = await holdRequests(page, "**/assets/*.css");
  await page.goto("/");
  await whenHydrated(page);
  const heading = page.getByRole("heading", { level: 1 });
  const data = page.waitForResponse((response) =>
    response.url().includes("/artist-discovery.data"),
  );
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Discover" })
    .click();
  await data;
  // Its data is there, but it may use rules this page's own do not hold.
  await page.waitForTimeout(500);
  await expect(heading).not.toHaveText("Discover Talented Artists");
  release();
  await expect(heading).toHaveText("Discover Talented Artists");
  expect(await page.evaluate(() => document.styleSheets.length)).toBe(2);
});

test("the media upload form, drawn only in the browser, is styled when its tab is the page first opened", async ({
  page,
}) => {
  await signUpConfirmed(page, newAccount({ firstName: "Styled" }));
  await createArtistProfile(page, `Styled Upload ${Date.now().toString(36)}`);
  const origin = new URL(page.url()).origin;
  const created = await page.request.post("/sessions/new", {
    form: {
      intent: "create",
      returnTo: "/artist-dashboard?tab=sessions",
      sessionType: "practice",
      title: "Upload form look",
      startTime: localDateTimeInput(-24),
      durationMinutes: "60",
    },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(created.status(), "session created").toBeLessThan(400);
  await page.goto("/artist-dashboard?tab=sessions");
  const sessionPath = (await page
    .getByRole("link", { name: "Upload form look" })
    .first()
    .getAttribute("href")) as string;
  expect(sessionPath).toMatch(/^\/sessions\/[0-9a-f-]{36}$/);

  // A fresh load of the media tab, only read: no pointer, key or focus asks for the stylesheet.
  await page.goto(`${sessionPath}?tab=media`);
  const form = page.getByRole("form", { name: "Upload media" });
  await expect(form).toBeVisible();
  const look = await form.evaluate((element) => {
    const style = getComputedStyle(element);
    const label = getComputedStyle(element.querySelector("label") as Element);
    return {
      border: style.borderTopStyle,
      background: style.backgroundColor,
      padding: style.paddingTop,
      label: label.display,
    };
  });
  expect(look).toEqual({
    border: "dashed",
    background: expect.not.stringMatching(/^rgba\(0, 0, 0, 0\)$/),
    padding: "16px",
    label: "block",
  });
});
