import type { Page } from "@playwright/test";
import { addDays, formatLongDate, todayIn } from "~/lib/dates";
import {
  expect,
  mailLink,
  newAccount,
  signUpConfirmed,
  submitSignUpForm,
  test,
  uniqueEmail,
  whenHydrated,
} from "./support/fixtures";

/**
 * A visitor who is not signed in picks a date on an artist's profile, opens 'Book Performance',
 * chooses the hours and sends: they sign up (or sign in) on the way and come back to the booking
 * form with everything they chose, and the request goes out for that date (docs/product.md,
 * "Bookings"). The artist is in Chicago: the form's start time says it is the artist's time.
 */
const ZONE = "America/Chicago";

/** An artist in Chicago's zone, made through the setup form by a user of its own; their slug. */
async function chicagoArtist(page: Page) {
  await signUpConfirmed(page, newAccount({ firstName: "Lou" }));
  const name = `Lou Hand Off ${Date.now().toString(36)}`;
  await page.goto("/profile-setup");
  await page.getByLabel("Artist Name").fill(name);
  await page.getByLabel("Genre").fill("Blues");
  await page.getByLabel("Location").fill("Chicago IL");
  await page.getByLabel("Time Zone").selectOption(ZONE);
  await page.getByLabel("Bio").fill("Slide guitar, late sets.");
  await page.getByLabel("Experience").fill("9 years");
  await page.getByLabel("Instruments").fill("Guitar");
  await page.getByRole("button", { name: "Create Profile" }).click();
  await expect(page.getByText("Profile Created!")).toBeVisible();
  return { name, slug: name.toLowerCase().replaceAll(" ", "-") };
}

/** Clicks `date` in the profile's calendar (a month on when it is not shown yet). */
async function pickDay(page: Page, date: string) {
  const day = page.getByRole("button", { name: new RegExp(`^${formatLongDate(date)}: `) });
  if (!(await day.isVisible())) {
    await page.getByRole("link", { name: "Next month" }).click();
    await whenHydrated(page);
  }
  await day.click();
  await expect(
    page.getByRole("region", { name: "Availability" }).getByText(formatLongDate(date)).first(),
  ).toBeVisible();
}

test("a date picked on a profile survives sign-up: back on the form with the date and hours", async ({
  browser,
  page: artistPage,
}) => {
  test.setTimeout(120_000);
  const artist = await chicagoArtist(artistPage);
  const date = addDays(todayIn(ZONE), 6);

  const visitor = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": "198.51.100.77, 203.0.113.77" },
  });
  const page = await visitor.newPage();
  await page.goto(`/artist/${artist.slug}`);
  await whenHydrated(page);
  await pickDay(page, date);

  await page.getByRole("link", { name: "Book Performance" }).click();
  const dialog = page.getByRole("dialog", { name: `Book ${artist.name}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Event Date")).toHaveValue(date);
  await expect(dialog.getByText("Next you sign in, or create an account")).toBeVisible();
  // Whose time the start time is: the artist's, in Chicago.
  const startTime = dialog.getByLabel(/^Start Time \(optional, artist's time, C[SD]T\)$/);
  await startTime.fill("20:30");
  await dialog.getByLabel("Duration (hours)").fill("3.5");
  await dialog.getByLabel("Venue").fill("The Green Mill");
  await dialog.getByLabel("Event Type").selectOption("Private Event");
  await dialog.getByRole("button", { name: "Send Booking Request" }).click();

  // Sign-up on the way: the confirmation link leads back to the form.
  await expect(page).toHaveURL(/\/auth\?/);
  await expect(page.getByText("Please sign in to book an artist.")).toBeVisible();
  await page.getByRole("link", { name: "Sign Up" }).click();
  const account = newAccount({ firstName: "Ines", email: uniqueEmail("ines") });
  await submitSignUpForm(page, account);
  await page.goto(await mailLink(page, account.email, /Confirm your GigLedger account/));

  await expect(page).toHaveURL(/\/bookings\?/);
  await expect(page.getByRole("heading", { name: `Book ${artist.name}` })).toBeVisible();
  await expect(page.getByLabel("Event Date")).toHaveValue(date);
  await expect(page.getByLabel("Duration (hours)")).toHaveValue("3.5");
  await expect(page.getByLabel(/^Start Time/)).toHaveValue("20:30");
  await expect(page.getByLabel("Venue")).toHaveValue("The Green Mill");
  await expect(page.getByLabel("Event Type")).toHaveValue("Private Event");
  await expect(page.getByText("Next you sign in")).toHaveCount(0);
  await whenHydrated(page);
  await page.getByRole("button", { name: "Send Booking Request" }).click();

  await expect(page.getByRole("heading", { name: "Booking Details" })).toBeVisible();
  await expect(page.getByText(`${formatLongDate(date)} at 8:30 PM C`)).toBeVisible();
  await expect(page.getByText("3.5 hours", { exact: true })).toBeVisible();

  // A message written here carries the artist's zone, also once the page's scripts run.
  await whenHydrated(page);
  await page.getByLabel("Message", { exact: true }).fill("Is there a piano on stage?");
  await page.getByLabel("Message", { exact: true }).press("Enter");
  const messages = page.getByRole("region", { name: "Messages" });
  const sent = messages.getByRole("listitem").filter({ hasText: "Is there a piano on stage?" });
  await expect(sent).toBeVisible();
  await expect(sent.locator("time")).toHaveText(
    /^[A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} [AP]M C[SD]T$/,
  );
  await visitor.close();
});

test("a date searched for survives sign-in: the form opens on it again", async ({
  browser,
  page: artistPage,
}) => {
  test.setTimeout(120_000);
  const artist = await chicagoArtist(artistPage);
  const date = addDays(todayIn(ZONE), 9);
  const visitor = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": "198.51.100.78, 203.0.113.78" },
  });
  const page = await visitor.newPage();
  // An account that exists, signed out.
  const account = await signUpConfirmed(page, newAccount({ firstName: "Jude" }));
  await visitor.clearCookies();

  // As discovery's 'View Profile & Book' opens it: with the date searched for.
  await page.goto(`/artist/${artist.slug}?date=${date}`);
  await whenHydrated(page);
  await page.getByRole("link", { name: "Book Performance" }).click();
  const dialog = page.getByRole("dialog", { name: `Book ${artist.name}` });
  await expect(dialog.getByLabel("Event Date")).toHaveValue(date);
  await dialog.getByLabel("Duration (hours)").fill("1.5");
  await dialog.getByLabel("Venue").fill("Kingston Mines");
  await dialog.getByRole("button", { name: "Send Booking Request" }).click();

  await expect(page).toHaveURL(/\/auth\?/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/bookings\?/);
  await expect(page.getByLabel("Event Date")).toHaveValue(date);
  await expect(page.getByLabel("Duration (hours)")).toHaveValue("1.5");
  await expect(page.getByLabel("Venue")).toHaveValue("Kingston Mines");
  await visitor.close();
});
