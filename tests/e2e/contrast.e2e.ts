import { randomInt } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { addDays, todayIn } from "~/lib/dates";
import { createArtistProfile } from "./support/artist-helpers";
import { expect, newAccount, signUpConfirmed, test } from "./support/fixtures";

/**
 * Text that shows only at some moments, which a walk over the pages with axe can miss: an error
 * toast, and the other person's name and time above a message. Each must reach 4.5:1 (WCAG AA).
 */

async function contrastProblems(page: Page, selector: string) {
  const { violations, passes } = await new AxeBuilder({ page })
    .include(selector)
    .withRules(["color-contrast"])
    .analyze();
  // axe judged the text (it did not leave it aside as undecidable).
  expect(passes.length + violations.length, `axe judged ${selector}`).toBeGreaterThan(0);
  return violations.flatMap((v) => v.nodes.map((n) => n.failureSummary ?? n.html));
}

/** A browser of its own, from an address of its own (per-IP limits see separate visitors). */
const visitor = (browser: Browser) =>
  browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": `198.51.100.${randomInt(1, 255)}` },
  });

test("an error toast's title and words reach 4.5:1", async ({ page }) => {
  // Creating a profile while signed out says so in an error toast, on the sign-in page.
  await page.goto("/profile-setup");
  await page.getByLabel("Artist Name").fill("Contrast Check");
  await page.getByRole("button", { name: "Create Profile" }).click();
  const toast = page.getByTestId("toast");
  await expect(toast).toContainText("You must be logged in to create an artist profile.");
  expect(await contrastProblems(page, '[data-testid="toast"]')).toEqual([]);
});

test("the other person's name and time above a message reach 4.5:1", async ({ browser }) => {
  const origin = `http://127.0.0.1:${process.env.E2E_PORT}`;
  const artistContext = await visitor(browser);
  const artist = await artistContext.newPage();
  await signUpConfirmed(artist, newAccount({ firstName: "Tone" }));
  await createArtistProfile(artist, `Tone Quartet ${Date.now().toString(36)}`);
  await artist.goto("/artist-dashboard");
  const slugHref = (await artist
    .locator('a[href^="/artist/"]')
    .first()
    .getAttribute("href")) as string;

  const clientContext = await visitor(browser);
  const client = await clientContext.newPage();
  await signUpConfirmed(client, newAccount({ firstName: "Client" }));
  await client.goto(slugHref);
  const bookHref = (await client
    .locator('a[href^="/bookings?artist="]')
    .first()
    .getAttribute("href")) as string;
  await client.goto(bookHref);
  const artistId = await client.locator('input[name="artistId"]').first().inputValue();
  const booked = await clientContext.request.post(bookHref, {
    form: {
      artistId,
      eventDate: addDays(todayIn("Asia/Kolkata"), 20),
      startTime: "19:00",
      durationHours: "2",
      venue: "Garden Hall",
      eventType: "Wedding",
      message: "",
    },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(booked.status(), "booking requested").toBeLessThan(400);
  await client.goto("/client-bookings");
  const bookingHref = (await client
    .locator('a[href^="/bookings/"]')
    .first()
    .getAttribute("href")) as string;
  const sent = await clientContext.request.post(bookingHref, {
    form: { intent: "message", message: "Could you play a first dance?" },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(sent.status(), "message sent").toBeLessThan(400);

  // The artist reads it: the client's name and the time sit on the grey bubble.
  await artist.goto(bookingHref);
  const bubble = artist.locator("ol li").filter({ hasText: "Could you play a first dance?" });
  await expect(bubble).toBeVisible();
  expect(await contrastProblems(artist, "ol li")).toEqual([]);
  await Promise.all([artistContext.close(), clientContext.close()]);
});
