import { randomInt } from "node:crypto";
import { addDays, addMonths, formatLongDate, formatMonth, monthOf, todayIn } from "~/lib/dates";
import { createArtistProfile } from "./support/artist-helpers";
import { expect, newAccount, signUpConfirmed, test } from "./support/fixtures";
import { lookAtWidths } from "./support/look-at";

/**
 * A first-time client in a browser without JavaScript: every step is a link, a GET form or a form
 * post answered with a page. The demo seed's Maya Lindqvist (Jazz, New York NY, in New York's
 * time zone) is the artist: what a visitor of a fresh install finds.
 */
const ARTIST = "Maya Lindqvist";
const ZONE = "America/New_York";

test("without JavaScript: sign in, filter, open a profile, turn the calendar, book and write", async ({
  browser,
  page: withScript,
}) => {
  // The account is made over HTTP (sign-up and its confirmation link), then signed out of.
  const account = await signUpConfirmed(withScript, newAccount({ firstName: "Noor" }));
  const context = await browser.newContext({
    javaScriptEnabled: false,
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: {
      "X-Forwarded-For": `198.51.100.${randomInt(1, 255)}, 203.0.113.${randomInt(1, 255)}`,
    },
  });
  const page = await context.newPage();

  await test.step("signs in with the form", async () => {
    await page.goto("/auth");
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).not.toHaveURL(/\/auth/);
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign In" }),
    ).toHaveCount(0);
  });

  await test.step("filters discovery with the GET form", async () => {
    await page.goto("/artist-discovery");
    // The filters sit in a native disclosure: it opens without JavaScript.
    await page.getByText("Filters").click();
    await page.getByLabel("Genre").selectOption({ value: "Jazz" });
    await page.getByLabel("Location").selectOption({ value: "New York NY" });
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/genre=Jazz/);
    await expect(page).toHaveURL(/location=New\+York\+NY/);
    await expect(page.getByRole("heading", { name: ARTIST })).toBeVisible();
    // Another demo artist who plays jazz, but in Los Angeles.
    await expect(page.getByRole("heading", { name: "Nina Okoro" })).toHaveCount(0);
  });

  await test.step("opens the profile", async () => {
    await page
      .getByRole("article", { name: ARTIST })
      .getByRole("link", { name: /View Profile/ })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: ARTIST })).toBeVisible();
    await expect(page.getByText("₹4,500.00 per hour")).toBeVisible();
    // The demo client's review of a gig, with her first name.
    await expect(page.getByRole("region", { name: "Reviews" })).toContainText(
      "Wonderful evening, guests loved it.",
    );
    await expect(page.getByRole("region", { name: "Reviews" })).toContainText("Priya");
  });

  await test.step("turns the calendar to the next month", async () => {
    const current = monthOf(todayIn(ZONE));
    const calendar = page.locator("#book");
    await expect(calendar.getByRole("grid")).toHaveAccessibleName(formatMonth(current));
    await calendar.getByRole("link", { name: "Next month" }).click();
    await expect(page).toHaveURL(new RegExp(`month=${addMonths(current, 1)}`));
    await expect(calendar.getByRole("grid")).toHaveAccessibleName(
      formatMonth(addMonths(current, 1)),
    );
    await calendar.getByRole("tab", { name: "Upcoming Events" }).click();
    await expect(calendar.getByRole("tab", { name: "Upcoming Events" })).toHaveAttribute(
      "aria-selected",
      "true",
    );
  });

  const venue = "The Blue Room, Level 2";
  await test.step("books a date that has passed: the error, and the venue still typed", async () => {
    await page.getByRole("link", { name: "Book Performance" }).click();
    await expect(page.getByRole("heading", { name: `Book ${ARTIST}` })).toBeVisible();
    await page.getByLabel("Event Date").fill(addDays(todayIn(ZONE), -3));
    await page.getByLabel("Venue", { exact: true }).fill(venue);
    await page.getByRole("button", { name: "Send Booking Request" }).click();
    await expect(page.getByText("Please choose today or a later date.").first()).toBeVisible();
    await expect(page.getByLabel("Venue", { exact: true })).toHaveValue(venue);
  });

  await test.step("books a later date and sees the request confirmed", async () => {
    // Beyond the demo's 30 days of availability: a date nobody has marked.
    await page.getByLabel("Event Date").fill(addDays(todayIn(ZONE), 45));
    await page.getByLabel("Venue", { exact: true }).fill(venue);
    await page.getByRole("button", { name: "Send Booking Request" }).click();
    await expect(page).toHaveURL(/\/bookings\/[0-9a-f-]{36}/);
    await expect(page.getByRole("heading", { name: "Booking Details" })).toBeVisible();
    await expect(page.getByText(venue).first()).toBeVisible();
    await expect(page.getByText("Pending").first()).toBeVisible();
    // The words that confirm it, as the toast says them with JavaScript.
    await expect(page.getByText("Booking Request Sent!")).toBeVisible();
  });

  await test.step("sends a message", async () => {
    const text = `Could you play "Autumn Leaves"? (${randomInt(1000, 9999)})`;
    await page.getByLabel("Message", { exact: true }).fill(text);
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(
      page.getByRole("region", { name: "Messages" }).getByText(text, { exact: true }),
    ).toBeVisible();
  });

  await context.close();
});

