import type { Locator, Page } from "@playwright/test";
import { createArtistProfile, localDateTimeInput } from "./support/artist-helpers";
import { expect, newAccount, signUpConfirmed, test, whenHydrated } from "./support/fixtures";
import { holdRequests } from "./support/hold-scripts";

/**
 * The searches that follow the typing (discovery's, the sessions') wait a moment after the last
 * key. A person who does not wait (Enter, or a click on a result) has moved on: the waiting search
 * must not fire afterwards and take them back from the page they opened to the results.
 *
 * The page's clock stands still from the typing until the person has acted (`holdTheClock`):
 * however slow the machine, the search still waits when they act, so every search seen since the
 * typing came from what they did or fired late. Then the clock runs past the wait.
 */

/**
 * The searches the page makes on `pathname`, as they start: React Router's `.data` fetch of the
 * page's own route (the root's data comes in a fetch of its own, not counted).
 */
function searchesOn(page: Page, pathname: string) {
  const seen: { at: number; query: string }[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname !== `${pathname}.data` || url.searchParams.get("_routes") === "root") return;
    seen.push({ at: Date.now(), query: url.searchParams.toString() });
  });
  return { all: seen, since: (at: number) => seen.filter((s) => s.at >= at) };
}

/**
 * Pages under `prefix` answer 700 ms late, as on a phone's network: long enough for a search
 * waiting 300 ms to fire while the page the person opened is still on its way.
 */
async function slowPages(page: Page, prefix: string) {
  await page.route(
    (url) => url.pathname.startsWith(prefix) && url.pathname.endsWith(".data"),
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 700));
      await route.continue();
    },
  );
}

/**
 * Stops the page's clock (installed with `page.clock.install()` before the page was opened): a
 * search waits, however long the test takes, until the clock runs again.
 */
async function holdTheClock(page: Page) {
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
}

/**
 * Clicks `link` as a person does, with the wait running out between the press and the release
 * (their press takes a moment; a busy page's timer fires late), then lets the clock run again.
 */
async function clickWhileTheSearchWaits(page: Page, link: Locator) {
  await link.hover();
  await page.mouse.down();
  await page.clock.runFor(1_000);
  await page.mouse.up();
  await page.clock.resume();
}

/** Presses Enter in `box` while the search waits, then lets the clock run past the wait. */
async function enterWhileTheSearchWaits(page: Page, box: Locator) {
  await box.press("Enter");
  await page.clock.runFor(1_000);
  await page.clock.resume();
}

/** Waits a second, as the person reads the page they opened, and says where the page is then. */
async function pathAfterASecond(page: Page) {
  await page.waitForTimeout(1_000);
  return new URL(page.url()).pathname;
}

async function openDiscovery(page: Page) {
  await page.goto("/artist-discovery");
  await whenHydrated(page);
  await page.waitForLoadState("networkidle");
  const first = page.locator('main a[href^="/artist/"]').first();
  const href = (await first.getAttribute("href")) as string;
  const name = (await page.locator("main article h2").first().textContent())?.trim() ?? "";
  expect(href, "discovery lists a demo artist").toMatch(/^\/artist\//);
  return { href, name };
}

test("discovery: a result clicked while the search waits keeps the artist open", async ({
  page,
}) => {
  await page.clock.install();
  const { href } = await openDiscovery(page);
  const searches = searchesOn(page, "/artist-discovery");
  await slowPages(page, "/artist/");

  await holdTheClock(page);
  await page.getByLabel("Search artists").fill("jazz");
  await clickWhileTheSearchWaits(page, page.locator(`main a[href="${href}"]`).first());

  await expect(page).toHaveURL(new RegExp(`${href}$`));
  expect(await pathAfterASecond(page)).toBe(href);
  // None could fire before the press (the clock stood still): any seen fired after it.
  expect(searches.all, "no search fired after the person left").toEqual([]);
});

test("discovery: Enter searches once, and a result clicked then keeps the artist open", async ({
  page,
}) => {
  await page.clock.install();
  const { href, name } = await openDiscovery(page);
  const searches = searchesOn(page, "/artist-discovery");
  await slowPages(page, "/artist/");

  // Enter alone: one search, not a second one when the wait runs out.
  const box = page.getByLabel("Search artists");
  await holdTheClock(page);
  const typed = Date.now();
  await box.fill(name.slice(0, 6));
  await enterWhileTheSearchWaits(page, box);
  await expect(page).toHaveURL(/[?&]q=/);
  await page.waitForTimeout(1_000);
  expect(searches.since(typed), "one search for one Enter").toHaveLength(1);

  // Enter, then at once a result, the Enter's search still on its way (answered only once the
  // person has left): the artist stays open.
  const answerSearches = await holdRequests(page, "**/artist-discovery.data?*");
  await holdTheClock(page);
  const typedAgain = Date.now();
  await box.fill(name.slice(0, 5));
  await box.press("Enter");
  await clickWhileTheSearchWaits(page, page.locator(`main a[href="${href}"]`).first());
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  answerSearches();
  expect(await pathAfterASecond(page)).toBe(href);
  // The Enter's own search, and none after the person left.
  expect(searches.since(typedAgain), "no search fired after the person left").toHaveLength(1);
});

test("sessions: a session opened while its search waits stays open", async ({ page }) => {
  await signUpConfirmed(page, newAccount({ firstName: "Debounce" }));
  await createArtistProfile(page, `Debounce Trio ${Date.now().toString(36)}`);
  const title = "Search-and-go rehearsal at the Blue Room";
  await page.goto("/sessions/new?returnTo=%2Fartist-dashboard%3Ftab%3Dsessions");
  await page.getByLabel("Session Type").selectOption("practice");
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Venue").fill("Blue Room");
  await page.getByLabel("Date and Time").fill(localDateTimeInput(-48));
  await page.getByRole("button", { name: "Create Session" }).click();
  await expect(page.getByText("Session Created")).toBeVisible();

  await page.clock.install();
  await page.goto("/artist-dashboard?tab=sessions");
  await whenHydrated(page);
  await page.waitForLoadState("networkidle");
  const link = page.getByRole("article", { name: title }).getByRole("link", { name: title });
  const href = (await link.getAttribute("href")) as string;
  const searches = searchesOn(page, "/artist-dashboard");
  await slowPages(page, "/sessions/");

  await holdTheClock(page);
  await page.getByPlaceholder("Search sessions...").fill("rehearsal");
  await clickWhileTheSearchWaits(page, link);
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  expect(await pathAfterASecond(page)).toBe(href);
  expect(searches.all, "no search fired after the person left").toEqual([]);

  // Enter searches once.
  await page.goto("/artist-dashboard?tab=sessions");
  await whenHydrated(page);
  await page.waitForLoadState("networkidle");
  const box = page.getByPlaceholder("Search sessions...");
  await holdTheClock(page);
  const typed = Date.now();
  await box.fill("blue room");
  await enterWhileTheSearchWaits(page, box);
  await expect(page).toHaveURL(/sq=blue/);
  await page.waitForTimeout(1_000);
  expect(searches.since(typed), "one search for one Enter").toHaveLength(1);
});
