import { expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { addDays, formatLongDate, todayIn } from "~/lib/dates";
import { spawnServer, waitUntilReady } from "../support/spawn-server";
import { newAccount, signUpConfirmed, visitorPage, whenHydrated } from "./support/fixtures";
import { holdScripts } from "./support/hold-scripts";
import { freshPostgresDatabase } from "./support/postgres-database";

/**
 * The whole booking story on two server instances sharing one PostgreSQL database: the artist
 * uses one, the client the other, so live messages must cross instances (LISTEN/NOTIFY). Part of
 * the suite whenever TEST_DATABASE_URL names a server (.ci/run sets it), like the other
 * PostgreSQL tests.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
test.describe.configure({ timeout: 240_000 });

/**
 * On the dashboard's schedule, the artist clicks `date` (a month on if it is not shown yet) with
 * the status picked beforehand, and the day then says `status`.
 */
async function setDay(page: Page, date: string, status: string) {
  const day = page.getByRole("button", { name: `${formatLongDate(date)}: No status set` });
  if (!(await day.isVisible())) await page.getByRole("link", { name: "Next month" }).click();
  await day.click();
  await expect(
    page.getByRole("button", { name: `${formatLongDate(date)}: ${status}` }),
  ).toBeVisible();
}

if (serverUrl) {
  test("book an artist: availability, request, live messages, accept, completion, rating", async ({
    browser,
  }) => {
    const database = await freshPostgresDatabase(serverUrl, "bookings");
    const shared = {
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      TRUST_PROXY: "true",
      BETTER_AUTH_SECRET: "e2e-secret-".padEnd(40, "k"),
    };
    const one = await spawnServer(shared);
    const two = await spawnServer(shared);
    try {
      await waitUntilReady(one);
      await waitUntilReady(two);
      // Links in mails use APP_URL; each instance is its own public address here.
      const artist = await visitorPage(browser, one, "198.51.100.10");
      const client = await visitorPage(browser, two, "198.51.100.20");

      // ── The artist: account, profile, two available dates ──────────────────────────────────
      await signUpConfirmed(artist, newAccount({ firstName: "Noor", lastName: "Khan" }));
      const name = `Noor Khan Trio ${Date.now().toString(36)}`;
      const slug = name.toLowerCase().replaceAll(" ", "-");
      await artist.goto("/profile-setup");
      await artist.getByLabel("Artist Name").fill(name);
      await artist.getByLabel("Genre").fill("Jazz");
      await artist.getByLabel("Location").fill("New Delhi");
      await artist.getByLabel("Bio").fill("Jazz trio.");
      await artist.getByLabel("Experience").fill("5 years");
      await artist.getByLabel("Hourly Rate (₹)").fill("2500");
      await artist.getByLabel("Instruments").fill("Piano, Bass, Drums");
      await artist.getByRole("button", { name: "Create Profile" }).click();
      await expect(artist.getByText("Profile Created!")).toBeVisible();

      const today = todayIn("Asia/Kolkata");
      const gigDate = addDays(today, 3);
      const spareDate = addDays(today, 4);
      await artist.goto("/artist-dashboard?tab=schedule");
      for (const date of [gigDate, spareDate]) await setDay(artist, date, "Available");
      await expect(artist.getByText("Availability Updated").first()).toBeVisible();

      // A status picked before the page's scripts run (decision 024) is the one a click sets.
      const offDate = addDays(today, 5);
      const runScripts = await holdScripts(artist);
      await artist.goto("/artist-dashboard?tab=schedule", { waitUntil: "domcontentloaded" });
      await artist
        .getByRole("group", { name: "Pick a status, then click a date to set it." })
        .getByText("Unavailable")
        .click();
      await runScripts();
      await setDay(artist, offDate, "Unavailable");

      // ── The client: request the first quick-pick date ─────────────────────────────────────
      await signUpConfirmed(client, newAccount({ firstName: "Priya", lastName: "Nair" }));
      // The booking page (where 'Book Performance' leads before the profile's scripts run): hours
      // typed before its own scripts run count, and the estimate follows them.
      const runBookingScripts = await holdScripts(client);
      await client.goto(`/bookings?artist=${slug}`, { waitUntil: "domcontentloaded" });
      await expect(client.locator("[data-form-error]")).toHaveCount(0);
      await client.getByLabel("Duration (hours)").fill("3");
      await runBookingScripts();
      await expect(client.getByText("Estimated cost: ₹7,500.00")).toBeVisible();

      await client.goto(`/artist/${slug}`);
      await whenHydrated(client); // before it, the link leads to the booking page instead
      await client.getByRole("link", { name: "Book Performance" }).click();
      const dialog = client.getByRole("dialog", { name: `Book ${name}` });
      await expect(dialog).toBeVisible();
      const picks = dialog.getByRole("group", { name: "Available dates" }).getByRole("button");
      await expect(picks).toHaveCount(2);
      await picks.first().click();
      await expect(dialog.getByLabel("Event Date")).toHaveValue(gigDate);
      await dialog.getByLabel("Duration (hours)").fill("2");
      await expect(dialog.getByText("Estimated cost: ₹5,000.00")).toBeVisible();
      await dialog.getByLabel("Venue").fill("The Piano Bar");
      await dialog.getByLabel("Event Type").selectOption("Wedding");
      await dialog
        .getByLabel("Additional Details (optional)")
        .fill("Evening reception, 80 guests.");
      await dialog.getByRole("button", { name: "Send Booking Request" }).click();
      await expect(client.getByText("Booking Request Sent!")).toBeVisible();
      await expect(dialog).toBeHidden();

      // ── The artist sees the pending request and they talk, live, across the two instances ──
      await artist.goto("/artist-dashboard");
      await expect(artist.getByText("1 pending booking request").first()).toBeVisible();
      await artist.getByRole("link", { name: /Bookings\s*1 pending/ }).click();
      await artist.getByRole("link", { name: "View Details" }).click();
      await expect(artist.getByRole("heading", { name: "Booking Details" })).toBeVisible();
      // The details' total (the terms below repeat it, line by line).
      await expect(artist.getByRole("definition").filter({ hasText: "₹5,000.00" })).toBeVisible();
      await expect(artist.getByText("No messages yet. Start the conversation!")).toBeVisible();

      await client.goto("/client-bookings");
      await expect(
        client.getByRole("heading", { name: "Your Bookings", exact: true }),
      ).toBeVisible();
      await client.getByRole("link", { name: "Details & messages" }).click();
      await expect(client.getByRole("heading", { name: "Booking Details" })).toBeVisible();
      await client.waitForTimeout(500); // the event stream connects

      await artist
        .getByRole("textbox", { name: "Message", exact: true })
        .fill("Happy to play! Any song requests?");
      await artist.getByRole("textbox", { name: "Message", exact: true }).press("Enter");
      await expect(artist.getByText("Message Sent")).toBeVisible();
      await expect(client.getByText("Happy to play! Any song requests?")).toBeVisible({
        timeout: 3000,
      });
      await client.getByRole("textbox", { name: "Message", exact: true }).fill("   ");
      await client.getByRole("textbox", { name: "Message", exact: true }).press("Enter");
      // A message typed before the page's scripts run (decision 024) is kept, and sent.
      const runClientScripts = await holdScripts(client);
      await client.reload({ waitUntil: "domcontentloaded" });
      await client
        .getByRole("textbox", { name: "Message", exact: true })
        .fill("Yes: At Last, please.");
      await runClientScripts();
      await client.getByRole("textbox", { name: "Message", exact: true }).press("Enter");
      await expect(artist.getByText("Yes: At Last, please.")).toBeVisible({ timeout: 3000 });
      await expect(client.getByRole("list").getByText("You ·").first()).toBeVisible();

      // ── Accept: the date is booked on the public calendar and can't be booked again ───────
      await artist.getByRole("button", { name: "Accept Booking" }).click();
      await expect(artist.getByText("Booking Confirmed")).toBeVisible();
      await expect(artist.getByRole("button", { name: "Accept Booking" })).toHaveCount(0);
      await client.goto(`/artist/${slug}`);
      const bookedDay = client.getByRole("button", { name: `${formatLongDate(gigDate)}: Booked` });
      if (!(await bookedDay.isVisible()))
        await client.getByRole("link", { name: "Next month" }).click();
      await expect(bookedDay).toBeVisible();
      await whenHydrated(client);
      await client.getByRole("link", { name: "Book Performance" }).click();
      await expect(
        dialog.getByRole("group", { name: "Available dates" }).getByRole("button"),
      ).toHaveCount(1);
      await dialog.getByLabel("Event Date").fill(gigDate);
      await dialog.getByLabel("Venue").fill("Somewhere else");
      await dialog.getByRole("button", { name: "Send Booking Request" }).click();
      await expect(client.getByText("Date Not Available").first()).toBeVisible();
      await expect(
        dialog.getByText("This date is booked. Please choose an available date.").first(),
      ).toBeVisible();

      // ── The event happens (date moved into the past), the client rates it ─────────────────
      const db = new pg.Client({ connectionString: database.url });
      await db.connect();
      await db.query(
        "UPDATE bookings SET event_date = event_date - 30 WHERE venue = 'The Piano Bar'",
      );
      await db.end();
      await client.goto("/client-bookings");
      const rateCard = client.getByRole("region", { name: "Rate Your Recent Experiences" });
      await expect(rateCard).toBeVisible();
      await rateCard.getByRole("button", { name: "Submit Rating" }).click();
      await expect(client.getByText("Please select a rating").first()).toBeVisible();
      await rateCard.locator("label").filter({ hasText: "5 stars" }).click();
      await rateCard.getByLabel("Review (optional)").fill("Wonderful evening.");
      // The venue stays off the public history unless the client ticks this.
      const showVenue = rateCard.getByLabel(`Show the venue on ${name}'s public history`);
      await expect(showVenue).not.toBeChecked();
      await showVenue.check();
      await rateCard.getByRole("button", { name: "Submit Rating" }).click();
      await expect(client.getByText("Rating Submitted")).toBeVisible();
      await expect(client.getByText("Rated", { exact: true })).toBeVisible();
      await expect(rateCard).toHaveCount(0);

      await client.goto(`/artist/${slug}`);
      const figures = client.getByRole("region", { name: "Figures" });
      await expect(figures.getByText("5.0")).toBeVisible();
      await expect(figures.getByText("1 review")).toBeVisible();
      await expect(figures.getByText("of 1 logged")).toBeVisible();
      const recent = client.getByRole("region", { name: "Recent Performances" });
      await expect(recent.getByText("The Piano Bar")).toBeVisible();
      await expect(recent.getByText("Client-verified")).toBeVisible();
      await artist.context().close();
      await client.context().close();
    } finally {
      one.process.kill("SIGTERM");
      two.process.kill("SIGTERM");
      await Promise.all([one.exited, two.exited]);
      await database.drop();
    }
  });
}
