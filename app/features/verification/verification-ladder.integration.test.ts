import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import pino from "pino";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SignedInActor } from "~/lib/actor";
import { addDays, todayIn } from "~/lib/dates";
import { loadEnv } from "~/lib/env.server";
import type { Mailer } from "~/lib/mail.server";
import { createStorage } from "~/lib/storage.server";
import {
  artistProfiles,
  bookings,
  lineupConfirmations,
  musicSessions,
  peerVerifications,
  sessionParticipants,
} from "~db/schema";
import {
  artistActor,
  type CreatedArtist,
  createEstablishedArtist,
  createSession,
  createUser,
} from "~seed/factories";
import { createTestDatabase } from "../../../tests/support/test-database";
import { getRecentPerformances } from "../artists/artists.server";
import { searchArtists } from "../artists/discovery.server";
import { rateBooking, setVenueVisibility } from "../bookings/booking-ratings.server";
import { getBooking } from "../bookings/booking-views.server";
import { listMedia, uploadMedia } from "../media/media.server";
import { answerLineup } from "../music-sessions/lineup.server";
import { getSessionDetail, listSessionsForArtist } from "../music-sessions/music-sessions.server";
import { checkSharingToken, createSharingLink } from "../sharing/sharing.server";
import { sessionLevel, sessionLevels } from "./verification-levels.server";

/**
 * The verification ladder on fixed rows (docs/product.md, "Verification"), lineup answers, the
 * evidence hash of an upload, and the client's venue choice in every public read.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const dataDir = mkdtempSync(path.join(tmpdir(), "gl-ladder-"));
const env = loadEnv({
  NODE_ENV: "test",
  DATA_DIR: dataDir,
  BETTER_AUTH_SECRET: "x".repeat(40),
});
const mailer: Mailer = { send: async () => {}, outbox: async () => [] };
let ctx: Parameters<typeof rateBooking>[0] & Parameters<typeof uploadMedia>[0];
const today = todayIn(env.timeZone);
const HOUR = 3_600_000;

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = {
    db: database.db,
    env,
    logger: pino({ level: "silent" }),
    mailer,
    storage: createStorage(env.storage),
  };
});
afterAll(async () => {
  await database?.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

const as = (user: { id: string }): SignedInActor => ({
  id: user.id,
  roles: [],
  artistProfileId: null,
});

/** An artist whose confirmations count: a year-old account with a session of their own. */
async function artist(name: string, location = "Chicago IL") {
  return createEstablishedArtist({ db: database.db }, { name, location, daysOld: 400 });
}

/** Ended the day before. */
const PAST = new Date("2026-09-30T20:00:00Z");

async function peer(
  sessionId: string,
  by: CreatedArtist,
  trustScore: 100 | 75 | 50 | 25,
  at: Date,
) {
  await database.db
    .insert(peerVerifications)
    .values({ sessionId, verifiedByArtistId: by.artistId, trustScore, createdAt: at });
}

async function joinAsCollaborator(sessionId: string, who: CreatedArtist) {
  await database.db.insert(sessionParticipants).values({
    sessionId,
    artistProfileId: who.artistId,
    participationType: "collaborator",
    verificationStatus: "verified",
  });
}

/** A completed booking of the artist's, its event `daysAgo` days back; rated by `client` if told. */
async function completedBooking(
  owner: CreatedArtist,
  client: { id: string },
  options: { daysAgo?: number; rate?: { showVenue: boolean } } = {},
) {
  const [row] = await database.db
    .insert(bookings)
    .values({
      artistProfileId: owner.artistId,
      clientUserId: client.id,
      eventDate: addDays(today, -(options.daysAgo ?? 3)),
      startTime: "19:30",
      durationHours: 2,
      venue: "The Blue Door Club",
      eventType: "Live Show",
      totalAmount: 4000,
      status: "completed",
    })
    .returning({ id: bookings.id });
  const bookingId = row!.id;
  if (options.rate) {
    await rateBooking(ctx, as(client), {
      bookingId,
      rating: 5,
      review: null,
      showVenue: options.rate.showVenue,
    });
  }
  const [session] = await database.db
    .select({ id: musicSessions.id })
    .from(musicSessions)
    .where(eq(musicSessions.bookingId, bookingId));
  return { bookingId, sessionId: session?.id ?? null };
}

