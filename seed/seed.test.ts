import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import pino from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ledgerIntegrity } from "~/features/payments/ledger.server";
import { VERIFICATION_LEVELS } from "~/features/verification/verification-levels";
import { sessionLevels } from "~/features/verification/verification-levels.server";
import { addDays } from "~/lib/dates";
import { loadEnv } from "~/lib/env.server";
import { createStorage } from "~/lib/storage.server";
import { queryRows } from "~db/client";
import { artistProfiles, availability, musicSessions, portfolios, sessionMedia } from "~db/schema";
import { createTestDatabase } from "../tests/support/test-database";
import { DEMO_MONEY_STAGES } from "./demo-money";
import { DEMO_ARTISTS, type SeedMedia, seedDemoData, stableId } from "./seed";

let handle: Awaited<ReturnType<typeof createTestDatabase>>;
const today = "2026-11-21";
// The demo's pictures and sounds go to a storage of their own, as on a fresh install.
const dataDir = mkdtempSync(path.join(tmpdir(), "gl-seed-"));
const env = loadEnv({
  NODE_ENV: "test",
  DATA_DIR: dataDir,
  BETTER_AUTH_SECRET: "test-secret-".padEnd(40, "x"),
});
const media: SeedMedia = {
  env,
  storage: createStorage(env.storage),
  logger: pino({ level: "silent" }),
};

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("demo seed", () => {
  it("inserts artists across genres and locations with history, availability and portfolios, and nothing twice", async () => {
    // How long a fresh start's seeding takes is printed by the boot log (server/boot.ts), not
    // asserted here: on a busy machine a time limit fails tests that are right.
    await seedDemoData(handle.db, { today, media });
    const count = async () => {
      const [row] = await queryRows<Record<string, number>>(
        handle.db,
        sql`
        SELECT
          (SELECT count(*)::int FROM artist_profiles WHERE slug NOT LIKE 'test-%') AS artists,
          (SELECT count(*)::int FROM music_sessions) AS sessions,
          (SELECT count(*)::int FROM availability) AS availability,
          (SELECT count(*)::int FROM portfolios) AS portfolios,
          (SELECT count(*)::int FROM bookings) AS bookings,
          (SELECT count(*)::int FROM session_media) AS media
      `,
      );
      return row!;
    };
    const first = await count();
    expect(first.artists).toBeGreaterThanOrEqual(8);
    await seedDemoData(handle.db, { today, media });
    expect(await count()).toEqual(first);

    const demo = await handle.db
      .select({
        id: artistProfiles.id,
        genre: artistProfiles.genre,
        location: artistProfiles.location,
      })
      .from(artistProfiles)
      .where(sql`${artistProfiles.slug} NOT LIKE 'test-%'`);
    expect(new Set(demo.map((a) => a.genre))).toEqual(
      new Set(["Jazz", "Rock", "Classical", "Hip-Hop", "Pop", "Blues", "Country", "Bollywood"]),
    );
    expect(new Set(demo.map((a) => a.location))).toEqual(
      new Set([
        "New York NY",
        "Los Angeles CA",
        "San Francisco CA",
        "Atlanta GA",
        "Chicago IL",
        "New Delhi",
      ]),
    );
    for (const artist of demo) {
      const days = await handle.db
        .select({ date: availability.date })
        .from(availability)
        .where(eq(availability.artistProfileId, artist.id));
      expect(days.map((d) => d.date).sort()[0]).toBe(today);
      // Thirty days from today; a booking confirmed further ahead has its date marked too.
      expect(days.filter((d) => d.date <= addDays(today, 29))).toHaveLength(30);
      const owned = await handle.db
        .select({ id: portfolios.id })
        .from(portfolios)
        .where(eq(portfolios.artistProfileId, artist.id));
      expect(owned).toHaveLength(1);
    }
  });

  it("sets up every demo artist's payouts and gives the demo client a booking at each money stage, books balanced", async () => {
    await seedDemoData(handle.db, { today, media });
    const [accounts] = await queryRows<{ n: number }>(
      handle.db,
      sql`SELECT count(*)::int AS n FROM payout_accounts`,
    );
    expect(accounts?.n).toBe(DEMO_ARTISTS.length);
    const rows = await queryRows<{
      artist: string;
      status: string;
      cancelledBy: string | null;
      total: number;
      captured: number;
      refunded: number;
      held: number;
      released: boolean;
      invoices: number;
    }>(
      handle.db,
      sql`SELECT ap.artist_name AS artist, b.status, b.cancelled_by AS "cancelledBy",
            (b.total_amount * 100)::int AS total,
            (SELECT coalesce(sum(amount_paise), 0)::int FROM payment_intents
              WHERE booking_id = b.id AND status = 'captured') AS captured,
            (SELECT coalesce(sum(refunded_paise), 0)::int FROM payment_intents
              WHERE booking_id = b.id AND status = 'captured') AS refunded,
            (SELECT count(*)::int FROM provider_transfers
              WHERE booking_id = b.id AND on_hold AND amount_paise > reversed_paise) AS held,
            b.payout_released_at IS NOT NULL AS released,
            (SELECT count(*)::int FROM commission_invoices WHERE booking_id = b.id) AS invoices
          FROM bookings b JOIN artist_profiles ap ON ap.id = b.artist_profile_id
          WHERE b.client_user_id = ${stableId("client")} AND EXISTS (SELECT 1 FROM agreements a
            WHERE a.booking_id = b.id AND a.paid_through = 'gigledger')`,
    );
    expect(rows).toHaveLength(DEMO_MONEY_STAGES.length);
    // And one request sent to three artists at once, waiting for their answers.
    const [group] = await queryRows<{ size: number; pending: number }>(
      handle.db,
      sql`SELECT count(*)::int AS size, count(*) FILTER (WHERE status = 'pending')::int AS pending
          FROM bookings WHERE client_user_id = ${stableId("client")}
            AND request_group_id IS NOT NULL`,
    );
    expect(group).toEqual({ size: 3, pending: 3 });
    const of = (stage: (typeof DEMO_MONEY_STAGES)[number]["stage"]) => {
      const plan = DEMO_MONEY_STAGES.find((p) => p.stage === stage);
      const row = rows.find((r) => r.artist === DEMO_ARTISTS[plan?.artist ?? -1]?.name);
      expect(row, stage).toBeDefined();
      return row!;
    };
    expect(of("awaiting_deposit")).toMatchObject({ status: "awaiting_deposit", captured: 0 });
    const deposit = of("deposit_held");
    expect(deposit).toMatchObject({ status: "confirmed", released: false, refunded: 0 });
    expect(deposit.captured).toBeGreaterThan(0);
    expect(deposit.captured).toBeLessThan(deposit.total);
    expect(deposit.held).toBe(1);
    const full = of("fully_paid");
    expect(full).toMatchObject({ status: "confirmed", captured: full.total, held: 2 });
    expect(full).toMatchObject({ released: false, invoices: 0 });
    const released = of("payout_released");
    expect(released).toMatchObject({ status: "confirmed", captured: released.total });
    expect(released).toMatchObject({ released: true, held: 0, invoices: 1 });
    const byClient = of("client_cancelled");
    expect(byClient).toMatchObject({ status: "cancelled", cancelledBy: "client", released: true });
    expect(byClient.refunded).toBeGreaterThan(0);
    expect(byClient.refunded).toBeLessThan(byClient.captured);
    const byArtist = of("artist_cancelled");
    expect(byArtist).toMatchObject({ status: "cancelled", cancelledBy: "artist", invoices: 0 });
    expect(byArtist.captured).toBeGreaterThan(0);
    expect(byArtist.refunded).toBe(byArtist.captured);

    expect(await ledgerIntegrity(handle.db)).toEqual({ sumOfBalances: 0, mismatched: [] });
    const [left] = await queryRows<{ commands: number; jobs: number }>(
      handle.db,
      sql`SELECT (SELECT count(*)::int FROM provider_commands WHERE status <> 'succeeded') AS commands,
            (SELECT count(*)::int FROM jobs
              WHERE queue IN ('payments.commands', 'payments.mail', 'agreements.mail')) AS jobs`,
    );
    // Carried out at seed time, and nothing left to mail the demo users about.
    expect(left).toEqual({ commands: 0, jobs: 0 });
  });

  it("gives every demo artist a picture, three featured photos and a featured audio clip, stored as uploads are", async () => {
    const demo = await handle.db
      .select({ id: artistProfiles.id, avatarPath: artistProfiles.avatarPath })
      .from(artistProfiles)
      .where(sql`${artistProfiles.slug} NOT LIKE 'test-%'`);
    for (const artist of demo) {
      // The picture: re-encoded by the avatar path as a 256 px WebP square.
      expect(artist.avatarPath).toMatch(/^avatars\/.+\.webp$/);
      const avatar = await media.storage.get(artist.avatarPath as string);
      const chunks: Buffer[] = [];
      for await (const chunk of avatar!.body) chunks.push(chunk as Buffer);
      const bytes = Buffer.concat(chunks);
      expect(await sharp(bytes).metadata()).toMatchObject({
        format: "webp",
        width: 256,
        height: 256,
      });

      const items = await handle.db
        .select({
          mediaType: sessionMedia.mediaType,
          filePath: sessionMedia.filePath,
          previewPath: sessionMedia.previewPath,
          fileSize: sessionMedia.fileSize,
          mimeType: sessionMedia.mimeType,
          description: sessionMedia.description,
          featured: sessionMedia.isPortfolioFeatured,
          order: sessionMedia.portfolioSortOrder,
        })
        .from(sessionMedia)
        .innerJoin(musicSessions, eq(musicSessions.id, sessionMedia.sessionId))
        .where(eq(musicSessions.artistProfileId, artist.id));
      const photos = items.filter((m) => m.mediaType === "photo");
      const audio = items.filter((m) => m.mediaType === "audio");
      expect(photos).toHaveLength(3);
      expect(audio).toHaveLength(1);
      for (const item of items) {
        expect(item).toMatchObject({ featured: true });
        expect(item.order).toBeGreaterThan(0);
        expect(item.description).toBeTruthy();
        // Stored under the upload path's keys, with the size the storage reports.
        expect(item.filePath).toMatch(/^media\/[0-9a-f-]+\/\d+-[0-9a-f]+\.(jpg|wav)$/);
        expect((await media.storage.stat(item.filePath))?.size).toBe(item.fileSize);
      }
      for (const photo of photos) {
        expect(photo.mimeType).toBe("image/jpeg");
        expect(photo.previewPath).toMatch(/-preview\.webp$/);
        expect(await media.storage.stat(photo.previewPath as string)).not.toBeNull();
      }
      expect(audio[0]).toMatchObject({ mimeType: "audio/wav", previewPath: null });
      expect(audio[0]!.fileSize).toBeLessThan(env.mediaLimitsMb.audio * 1024 * 1024);
    }
  });

  it("gives each demo artist its city's time zone, also one seeded before with India's", async () => {
    await seedDemoData(handle.db, { today, media });
    const zones = () =>
      handle.db
        .select({
          id: artistProfiles.id,
          location: artistProfiles.location,
          timeZone: artistProfiles.timeZone,
        })
        .from(artistProfiles)
        .where(sql`${artistProfiles.slug} NOT LIKE 'test-%'`);
    const expected: Record<string, string> = {
      "New York NY": "America/New_York",
      "Los Angeles CA": "America/Los_Angeles",
      "San Francisco CA": "America/Los_Angeles",
      "Atlanta GA": "America/New_York",
      "Chicago IL": "America/Chicago",
      "New Delhi": "Asia/Kolkata",
    };
    const seeded = await zones();
    expect(seeded.length).toBe(DEMO_ARTISTS.length);
    for (const artist of seeded)
      expect(artist.timeZone, artist.location).toBe(expected[artist.location]);
    // An install seeded before: every demo artist in India's zone. Seeding again moves them.
    await handle.db
      .update(artistProfiles)
      .set({ timeZone: "Asia/Kolkata" })
      .where(sql`${artistProfiles.slug} NOT LIKE 'test-%'`);
    await seedDemoData(handle.db, { today, media });
    for (const artist of await zones())
      expect(artist.timeZone, artist.location).toBe(expected[artist.location]);
  });

  it("shows every level, each reached under the rules, and flags that agree with them", async () => {
    await seedDemoData(handle.db, { today, media });
    const rows = await handle.db
      .select({ id: musicSessions.id, verified: musicSessions.isVerified })
      .from(musicSessions);
    const levels = await sessionLevels(
      handle,
      rows.map((r) => r.id),
    );
    expect(rows.length).toBeGreaterThan(0);
    const seen = new Set([...levels.values()].map((l) => l.level));
    expect([...seen].sort()).toEqual(VERIFICATION_LEVELS.map((l) => l.id).sort());
    for (const row of rows)
      expect(row.verified, row.id).toBe(levels.get(row.id)?.level !== "self_logged");
  });

  it("leaves derived figures equal to a recount of the rows", async () => {
    const rows = await queryRows<{ slug: string }>(
      handle.db,
      sql`
      SELECT ap.slug FROM artist_profiles ap
      LEFT JOIN LATERAL (
        SELECT count(*)::int AS total, count(*) FILTER (WHERE is_verified)::int AS verified,
               coalesce(sum(duration_minutes), 0)::bigint AS minutes
        FROM music_sessions ms WHERE ms.artist_profile_id = ap.id
      ) s ON true
      LEFT JOIN LATERAL (
        SELECT count(*)::int AS reviews, coalesce(round(avg(rating)::numeric, 2), 0) AS rating
        FROM bookings b WHERE b.artist_profile_id = ap.id AND b.rating IS NOT NULL
      ) r ON true
      WHERE ap.total_sessions <> s.total OR ap.verified_sessions <> s.verified OR ap.total_minutes <> s.minutes
         OR ap.total_reviews <> r.reviews OR ap.rating <> r.rating
    `,
    );
    expect(rows).toEqual([]);
  });
});
