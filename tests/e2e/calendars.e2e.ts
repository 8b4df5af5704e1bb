import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { addDays, formatLongDate, monthOf, todayIn } from "~/lib/dates";
import { createArtistProfile } from "./support/artist-helpers";
import { expect, newAccount, signUpConfirmed, test } from "./support/fixtures";

/**
 * Book by date and calendars (docs/product.md, "Calendars"): the Schedule tab's private feed link
 * and its reset, an external calendar served by this test on 127.0.0.1 whose busy day then
 * keeps the artist out of "Available on" search and refuses a booking request for that day.
 */

// A day far enough ahead to be in the future in every zone, and the day after it.
const busyDay = addDays(todayIn("UTC"), 12);
const freeDay = addDays(busyDay, 1);

let server: Server;
let calendarUrl: string;

test.beforeAll(async () => {
  const ics = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//E2E//EN",
    "BEGIN:VEVENT",
    "UID:e2e-busy",
    "SUMMARY:Cousin's wedding (private)",
    `DTSTART;VALUE=DATE:${busyDay.replaceAll("-", "")}`,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
  server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/calendar" });
    res.end(ics);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  calendarUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/private/basic.ics`;
});
test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test("feed link and reset, an imported busy day, date search and a refused request", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const location = `Calendar City ${stamp}`;
  const name = `Busy Bee ${stamp}`;
  await signUpConfirmed(page, newAccount({ firstName: "Bea" }));
  await createArtistProfile(page, name, { Location: location });

  // ── The feed link: create, copy field, reset (the old address answers 404) ───────────────────
  await page.goto("/artist-dashboard?tab=schedule");
  await page.getByRole("button", { name: "Create link" }).click();
  await expect(page.getByText("Calendar link ready").first()).toBeVisible();
  const feedField = page.getByRole("textbox", { name: "Feed address" });
  const first = await feedField.inputValue();
  expect(first).toMatch(/\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
  await expect(page.getByRole("button", { name: "Copy feed address" })).toBeVisible();
  const feed = await page.request.get(first);
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
  expect(await feed.text()).toContain("BEGIN:VCALENDAR");
  await page.getByRole("button", { name: "Reset link" }).click();
  await expect(feedField).not.toHaveValue(first);
  const second = await feedField.inputValue();
  expect((await page.request.get(first)).status()).toBe(404);
  expect((await page.request.get(second)).status()).toBe(200);

  // ── An external calendar served by this test ─────────────────────────────────────────────────
  await page.getByLabel("Calendar address (iCal)").fill(calendarUrl);
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByText("Calendar added").first()).toBeVisible();
  await expect(page.getByText(/Last synced .* · 1 busy day$/)).toBeVisible();
  await expect(page.getByText("Cousin's wedding")).toHaveCount(0);
  // Read a moment ago: 'Sync now' waits a minute between two reads of a calendar.
  await page.getByRole("button", { name: /Sync now/ }).click();
  await expect(page.getByText("Calendar not updated").first()).toBeVisible();
  await expect(
    page.getByText("This calendar was read less than a minute ago. Please try again soon.").first(),
  ).toBeVisible();

  // ── The busy day on the artist's own calendar: unavailable, with the calendar it comes from ──
  const host = new URL(calendarUrl).host;
  await page.goto(`/artist-dashboard?tab=schedule&month=${monthOf(busyDay)}#schedule`);
  const schedule = page.locator("#schedule");
  const busyButton = schedule.getByRole("button", {
    name: `${formatLongDate(busyDay)}: Unavailable, busy in ${host}`,
  });
  await expect(busyButton).toBeVisible();
  // Marked available, it would look green to clients while requests are refused: it is refused.
  await schedule.getByText("Available", { exact: true }).first().click();
  await busyButton.click();
  await expect(
    page
      .getByText(
        `${formatLongDate(busyDay)} is busy in one of your other calendars, so it can't be marked available.`,
        { exact: false },
      )
      .first(),
  ).toBeVisible();
  await expect(busyButton).toBeVisible();
  await expect(schedule.getByText(`Busy in your other calendar: ${host}.`)).toBeVisible();

  // ── Date search, as a visitor: the busy day leaves the artist out, the next day lists them ───
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/artist-discovery?location=${encodeURIComponent(location)}`);
  await expect(visitor.getByRole("heading", { name })).toBeVisible();
  await visitor.getByLabel("Available on").fill(busyDay);
  await visitor.getByRole("button", { name: "Search" }).click();
  await expect(visitor).toHaveURL(new RegExp(`date=${busyDay}`));
  await expect(visitor.getByRole("heading", { name: "No artists found" })).toBeVisible();
  await visitor.getByLabel("Available on").fill(freeDay);
  await visitor.getByRole("button", { name: "Search" }).click();
  await expect(visitor.getByRole("heading", { name })).toBeVisible();
  await expect(visitor.getByText(`Available on ${formatLongDate(freeDay)}`)).toBeVisible();
  await expect(visitor.getByText(`1 artist free on ${formatLongDate(freeDay)}`)).toBeVisible();
  // On the profile's calendar the busy day is 'Unavailable', and nothing says why.
  const profile = await visitor.getByRole("link", { name: /View Profile/ }).getAttribute("href");
  await visitor.goto(`${profile?.split("?")[0]}?month=${monthOf(busyDay)}#book`);
  await expect(
    visitor.getByRole("button", { name: `${formatLongDate(busyDay)}: Unavailable`, exact: true }),
  ).toBeVisible();
  await expect(visitor.getByText(host)).toHaveCount(0);
  await visitor.close();

  // ── A client asks for the busy day: refused, 'Date Not Available' ───────────────────────────
  const clientPage = await (await browser.newContext()).newPage();
  await signUpConfirmed(clientPage, newAccount({ firstName: "Cleo" }));
  await clientPage.goto(
    `/artist-discovery?location=${encodeURIComponent(location)}&date=${freeDay}`,
  );
  await clientPage.getByRole("link", { name: /View Profile/ }).click();
  await clientPage.getByRole("link", { name: "Book Performance" }).click();
  const dateField = clientPage.getByLabel("Event Date");
  // The booking form starts on the day searched for.
  await expect(dateField).toHaveValue(freeDay);
  await dateField.fill(busyDay);
  await expect(
    clientPage.getByText("This date is unavailable. Please choose an available date.").first(),
  ).toBeVisible();
  await clientPage.getByLabel("Venue").fill("Town Hall");
  await clientPage.getByRole("button", { name: "Send Booking Request" }).click();
  await expect(clientPage.getByText("Date Not Available").first()).toBeVisible();
  await clientPage.close();
});