describe("the ladder, derived from the rows", () => {
  it("a session only its artist vouches for is Self-logged", async () => {
    const owner = await artist("Solo Sam");
    const id = await createSession(database.db, owner.artistId);
    expect(await sessionLevel(database, id)).toEqual({
      level: "self_logged",
      verifiers: [],
      reachedAt: null,
    });
  });

  it("one peer leaves it Self-logged whatever the score; a second makes it Peer-confirmed then", async () => {
    const owner = await artist("Peer Owner");
    const [a, b, c] = [await artist("Asha Rao"), await artist("Ravi K"), await artist("Late Lee")];
    const id = await createSession(database.db, owner.artistId, { startTime: PAST });
    const t0 = new Date("2026-10-01T10:00:00Z");
    await peer(id, a, 100, t0);
    expect((await sessionLevel(database, id)).level).toBe("self_logged");
    await peer(id, b, 25, new Date(t0.getTime() + HOUR));
    await peer(id, c, 25, new Date(t0.getTime() + 2 * HOUR));
    const level = await sessionLevel(database, id);
    expect(level.level).toBe("peer_confirmed");
    // Reached with the second voice, whatever the scores; every counting verifier is listed.
    expect(level.reachedAt?.toISOString()).toBe("2026-10-01T11:00:00.000Z");
    expect(level.verifiers.map((v) => v.name)).toEqual(["Asha Rao", "Ravi K", "Late Lee"]);
    expect(level.verifiers[0]?.artistSlug).toBeTruthy();
  });

  it("a booking completed and rated here is Client-verified by 'the client'", async () => {
    const owner = await artist("Booked Bina");
    const { sessionId } = await completedBooking(owner, await createUser(database.db), {
      rate: { showVenue: false },
    });
    const level = await sessionLevel(database, sessionId!);
    expect(level.level).toBe("client_verified");
    expect(level.verifiers).toHaveLength(1);
    expect(level.verifiers[0]).toMatchObject({ name: "the client", artistSlug: null });
    expect(level.reachedAt).toEqual(level.verifiers[0]?.at);
  });

  it("peer-confirmed AND client-verified shows Client-verified (the higher rung)", async () => {
    const owner = await artist("Both Bo");
    const { sessionId } = await completedBooking(owner, await createUser(database.db), {
      rate: { showVenue: true },
    });
    for (const name of ["Witness One", "Witness Two"])
      await peer(sessionId!, await artist(name), 100, new Date());
    expect((await sessionLevel(database, sessionId!)).level).toBe("client_verified");
  });

  it("every joined collaborator confirming after the end makes it Lineup-verified; one decline stops it", async () => {
    const owner = await artist("Band Leader");
    const [x, y] = [await artist("Drummer Dev"), await artist("Bassist Bea")];
    const start = new Date(Date.now() + 2 * HOUR);
    const id = await createSession(database.db, owner.artistId, { startTime: start });
    await joinAsCollaborator(id, x);
    await joinAsCollaborator(id, y);
    const after = new Date(start.getTime() + 2 * HOUR);
    await answerLineup(database, artistActor(x), {
      sessionId: id,
      answer: "confirmed",
      now: after,
    });
    expect((await sessionLevel(database, id)).level).toBe("self_logged");
    const done = await answerLineup(database, artistActor(y), {
      sessionId: id,
      answer: "confirmed",
      now: after,
    });
    expect(done).toEqual({ lineupVerified: true });
    const level = await sessionLevel(database, id);
    expect(level.level).toBe("lineup_verified");
    expect(level.verifiers.map((v) => v.name).sort()).toEqual(["Bassist Bea", "Drummer Dev"]);
    // It now counts as verified, and its method says how.
    const [row] = await database.db
      .select({ verified: musicSessions.isVerified, method: musicSessions.verificationMethod })
      .from(musicSessions)
      .where(eq(musicSessions.id, id));
    expect(row).toEqual({ verified: true, method: "lineup" });

    const declined = await createSession(database.db, owner.artistId, { startTime: start });
    await joinAsCollaborator(declined, x);
    await joinAsCollaborator(declined, y);
    await answerLineup(database, artistActor(x), {
      sessionId: declined,
      answer: "confirmed",
      now: after,
    });
    await answerLineup(database, artistActor(y), {
      sessionId: declined,
      answer: "declined",
      now: after,
    });
    expect((await sessionLevel(database, declined)).level).toBe("self_logged");
    const answers = await database.db
      .select({ answer: lineupConfirmations.answer })
      .from(lineupConfirmations)
      .where(eq(lineupConfirmations.sessionId, declined));
    expect(answers.map((a) => a.answer).sort()).toEqual(["confirmed", "declined"]);
  });

  it("reads many sessions at once and leaves unknown ids out", async () => {
    const owner = await artist("Many Mo");
    const ids = [
      await createSession(database.db, owner.artistId, { startTime: PAST }),
      await createSession(database.db, owner.artistId, { startTime: PAST }),
    ];
    await peer(ids[1]!, await artist("Friend F"), 100, new Date());
    await peer(ids[1]!, await artist("Friend G"), 50, new Date());
    const missing = "00000000-0000-4000-8000-000000000000";
    const levels = await sessionLevels(database, [...ids, missing, "not-a-uuid"]);
    expect([...levels.keys()].sort()).toEqual([...ids].sort());
    expect(levels.get(ids[0]!)?.level).toBe("self_logged");
    expect(levels.get(ids[1]!)?.level).toBe("peer_confirmed");
    // Lists carry the same level.
    const cards = await listSessionsForArtist(database, { artistId: owner.artistId });
    expect(cards.find((c) => c.id === ids[1])?.level.level).toBe("peer_confirmed");
  });
});

