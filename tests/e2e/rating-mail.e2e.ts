import { expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { spawnServer, waitUntilReady } from "../support/spawn-server";
import { createArtistProfile } from "./support/artist-helpers";
import { mailLink, newAccount, signUpConfirmed, visitorPage } from "./support/fixtures";
import { lookAt } from "./support/look-at";
import { freshPostgresDatabase } from "./support/postgres-database";

/**
 * Asking for the evidence (docs/product.md, "Ratings"; decision 044): once a booking completes,
 * the server's own job runner mails its client 'How was {artist}?'; the mail's link rates it in
 * one click, signed out, with or without JavaScript, and the gig becomes Client-verified. On
 * PostgreSQL (TEST_DATABASE_URL), to reach the rows: the booking is written straight into the
 * past, and the settling job is added as its schedule would.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
test.describe.configure({ timeout: 240_000 });

/** The newest mail's link, waiting for the server's runner (woken by NOTIFY) to send it. */
async function awaitMailLink(page: Page, to: string, subject: RegExp) {
  let link: string | null = null;
  await expect
    .poll(async () => (link = await mailLink(page, to, subject).catch(() => null)), {
      timeout: 60_000,
      intervals: [500],
    })
    .not.toBeNull();
  return link as unknown as string;
}

if (serverUrl) {
  test("a completed booking's mail rates it in one click, signed out, and the gig becomes Client-verified", async ({
    browser,
  }, info) => {
    const database = await freshPostgresDatabase(serverUrl, "rating_mail");
    const server = await spawnServer({
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      TRUST_PROXY: "true",
      BETTER_AUTH_SECRET: "e2e-secret-".padEnd(40, "r"),
    });
    const db = new pg.Client({ connectionString: database.url });
    try {
      await waitUntilReady(server);
      await db.connect();
      const artist = await visitorPage(browser, server, "198.51.100.31");
      const artistAccount = await signUpConfirmed(
        artist,
        newAccount({ firstName: "Lata", lastName: "Iyer" }),
      );
      const name = `Lata Iyer Band ${Date.now().toString(36)}`;
      await createArtistProfile(artist, name, { Location: "Pune" });
      // Two clients: one rates with JavaScript, one without.
      const clients = [];
      for (const [i, js] of [true, false].entries()) {
        const page = await visitorPage(browser, server, `198.51.100.${40 + i}`);
        const account = await signUpConfirmed(page, newAccount({ firstName: `Client${i}` }));
        await db.query(
          `INSERT INTO bookings (artist_profile_id, client_user_id, event_date, duration_hours,
             venue, event_type, total_amount, status)
           SELECT ap.id, u.id, current_date - 2 - $4::int, 2, $3, 'Live Show', 300, 'confirmed'
           FROM artist_profiles ap, users u WHERE ap.artist_name = $1 AND u.email = $2`,
          [name, account.email, `Hall ${i}`, i],
        );
        clients.push({ account, js });
      }
      // The settling job, added as its schedule adds it; the runner hears of it on commit.
      await db.query(
        "INSERT INTO jobs (queue, key) VALUES ('bookings.settle', 'e2e'); SELECT pg_notify('jobs', 'bookings.settle')",
      );

      for (const { account, js } of clients) {
        const link = await awaitMailLink(artist, account.email, new RegExp(`^How was ${name}\\?$`));
        expect(link).toMatch(/\/rate\/[0-9a-f-]{36}\.[0-9a-z]+\.[\w-]{43}$/);
        // Signed out, in a browser that never saw GigLedger.
        const context = await browser.newContext({
          baseURL: server.url,
          javaScriptEnabled: js,
          extraHTTPHeaders: { "X-Forwarded-For": js ? "198.51.100.50" : "198.51.100.51" },
        });
        const page = await context.newPage();
        await page.goto(link);
        await expect(page.getByRole("heading", { name: `Rate ${name}` })).toBeVisible();
        if (js) await lookAt(page, "rate-page", info);
        await page.locator("label").filter({ hasText: "5 stars" }).click();
        await page.getByLabel("Review (optional)").fill("A wonderful night.");
        await page.getByRole("button", { name: "Submit Rating" }).click();
        await expect(page.getByText(`You rated ${name} 5 of 5`)).toBeVisible();
        if (js) {
          await expect(page.getByText("Rating Submitted")).toBeVisible();
          await lookAt(page, "rate-page-thanks", info);
        }
        await context.close();
        // The artist hears of it.
        await awaitMailLink(artist, artistAccount.email, /rated your booking$/);
      }

      // A link that is not ours: a plain 404 page with a way on.
      const stranger = await visitorPage(browser, server, "198.51.100.52");
      const invalid = await stranger.goto("/rate/not-a-token");
      expect(invalid?.status()).toBe(404);
      await expect(stranger.getByRole("heading", { name: "Invalid Link" })).toBeVisible();
      await lookAt(stranger, "rate-page-invalid", info);
      await stranger.context().close();

      await artist.goto(`/artist/${name.toLowerCase().replaceAll(" ", "-")}`);
      const recent = artist.getByRole("region", { name: "Recent Performances" });
      await expect(recent.getByText("Client-verified").first()).toBeVisible();
      await expect(recent.getByText("Live Show, Pune").first()).toBeVisible();
      const figures = artist.getByRole("region", { name: "Figures" });
      await expect(figures.getByText("2 reviews")).toBeVisible();
      await artist.context().close();
    } finally {
      await db.end().catch(() => {});
      server.process.kill("SIGTERM");
      await server.exited;
      await database.drop();
    }
  });
}