test("without JavaScript: an artist marks a date, clears it, turns the month and opens the portfolio tabs", async ({
  browser,
  page: withScript,
}) => {
  const account = await signUpConfirmed(withScript, newAccount({ firstName: "Ravi" }));
  await createArtistProfile(withScript, `Ravi Quartet ${Date.now().toString(36)}`);
  const context = await browser.newContext({
    javaScriptEnabled: false,
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: { "X-Forwarded-For": `198.51.100.${randomInt(1, 255)}` },
  });
  const page = await context.newPage();
  await page.goto("/auth");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).not.toHaveURL(/\/auth/);

  // Ten days on is in the future in every zone; the calendar opens on its month.
  const date = addDays(todayIn("UTC"), 10);
  await page.goto(`/artist-dashboard?tab=schedule&month=${monthOf(date)}`);
  const schedule = page.locator("#schedule");
  const picker = schedule.getByRole("group", {
    name: "Pick a status, then click a date to set it.",
  });
  const day = (status: string) =>
    schedule.getByRole("button", { name: `${formatLongDate(date)}: ${status}`, exact: true });

  await test.step("picks Unavailable and clicks the date: saved, back on the same month", async () => {
    await picker.getByText("Unavailable").click();
    await day("No status set").click();
    await expect(page).toHaveURL(new RegExp(`tab=schedule&month=${monthOf(date)}`));
    await expect(page.getByText(`${formatLongDate(date)} marked as unavailable.`)).toBeVisible();
    await expect(day("Unavailable")).toBeVisible();
  });

  await test.step("picks Clear and clicks it again: cleared", async () => {
    await picker.getByText("Clear").click();
    await day("Unavailable").click();
    await expect(page.getByText(`${formatLongDate(date)} cleared.`)).toBeVisible();
    await expect(day("No status set")).toBeVisible();
  });

  await test.step("turns to the next month with the arrow, a link", async () => {
    await schedule.getByRole("link", { name: "Next month" }).click();
    await expect(page).toHaveURL(new RegExp(`month=${addMonths(monthOf(date), 1)}`));
    await expect(schedule.getByRole("grid")).toHaveAccessibleName(
      formatMonth(addMonths(monthOf(date), 1)),
    );
  });

  await test.step("opens the portfolio manager's tabs, links that open the page on that tab", async () => {
    await page.goto("/portfolio-manager");
    const tabs = page.getByRole("tablist", { name: "Portfolio manager" });
    await tabs.getByRole("tab", { name: "Analytics" }).click();
    await expect(page).toHaveURL(/portfolioTab=analytics/);
    await expect(tabs.getByRole("tab", { name: "Analytics" })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    await expect(page.getByRole("region", { name: "Analytics" })).toContainText("Portfolio Views");
    await lookAtWidths(page, "portfolio-manager-analytics-no-js");
    await tabs.getByRole("tab", { name: "Overview" }).click();
    await expect(page).not.toHaveURL(/portfolioTab/);
    await expect(page.getByRole("region", { name: "Featured media" })).toBeVisible();
  });

  await context.close();
});