describe("lineup answers: who may answer, and when", () => {
  it("only a joined collaborator, only after the end, only once", async () => {
    const owner = await artist("Perm Owner");
    const member = await artist("Perm Member");
    const outsider = await artist("Perm Outsider");
    const verifier = await artist("Perm Verifier");
    const start = new Date(Date.now() + HOUR);
    const id = await createSession(database.db, owner.artistId, { startTime: start });
    await joinAsCollaborator(id, member);
    await database.db.insert(sessionParticipants).values({
      sessionId: id,
      artistProfileId: verifier.artistId,
      participationType: "verifier",
      verificationStatus: "pending",
    });
    // 90 minutes long: it ends at start + 90 minutes.
    const end = new Date(start.getTime() + 90 * 60_000);
    const after = new Date(end.getTime() + 60_000);
    const refusal = async (run: Promise<unknown>) =>
      run.then(
        () => "ok",
        (e: { code?: string; reason?: string }) => `${e.code}${e.reason ? `:${e.reason}` : ""}`,
      );
    const answer = (actor: SignedInActor | null, now: Date) =>
      answerLineup(database, actor, { sessionId: id, answer: "confirmed", now });
    expect(await refusal(answer(null, after))).toBe("not_found");
    expect(await refusal(answer(artistActor(owner), after))).toBe("not_found");
    expect(await refusal(answer(artistActor(outsider), after))).toBe("not_found");
    expect(await refusal(answer(artistActor(verifier), after))).toBe("not_found");
    expect(await refusal(answer(as(await createUser(database.db)), after))).toBe("not_found");
    for (const early of [new Date(start.getTime() - 1), start, new Date(end.getTime() - 60_000)])
      expect(await refusal(answer(artistActor(member), early))).toBe("conflict:not_ended");
    expect(
      await database.db
        .select({ id: lineupConfirmations.id })
        .from(lineupConfirmations)
        .where(eq(lineupConfirmations.sessionId, id)),
    ).toEqual([]);
    expect(await refusal(answer(artistActor(member), after))).toBe("ok");
    expect(await refusal(answer(artistActor(member), after))).toBe("conflict:already_answered");
    expect(
      await refusal(
        answerLineup(database, artistActor(member), {
          sessionId: "not-a-uuid",
          answer: "declined",
          now: after,
        }),
      ),
    ).toBe("not_found");
  });

  it("the session page offers the question to a joined collaborator only, after the end", async () => {
    const owner = await artist("Page Owner");
    const member = await artist("Page Member");
    const playing = await createSession(database.db, owner.artistId, {
      startTime: new Date(Date.now() - HOUR),
    });
    await joinAsCollaborator(playing, member);
    expect(
      (await getSessionDetail(database, artistActor(member), playing))?.viewerLineup,
    ).toMatchObject({ joined: true, answer: null, canAnswer: false });
    const past = await createSession(database.db, owner.artistId, {
      startTime: new Date(Date.now() - 2 * HOUR),
    });
    await joinAsCollaborator(past, member);
    const forMember = await getSessionDetail(database, artistActor(member), past);
    expect(forMember?.viewerLineup).toMatchObject({ joined: true, answer: null, canAnswer: true });
    expect((await getSessionDetail(database, artistActor(owner), past))?.viewerLineup).toBeNull();
    expect((await getSessionDetail(database, null, past))?.viewerLineup).toBeNull();
    await answerLineup(database, artistActor(member), { sessionId: past, answer: "declined" });
    const answered = await getSessionDetail(database, artistActor(member), past);
    expect(answered?.viewerLineup).toMatchObject({ answer: "declined", canAnswer: false });
    expect(answered?.lineupAnswers.map((a) => a.answer)).toEqual(["declined"]);
  });
});

