import { expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { addDays, formatLongDate, todayIn } from "~/lib/dates";
import { spawnServer, waitUntilReady } from "../support/spawn-server";
import { createArtistProfile } from "./support/artist-helpers";
import { newAccount, outboxMails, signUpConfirmed, visitorPage } from "./support/fixtures";
import { lookAt } from "./support/look-at";
import { freshPostgresDatabase } from "./support/postgres-database";

/**
 * Trust figures with their receipts, end to end: an artist receives eight requests, answers
 * seven within a day (accept, decline, a message) and leaves one waiting; the test moves the
 * rows' times back 30 hours in the database, then reads the exact rate on the profile, the
 * discovery card and the dashboard's receipts. The artist cancels a confirmed booking with a
 * reason: the client reads it in the mail, the date is free again, the cancellation is counted,
 * and the client books a substitute (never one who is unavailable that day) in one click.
 * It runs on the PostgreSQL server (the test must reach the rows), like bookings.e2e.ts.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
test.describe.configure({ timeout: 240_000 });

/** Posts a form as the page's signed-in user; returns where the action redirected. */
async function post(page: Page, url: string, form: Record<string, string>, status = 302) {
  const origin = new URL(url).origin;
  const res = await page.request.post(url, { form, headers: { Origin: origin }, maxRedirects: 0 });
  expect(res.status(), `${url} ${JSON.stringify(form)}`).toBe(status);
  return res.headers().location ?? "";
}

/** The text of the newest development-outbox mail to `to` whose subject matches. */
async function mailText(page: Page, to: string, subject: RegExp) {
  const [mail] = await outboxMails(page, to, subject);
  if (!mail) throw new Error(`no mail to ${to} matching ${subject}`);
  return mail.body.replace(/<[^>]+>/g, " ");
}

if (serverUrl) {
  test("response rate, an artist's cancellation with its reason, and a substitute in one click", async ({
    browser,
  }, testInfo) => {
    const database = await freshPostgresDatabase(serverUrl, "trust");
    const db = new pg.Client({ connectionString: database.url });
    const server = await spawnServer({
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      TRUST_PROXY: "true",
      BETTER_AUTH_SECRET: "e2e-secret-".padEnd(40, "t"),
    });
    try {
      await waitUntilReady(server);
      await db.connect();
      const suffix = Date.now().toString(36);
      const names = {
        artist: `Meera Sax ${suffix}`,
        substitute: `Ravi Keys ${suffix}`,
        busy: `Ila Drums ${suffix}`,
      };
      const slugOf = (name: string) => name.toLowerCase().replaceAll(" ", "-");
      const pages: Record<keyof typeof names, Page> = {
        artist: await visitorPage(browser, server, "198.51.100.31"),
        substitute: await visitorPage(browser, server, "198.51.100.32"),
        busy: await visitorPage(browser, server, "198.51.100.33"),
      };
      for (const key of Object.keys(names) as (keyof typeof names)[]) {
        await signUpConfirmed(pages[key], newAccount({ firstName: key }));
        await createArtistProfile(pages[key], names[key], {
          Genre: "Jazz",
          Location: "Pune",
          "Hourly Rate (₹)": "2000",
        });
      }
      const client = await visitorPage(browser, server, "198.51.100.40");
      const clientAccount = await signUpConfirmed(client, newAccount({ firstName: "Tara" }));
      // One client may send an artist five requests a day (decision 038): a second one sends the
      // rest.
      const secondClient = await visitorPage(browser, server, "198.51.100.41");
      await signUpConfirmed(secondClient, newAccount({ firstName: "Uma" }));
      const artistSlug = slugOf(names.artist);
      const { rows } = await db.query<{ id: string; time_zone: string }>(
        "SELECT id, time_zone FROM artist_profiles WHERE slug = $1",
        [artistSlug],
      );
      const artistId = rows[0]?.id ?? "";
      const today = todayIn(rows[0]?.time_zone ?? "UTC");

      // ── Eight requests on eight dates ────────────────────────────────────────────────────
      const dates = Array.from({ length: 8 }, (_, i) => addDays(today, 10 + i));
      const ids: string[] = [];
      for (const [i, date] of dates.entries()) {
        const sender = i < 5 ? client : secondClient;
        const location = await post(sender, `${server.url}/bookings?artist=${artistSlug}`, {
          artistId,
          eventDate: date,
          startTime: "19:00",
          durationHours: "2",
          venue: "Blue Frog, Koregaon Park",
          eventType: "Wedding",
        });
        ids.push(location.replace(/^.*\/bookings\//, ""));
      }
      // Five accepted, one declined, one answered by a message, one left unanswered.
      const bookingUrl = (id: string | undefined) => `${server.url}/bookings/${id}`;
      for (const id of ids.slice(0, 5))
        await post(pages.artist, bookingUrl(id), { intent: "accept" });
      await post(pages.artist, bookingUrl(ids[5]), { intent: "decline", reason: "Away" });
      await post(pages.artist, bookingUrl(ids[6]), {
        intent: "message",
        message: "Happy to play! Which songs?",
      });
      // Everything happened at least 30 hours ago, each request a day before the next: the
      // unanswered one is past its 24 hours, and one client's requests of a day, which count as
      // one (decision 038), are eight days here.
      for (const [i, id] of ids.entries()) {
        const ago = `${30 + 24 * i} hours`;
        await db.query(
          `UPDATE bookings SET created_at = created_at - $2::interval,
             responded_at = responded_at - $2::interval,
             confirmed_at = confirmed_at - $2::interval
           WHERE id = $1`,
          [id, ago],
        );
        await db.query(
          "UPDATE booking_messages SET created_at = created_at - $2::interval WHERE booking_id = $1",
          [id, ago],
        );
      }

      // ── The rate on the profile, the discovery card and the dashboard ─────────────────────
      const rate = "Responds within 24 h to 88% of requests (8 in 90 days)";
      await client.goto(`/artist/${artistSlug}`);
      const reliability = client.getByRole("list", { name: "Reliability" });
      await expect(reliability).toContainText(rate);
      await expect(reliability).toContainText("Cancelled 0 of 5 confirmed bookings in 12 months");
      await lookAt(client, "profile-figures", testInfo);
      await client.goto(`/artist-discovery?search=${encodeURIComponent(names.artist)}`);
      // Every card has its lines (a newcomer's say what is known): this artist's card.
      await expect(
        client
          .getByRole("article", { name: names.artist })
          .getByRole("list", { name: "Reliability" }),
      ).toContainText(rate);
      await pages.artist.goto("/artist-dashboard");
      const receipts = pages.artist.getByRole("table", {
        name: "Counted requests of the last 90 days",
      });
      await expect(receipts.getByRole("row")).toHaveCount(9);
      await expect(receipts).toContainText("Not answered");
      await lookAt(pages.artist, "dashboard-receipts", testInfo);

      // ── The artist cancels a confirmed booking, with a reason ─────────────────────────────
      const cancelled = ids[4];
      const cancelledDate = dates[4] ?? "";
      await pages.artist.goto(`/bookings/${cancelled}`);
      await pages.artist.getByText("Cancel booking", { exact: true }).click();
      // The reason is required (the browser asks for it; the server refuses without it too).
      await expect(pages.artist.getByLabel("Reason")).toHaveAttribute("required", "");
      const refused = await pages.artist.request.post(bookingUrl(cancelled), {
        form: { intent: "cancel", reason: " " },
        headers: { Origin: server.url },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(400);
      expect(await refused.text()).toContain("Tell the client why you are cancelling.");
      const reason = "My wrist is fractured and I cannot play that night.";
      await pages.artist.getByLabel("Reason").fill(reason);
      await pages.artist.getByRole("button", { name: "Cancel Booking" }).click();
      await expect(pages.artist.getByText("You cancelled this booking.")).toBeVisible();

      const mail = await mailText(client, clientAccount.email, /cancelled the booking/);
      expect(mail).toContain(reason);

      // The date is free again on the artist's calendar, and the cancellation is counted.
      await client.goto(`/artist/${artistSlug}?month=${cancelledDate.slice(0, 7)}`);
      await expect(
        client.getByLabel(`${formatLongDate(cancelledDate)}: Available`, { exact: true }),
      ).toBeVisible();
      await expect(client.getByRole("list", { name: "Reliability" })).toContainText(
        "Cancelled 1 of 5 confirmed bookings in 12 months",
      );

      // ── Substitutes: free that day, same genre and city; never one who is unavailable ────
      await post(
        pages.busy,
        `${server.url}/availability`,
        {
          intent: "set",
          date: cancelledDate,
          status: "unavailable",
        },
        200,
      );
      await client.goto(`/bookings/${cancelled}`);
      await expect(client.getByText(`${names.artist} cancelled this booking.`)).toBeVisible();
      await expect(client.getByText(`Reason: ${reason}`)).toBeVisible();
      const substitutes = client.getByRole("region", {
        name: `Artists free on ${formatLongDate(cancelledDate)}`,
      });
      await expect(
        substitutes.getByRole("link", { name: names.substitute, exact: true }),
      ).toBeVisible();
      await expect(substitutes).not.toContainText(names.busy);
      await lookAt(client, "booking-substitutes", testInfo);

      await substitutes.getByRole("link", { name: `Request ${names.substitute}` }).click();
      await expect(client.getByRole("heading", { name: `Book ${names.substitute}` })).toBeVisible();
      await expect(client.getByLabel("Venue")).toHaveValue("Blue Frog, Koregaon Park");
      await client.getByRole("button", { name: "Send Booking Request" }).click();
      await expect(client.getByText("Booking Request Sent!")).toBeVisible();
      await expect(client.getByText(formatLongDate(cancelledDate)).first()).toBeVisible();
    } finally {
      server.process.kill("SIGTERM");
      await server.exited;
      await db.end().catch(() => {});
      await database.drop();
    }
  });
}
