import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

/**
 * Parts of a page drawn on the server (decision 022) arrive once, in the HTML, under a key. The
 * browser keeps them as they arrived: hydrating writes nothing into them, and when hydration
 * fails and React draws the page again, they are still there.
 */

/**
 * Marks every element inside the server-drawn parts before the page's scripts run, with a
 * property of the element object: it is not part of the markup, so an element made again from the
 * markup does not have it.
 */
const MARK_ARRIVED = `
  document.addEventListener("readystatechange", () => {
    if (document.readyState !== "interactive") return;
    for (const element of document.querySelectorAll("[data-markup] *")) element.arrived = true;
  });
`;

/** How many elements matching `selector` are there, and how many of them arrived with the page. */
const arrivedOf = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((elements) => ({
    all: elements.length,
    arrived: elements.filter((element) => (element as Element & { arrived?: true }).arrived).length,
  }));

test("hydrating keeps the server-drawn parts' own elements", async ({ page }) => {
  await page.addInitScript(MARK_ARRIVED);
  await page.goto("/artist-discovery");
  await page.waitForLoadState("networkidle");
  // The page re-renders once after hydrating (the routes of its links arrive); still no writes.
  const results = await arrivedOf(page, 'main a[href^="/artist/"]');
  expect(results.all).toBeGreaterThan(0);
  expect(results).toEqual({ all: results.all, arrived: results.all });
  const header = await arrivedOf(page, "header a");
  expect(header.all).toBeGreaterThan(0);
  expect(header).toEqual({ all: header.all, arrived: header.all });
});

test("a hydration that fails still shows the server-drawn parts", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  // The heading is React's own; a different text in the HTML makes hydration fail, and React
  // draws the whole page again in the browser.
  await page.route("**/artist-discovery", async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(
      ">Discover Talented Artists<",
      ">Discover Talented Artists (as sent)<",
    );
    await route.fulfill({ response, body: html });
  });
  await page.addInitScript(MARK_ARRIVED);
  await page.goto("/artist-discovery");
  await page.waitForLoadState("networkidle");

  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Discover Talented Artists");
  expect(errors.join("\n")).toMatch(/418|hydrat/i);
  // Drawn again: new elements, with the content that arrived.
  const results = await arrivedOf(page, 'main a[href^="/artist/"]');
  expect(results.all).toBeGreaterThan(0);
  expect(results).toEqual({ all: results.all, arrived: 0 });
  const main = page.getByRole("navigation", { name: "Main" });
  await expect(main.getByRole("link", { name: "Discover" })).toBeVisible();
  await expect(page.getByRole("contentinfo")).toContainText("GigLedger");
});
