import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { addDays, todayIn } from "~/lib/dates";
import { spawnServer, waitUntilReady } from "../support/spawn-server";
import { createArtistProfile } from "./support/artist-helpers";
import { newAccount, signUpConfirmed, visitorPage } from "./support/fixtures";
import { holdScripts } from "./support/hold-scripts";
import { lookAt } from "./support/look-at";
import { freshPostgresDatabase } from "./support/postgres-database";

/**
 * The verification ladder as people meet it: the old trick (confirming a joined session at its
 * start) refused, a duo's lone confirmation lifting nothing, a lineup of two making it
 * Lineup-verified, the client's venue checkbox when rating, and the levels with their
 * explanations on the profile, a collaborator's copy and the session page. Time passes by moving rows into the past, so it runs on its own server over a
 * PostgreSQL database (whenever TEST_DATABASE_URL names one, like bookings.e2e.ts).
 */
const serverUrl = process.env.TEST_DATABASE_URL;
test.describe.configure({ timeout: 240_000 });

if (serverUrl) {
  test("lineup confirmation, the venue checkbox, and levels on the profile and session page", async ({
    browser,
  }) => {
    const database = await freshPostgresDatabase(serverUrl, "ladder");
    const server = await spawnServer({
      DATABASE_URL: database.url,
      DATA_DIR: database.dataDir,
      TRUST_PROXY: "true",
      BETTER_AUTH_SECRET: "e2e-secret-".padEnd(40, "v"),
    });
    const db = new pg.Client({ connectionString: database.url });
    try {
      await waitUntilReady(server);
      await db.connect();
      const stamp = Date.now().toString(36);
      const name = `Lena Lakes ${stamp}`;
      const slug = name.toLowerCase().replaceAll(" ", "-");

      // ── The artist plans a jam; a fellow artist joined it; it has now taken place ──────────
      const artist = await visitorPage(browser, server, "198.51.100.31");
      await signUpConfirmed(artist, newAccount({ firstName: "Lena", lastName: "Lakes" }));
      await createArtistProfile(artist, name, {
        Location: "Goa",
        Experience: "5 years",
        Instruments: "Piano",
      });
      const friend = await visitorPage(browser, server, "198.51.100.32");
      await signUpConfirmed(friend, newAccount({ firstName: "Omar", lastName: "Beat" }));
      const friendName = `Omar Beat ${stamp}`;
      await createArtistProfile(friend, friendName, {
        Location: "Goa",
        Experience: "5 years",
        Instruments: "Piano",
      });
      const {
        rows: [ids],
      } = await db.query<{ owner: string; member: string }>(
        `SELECT (SELECT id FROM artist_profiles WHERE slug = $1) AS owner,
                (SELECT id FROM artist_profiles WHERE artist_name = $2) AS member`,
        [slug, friendName],
      );
      // Both fellow artists are established (a month-old account with a session of its own), so
      // only the timing rule is at stake.
      const peerName = `Pia Peer ${stamp}`;
      const peer = await visitorPage(browser, server, "198.51.100.35");
      await signUpConfirmed(peer, newAccount({ firstName: "Pia", lastName: "Peer" }));
      await createArtistProfile(peer, peerName, {
        Location: "Goa",
        Experience: "5 years",
        Instruments: "Bass",
      });
      const {
        rows: [peerId],
      } = await db.query<{ id: string }>("SELECT id FROM artist_profiles WHERE artist_name = $1", [
        peerName,
      ]);
      for (const id of [ids!.member, peerId!.id]) {
        await db.query(
          `UPDATE users SET created_at = now() - interval '30 days'
           WHERE id = (SELECT user_id FROM artist_profiles WHERE id = $1)`,
          [id],
        );
        await db.query(
          `INSERT INTO music_sessions (artist_profile_id, title, session_type, start_time, created_at)
           VALUES ($1, 'Own rehearsal', 'practice', now() - interval '30 days', now() - interval '30 days')`,
          [id],
        );
      }
      // A planned jam the friend joined as a collaborator; it has just started.
      const {
        rows: [jam],
      } = await db.query<{ id: string }>(
        `INSERT INTO music_sessions (artist_profile_id, title, session_type, start_time, duration_minutes)
         VALUES ($1, 'Sunset jam', 'jam', now() + interval '1 hour', 90) RETURNING id`,
        [ids!.owner],
      );
      await db.query(
        `INSERT INTO session_participants (session_id, artist_profile_id, participation_type, verification_status)
         VALUES ($1, $2, 'collaborator', 'verified')`,
        [jam!.id, ids!.member],
      );
      await db.query(
        "UPDATE music_sessions SET start_time = now() - interval '1 minute' WHERE id = $1",
        [jam!.id],
      );

      // ── The old trick: confirming at the start. Not offered, and refused when posted ──────
      await friend.goto(`/sessions/${jam!.id}`);
      await expect(friend.getByRole("heading", { name: "Sunset jam" })).toBeVisible();
      await expect(friend.getByRole("button", { name: "Confirm it happened" })).toHaveCount(0);
      const early = await friend.request.post(`/sessions/${jam!.id}`, {
        form: { intent: "lineup", answer: "confirmed" },
        headers: { Origin: server.url },
        maxRedirects: 0,
      });
      expect(early.status()).toBe(409);
      const {
        rows: [stored],
      } = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM lineup_confirmations WHERE session_id = $1",
        [jam!.id],
      );
      expect(stored!.n).toBe(0);
      // A share link opened while the session is still playing says so, on a phone as well.
      const token = `not-over-${stamp}`;
      await db.query(
        `INSERT INTO session_sharing_tokens (session_id, creator_artist_id, token_hash, expires_at)
         VALUES ($1, $2, encode(sha256(convert_to($3, 'UTF8')), 'hex'), now() + interval '7 days')`,
        [jam!.id, ids!.owner, token],
      );
      await peer.goto(`/join-session/${token}`);
      await expect(peer.getByRole("heading", { name: "Not Over Yet" })).toBeVisible();
      await expect(peer.getByRole("button", { name: "Submit Verification" })).toHaveCount(0);
      await expect(peer.getByRole("link", { name: "View Session" })).toBeVisible();
      await lookAt(peer, "not-over-yet", test.info());
      const watcher = await visitorPage(browser, server, "198.51.100.36");
      await watcher.goto(`/artist/${slug}`);
      await expect(
        watcher.getByRole("article", { name: "Sunset jam" }).getByText("Self-logged"),
      ).toBeVisible();

      // ── Once it has ended: the friend confirms, but one voice lifts nothing ───────────────
      await db.query(
        "UPDATE music_sessions SET start_time = now() - interval '2 hours' WHERE id = $1",
        [jam!.id],
      );
      await friend.goto(`/sessions/${jam!.id}`);
      await expect(
        friend.getByRole("heading", { name: "Did this session take place as logged?" }),
      ).toBeVisible();
      await friend.getByRole("button", { name: "Confirm it happened" }).click();
      await expect(friend.getByText("Thanks for confirming")).toBeVisible();
      await expect(friend.getByRole("button", { name: "Confirm it happened" })).toHaveCount(0);
      await watcher.goto(`/artist/${slug}`);
      await expect(
        watcher.getByRole("article", { name: "Sunset jam" }).getByText("Self-logged"),
      ).toBeVisible();

      // ── A second member of the lineup confirms too: two voices, Lineup-verified ───────────
      await db.query(
        `INSERT INTO session_participants (session_id, artist_profile_id, participation_type, verification_status, created_at)
         VALUES ($1, $2, 'collaborator', 'verified', now() - interval '3 hours')`,
        [jam!.id, peerId!.id],
      );
      await peer.goto(`/sessions/${jam!.id}`);
      await peer.getByRole("button", { name: "Confirm it happened" }).click();
      await expect(peer.getByText("Thanks for confirming")).toBeVisible();

      // ── A client's gig took place; rating it, the venue checkbox is off by default ────────
      const client = await visitorPage(browser, server, "198.51.100.33");
      await signUpConfirmed(client, newAccount({ firstName: "Cara", lastName: "Client" }));
      const {
        rows: [clientUser],
      } = await db.query<{ id: string }>("SELECT id FROM users WHERE name = 'Cara Client'");
      const {
        rows: [booking],
      } = await db.query<{ id: string }>(
        `INSERT INTO bookings (artist_profile_id, client_user_id, event_date, duration_hours, venue, event_type, total_amount, status)
         VALUES ($1, $2, $3, 2, 'Hidden Courtyard', 'Private Event', 5000, 'completed') RETURNING id`,
        [ids!.owner, clientUser!.id, addDays(todayIn("Asia/Kolkata"), -5)],
      );
      // The stars are picked before the page's scripts run (they start after the first paint,
      // decision 024): the pick must survive hydration and be what is sent.
      const runScripts = await holdScripts(client);
      await client.goto(`/bookings/${booking!.id}`, { waitUntil: "domcontentloaded" });
      const checkbox = client.getByLabel(`Show the venue on ${name}'s public history`);
      await expect(checkbox).toBeVisible();
      await expect(checkbox).not.toBeChecked();
      await client.locator("label").filter({ hasText: "4 stars" }).click();
      await runScripts();
      await expect(client.getByRole("radio", { name: "4 stars" })).toBeChecked();
      await client.getByRole("button", { name: "Submit Rating" }).click();
      await expect(client.getByText("Rating Submitted")).toBeVisible();

      // ── Anyone: the levels, their explanations, who and when; the venue stays private ─────
      const visitor = await visitorPage(browser, server, "198.51.100.34");
      await visitor.goto(`/artist/${slug}`);
      const recent = visitor.getByRole("region", { name: "Recent Performances" });
      await expect(recent.getByText("Private Event, Goa")).toBeVisible();
      await expect(recent.getByText("Client-verified")).toBeVisible();
      await expect(
        recent.getByText("Booked and completed here, and rated by its client."),
      ).toBeVisible();
      await expect(recent.getByText(/Verified by the client on/)).toBeVisible();
      await expect(visitor.getByText("Hidden Courtyard")).toHaveCount(0);
      const figures = visitor.getByRole("region", { name: "Figures" });
      await expect(figures.getByText(/1 Client-verified/)).toBeVisible();
      const jamCard = visitor.getByRole("article", { name: "Sunset jam" });
      await expect(jamCard.getByText("Lineup-verified")).toBeVisible();
      await expect(
        jamCard.getByText(`Verified by ${friendName} and ${peerName} on`, { exact: false }),
      ).toBeVisible();
      // The friend's own profile lists the jam as Lena's, confirmed by them: never "Verified by"
      // its own artist.
      const {
        rows: [friendProfile],
      } = await db.query<{ slug: string }>("SELECT slug FROM artist_profiles WHERE id = $1", [
        ids!.member,
      ]);
      await visitor.goto(`/artist/${friendProfile!.slug}`);
      const copy = visitor.getByRole("article", { name: "Sunset jam" });
      await expect(
        copy.getByText(`${name}'s session, confirmed by ${friendName} and ${peerName} on`, {
          exact: false,
        }),
      ).toBeVisible();
      await expect(copy.getByText(`Verified by ${friendName}`, { exact: false })).toHaveCount(0);

      await visitor.goto(`/sessions/${jam!.id}`);
      await expect(visitor.getByText("Lineup-verified").first()).toBeVisible();
      await expect(
        visitor.getByText("Everyone who joined the lineup confirmed it after it ended.").first(),
      ).toBeVisible();
      await visitor.getByRole("link", { name: "What the levels mean" }).first().click();
      await expect(
        visitor.getByRole("heading", { name: "How sessions are verified" }),
      ).toBeVisible();

      // The client (a party) still sees the venue on the gig's own page.
      const {
        rows: [gig],
      } = await db.query<{ id: string }>("SELECT id FROM music_sessions WHERE booking_id = $1", [
        booking!.id,
      ]);
      await client.goto(`/sessions/${gig!.id}`);
      await expect(client.getByText("Hidden Courtyard", { exact: false })).toBeVisible();
      await visitor.goto(`/sessions/${gig!.id}`);
      await expect(visitor.getByText("Private Event, Goa").first()).toBeVisible();
      await expect(visitor.getByText("Hidden Courtyard", { exact: false })).toHaveCount(0);

      // The CV the server's job runner signed at the new levels verifies offline.
      let bundle = "";
      await expect
        .poll(
          async () => {
            bundle = await (await visitor.request.get(`/artist/${slug}/cv-bundle.json`)).text();
            return ["Lineup-verified", "Client-verified"].every((level) => bundle.includes(level));
          },
          { timeout: 30_000 },
        )
        .toBe(true);
      const bundleFile = test.info().outputPath("cv-bundle.json");
      writeFileSync(bundleFile, bundle);
      const offline = spawnSync(
        path.resolve("node_modules/.bin/tsx"),
        ["scripts/verify-cv.ts", bundleFile, "--offline"],
        { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } },
      );
      expect(offline.stdout + offline.stderr).toContain("Lineup-verified");
      expect(offline.stdout + offline.stderr).toContain("Client-verified");
      expect(offline.status).toBe(0);
    } finally {
      await db.end().catch(() => {});
      server.process.kill("SIGTERM");
      await server.exited;
      await database.drop();
    }
  });
}