describe("evidence: each upload's SHA-256, computed as it streams", () => {
  /** A short mono 8 kHz WAV: a header and `samples` bytes of a ramp. */
  function wav(samples: number) {
    const header = Buffer.alloc(44);
    header.write("RIFF", 0);
    header.writeUInt32LE(36 + samples, 4);
    header.write("WAVE", 8);
    header.write("fmt ", 12);
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(1, 22);
    header.writeUInt32LE(8000, 24);
    header.writeUInt32LE(8000, 28);
    header.writeUInt16LE(1, 32);
    header.writeUInt16LE(8, 34);
    header.write("data", 36);
    header.writeUInt32LE(samples, 40);
    const body = Buffer.alloc(samples);
    for (let i = 0; i < samples; i++) body[i] = i % 251;
    return Buffer.concat([header, body]);
  }

  /** The bytes as a request body arrives: in chunks. */
  function streamOf(bytes: Buffer, chunk = 16 * 1024) {
    let offset = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(new Uint8Array(bytes.subarray(offset, offset + chunk)));
        offset += chunk;
      },
    });
  }

  const sha256sum = (bytes: Buffer) => {
    const file = path.join(dataDir, `sum-${Date.now()}.bin`);
    writeFileSync(file, bytes);
    return execFileSync("sha256sum", [file], { encoding: "utf8" }).split(" ")[0];
  };

  it("an audio file's hash is sha256sum of its bytes; an image's is that of the stored file; a new upload is new evidence", async () => {
    const owner = await artist("Evidence Eve");
    const id = await createSession(database.db, owner.artistId);
    const bytes = wav(300_000);
    const upload = (body: Buffer, fileName: string) =>
      uploadMedia(ctx, artistActor(owner), {
        sessionId: id,
        body: streamOf(body),
        declaredBytes: body.length,
        fileName,
        description: null,
      });
    const audio = await upload(bytes, "take.wav");
    expect(audio.sha256).toBe(sha256sum(bytes));
    const stored = await ctx.storage.get(audio.filePath);
    const chunks: Buffer[] = [];
    for await (const c of stored!.body) chunks.push(c as Buffer);
    expect(sha256sum(Buffer.concat(chunks))).toBe(audio.sha256);

    const png = await sharp({
      create: { width: 32, height: 24, channels: 3, background: "#335577" },
    })
      .png()
      .toBuffer();
    const photo = await upload(png, "stage.png");
    const storedPhoto = await ctx.storage.get(photo.filePath);
    const photoChunks: Buffer[] = [];
    for await (const c of storedPhoto!.body) photoChunks.push(c as Buffer);
    expect(photo.sha256).toBe(
      createHash("sha256").update(Buffer.concat(photoChunks)).digest("hex"),
    );

    // The same file again is another piece of evidence, with its own row; the page lists both.
    const again = await upload(bytes, "take.wav");
    expect(again.id).not.toBe(audio.id);
    expect(again.sha256).toBe(audio.sha256);
    const media = await listMedia(database, id);
    expect(media.map((m) => m.sha256)).toEqual([again.sha256, photo.sha256, audio.sha256]);
  });
});

