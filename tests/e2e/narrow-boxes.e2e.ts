import { randomInt } from "node:crypto";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import sharp from "sharp";
import { addDays, todayIn } from "~/lib/dates";
import { createArtistProfile, localDateTimeInput } from "./support/artist-helpers";
import { expect, newAccount, signUpConfirmed, test } from "./support/fixtures";

/**
 * At 375 px nothing is cut off without a hint: a session's tabs reflow, two by two, and the
 * reliability receipts' table scrolls inside its own box, with a shadow at the edge where more
 * lies and a line that says so. The page itself never scrolls sideways.
 */

const PHONE = { width: 375, height: 812 };

const phone = (browser: Browser) =>
  browser.newContext({
    viewport: PHONE,
    extraHTTPHeaders: { "X-Forwarded-For": `198.51.100.${randomInt(1, 255)}` },
  });

async function post(context: BrowserContext, path: string, form: Record<string, string>) {
  const origin = `http://127.0.0.1:${process.env.E2E_PORT}`;
  const res = await context.request.post(path, {
    form,
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(res.status(), `POST ${path}`).toBeLessThan(400);
}

async function hrefOf(page: Page, selector: string) {
  return (await page.locator(selector).first().getAttribute("href")) as string;
}

const pageScrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

test("at 375 px a session's tabs and the reliability receipts are all reachable, with a hint", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const artistContext = await phone(browser);
  const artist = await artistContext.newPage();
  await signUpConfirmed(artist, newAccount({ firstName: "Narrow" }));
  await createArtistProfile(artist, `Narrow Band ${Date.now().toString(36)}`);
  await post(artistContext, "/sessions/new", {
    intent: "create",
    returnTo: "/artist-dashboard?tab=sessions",
    sessionType: "performance",
    title: "Narrow screen set",
    startTime: localDateTimeInput(-24),
    durationMinutes: "90",
  });

  // A session's four tabs: every one inside the screen, none behind an edge.
  await artist.goto("/artist-dashboard?tab=sessions");
  await artist.goto(await hrefOf(artist, 'a[href^="/sessions/"]:not([href^="/sessions/new"])'));
  const tabs = artist.getByRole("navigation", { name: "Session sections" }).getByRole("link");
  await expect(tabs).toHaveText(["Details", "Media", "Collaborators", "Verification"]);
  for (const tab of await tabs.all()) {
    const box = await tab.boundingBox();
    expect(box, "a tab has a box").not.toBeNull();
    expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
  }
  expect(await pageScrollsSideways(artist)).toBe(false);

  // A client's request the artist answered: it counts, so the receipts list it.
  const slug = await hrefOf(artist, 'a[href^="/artist/"]');
  const clientContext = await phone(browser);
  const client = await clientContext.newPage();
  await signUpConfirmed(client, newAccount({ firstName: "Asker" }));
  await client.goto(slug);
  const bookHref = await hrefOf(client, 'a[href^="/bookings?artist="]');
  await client.goto(bookHref);
  const artistId = await client.locator('input[name="artistId"]').first().inputValue();
  await post(clientContext, bookHref, {
    artistId,
    eventDate: addDays(todayIn("Asia/Kolkata"), 15),
    startTime: "20:00",
    durationHours: "2",
    venue: "Riverside Hall",
    eventType: "Corporate Event",
    message: "",
  });
  await client.goto("/client-bookings");
  const booking = await hrefOf(client, 'a[href^="/bookings/"]');
  await post(artistContext, booking, { intent: "message", message: "Happy to play, let's talk." });

  await artist.goto("/artist-dashboard");
  const receipts = artist.getByRole("region", { name: "Counted requests" });
  await expect(receipts.getByRole("table")).toBeVisible();
  // The table is wider than the screen: it scrolls inside its box, never the page.
  const sizes = await receipts.evaluate((box) => ({
    scrollWidth: box.scrollWidth,
    clientWidth: box.clientWidth,
    right: box.getBoundingClientRect().right,
  }));
  expect(sizes.scrollWidth).toBeGreaterThan(sizes.clientWidth);
  expect(sizes.right).toBeLessThanOrEqual(PHONE.width);
  expect(await pageScrollsSideways(artist)).toBe(false);
  // The hint: in words, and as a shadow at the right edge, which goes once the box is scrolled
  // to its end.
  await expect(artist.getByText("Scroll sideways to see every column.")).toBeVisible();
  /** The lightest pixel of the box's last column but one, over the middle third of its height. */
  const edge = async () => {
    const { data, info } = await sharp(await receipts.screenshot())
      .raw()
      .toBuffer({ resolveWithObject: true });
    const x = info.width - 2;
    let lightest = 0;
    for (let y = Math.floor(info.height / 3); y < (2 * info.height) / 3; y++) {
      const i = (info.width * y + x) * info.channels;
      lightest = Math.max(lightest, (data[i] ?? 0) + (data[i + 1] ?? 0) + (data[i + 2] ?? 0));
    }
    return lightest;
  };
  expect(await edge(), "a shadow at the right edge: no white there").toBeLessThan(750);
  await receipts.evaluate((box) => {
    box.scrollLeft = box.scrollWidth;
  });
  expect(await edge(), "no shadow once the end is reached").toBe(765);

  await Promise.all([artistContext.close(), clientContext.close()]);
});