describe("the client decides whether the venue is public", () => {
  it("hidden by default: the public sees '{event type}, {city}', the two parties see the venue", async () => {
    const owner = await artist("Venue Vik", "Mumbai");
    const client = await createUser(database.db, { firstName: "Cora" });
    const { bookingId, sessionId } = await completedBooking(owner, client, {
      rate: { showVenue: false },
    });
    const publicView = await getSessionDetail(database, null, sessionId!);
    expect(publicView).toMatchObject({
      title: "Live Show, Mumbai",
      venue: null,
      location: "Mumbai",
    });
    expect(publicView?.privateVenue).toBeNull();
    expect(JSON.stringify(publicView)).not.toContain("Blue Door");
    // Another artist is the public too.
    const other = await artist("Nosy Nia");
    expect(
      JSON.stringify(await getSessionDetail(database, artistActor(other), sessionId!)),
    ).not.toContain("Blue Door");
    expect((await getSessionDetail(database, artistActor(owner), sessionId!))?.privateVenue).toBe(
      "The Blue Door Club",
    );
    expect((await getSessionDetail(database, as(client), sessionId!))?.privateVenue).toBe(
      "The Blue Door Club",
    );
    // Lists, Recent Performances and the share page read the public row.
    const lists = JSON.stringify([
      await listSessionsForArtist(database, { artistId: owner.artistId }),
      await getRecentPerformances(database, null, { artistId: owner.artistId }),
      await listSessionsForArtist(database, {
        artistId: owner.artistId,
        query: { q: "blue door", type: "" },
      }),
    ]);
    expect(lists).not.toContain("Blue Door");
    const link = await createSharingLink(
      { ...ctx, env: { appUrl: new URL("http://gigs.test") } },
      artistActor(owner),
      {
        sessionId: sessionId!,
        maxUses: null,
      },
    );
    const token = decodeURIComponent(link.url.split("/join-session/")[1] ?? "");
    expect(JSON.stringify(await checkSharingToken(database, token))).not.toContain("Blue Door");
    // The booking keeps it for its parties.
    expect((await getBooking(ctx, as(client), bookingId))?.venue).toBe("The Blue Door Club");
    expect((await getBooking(ctx, as(client), bookingId))?.venuePublic).toBe(false);

    // The client changes their mind from the booking page: shown, then hidden again.
    await setVenueVisibility(ctx, as(client), { bookingId, showVenue: true });
    expect(await getSessionDetail(database, null, sessionId!)).toMatchObject({
      title: "Live Show at The Blue Door Club",
      venue: "The Blue Door Club",
    });
    await setVenueVisibility(ctx, as(client), { bookingId, showVenue: false });
    expect(await getSessionDetail(database, null, sessionId!)).toMatchObject({
      title: "Live Show, Mumbai",
      venue: null,
    });
  });

  it("ticked when rating: the venue is public at once", async () => {
    const owner = await artist("Open Olu", "Pune");
    const { sessionId } = await completedBooking(owner, await createUser(database.db), {
      rate: { showVenue: true },
    });
    expect(await getSessionDetail(database, null, sessionId!)).toMatchObject({
      title: "Live Show at The Blue Door Club",
      venue: "The Blue Door Club",
    });
  });

  it("only the booking's client chooses, and only once it is rated", async () => {
    const owner = await artist("Choice Chad");
    const client = await createUser(database.db);
    const unrated = await completedBooking(owner, client);
    const refusal = (run: Promise<unknown>) =>
      run.then(
        () => "ok",
        (e: { code?: string }) => e.code,
      );
    expect(
      await refusal(
        setVenueVisibility(ctx, as(client), { bookingId: unrated.bookingId, showVenue: true }),
      ),
    ).toBe("conflict");
    const rated = await completedBooking(owner, client, { daysAgo: 5, rate: { showVenue: false } });
    const byArtist = { ...as(owner.user), artistProfileId: owner.artistId };
    expect(
      await refusal(
        setVenueVisibility(ctx, byArtist, { bookingId: rated.bookingId, showVenue: true }),
      ),
    ).toBe("conflict");
    expect(
      await refusal(
        setVenueVisibility(ctx, as(await createUser(database.db)), {
          bookingId: rated.bookingId,
          showVenue: true,
        }),
      ),
    ).toBe("not_found");
    expect((await getSessionDetail(database, null, rated.sessionId!))?.venue).toBeNull();
  });
});

describe("discovery: at least N Client-verified gigs", () => {
  it("filters on the counter the sessions trigger keeps, and combines with the other filters", async () => {
    const location = `Ladder Town ${Date.now()}`;
    const none = await artist("Zero Zed", location);
    const one = await artist("One Oona", location);
    const three = await artist("Three Tara", location);
    const elsewhere = await artist("Three Elsewhere", `${location} North`);
    for (const [who, n] of [
      [one, 1],
      [three, 3],
      [elsewhere, 3],
    ] as const) {
      for (let i = 0; i < n; i++)
        await completedBooking(who, await createUser(database.db), {
          daysAgo: 3 + i,
          rate: { showVenue: false },
        });
    }
    const counts = await database.db
      .select({ id: artistProfiles.id, n: artistProfiles.clientVerifiedSessions })
      .from(artistProfiles)
      .where(sql`${artistProfiles.id} IN (${none.artistId}, ${one.artistId}, ${three.artistId})`);
    expect(Object.fromEntries(counts.map((c) => [c.id, c.n]))).toEqual({
      [none.artistId]: 0,
      [one.artistId]: 1,
      [three.artistId]: 3,
    });
    const find = async (clientVerified: number) =>
      (
        await searchArtists(database, null, {
          q: "",
          genre: "",
          location,
          date: "",
          page: 1,
          clientVerified,
          occasion: "",
          budget: 0,
          hours: 3,
          sort: "",
        })
      ).artists
        .map((a) => a.artistName)
        .sort();
    expect(await find(0)).toEqual(["One Oona", "Three Tara", "Zero Zed"]);
    expect(await find(1)).toEqual(["One Oona", "Three Tara"]);
    expect(await find(2)).toEqual(["Three Tara"]);
    expect(await find(4)).toEqual([]);
    // Deleting a gig's session counts down.
    const [gone] = await database.db
      .select({ id: musicSessions.id })
      .from(musicSessions)
      .where(eq(musicSessions.artistProfileId, three.artistId))
      .limit(1);
    await database.db.delete(musicSessions).where(eq(musicSessions.id, gone!.id));
    expect(await find(3)).toEqual([]);
  });
});
