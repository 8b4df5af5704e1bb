/**
 * Demo data for a fresh install: artists across the spec's genres and locations (one with a very
 * long name, whose sessions have long titles and venues, for phone-width pages), their sessions
 * (some peer-verified, some logged from rated bookings), 30 days of availability and the portfolio
 * every profile gets. Users and artists are made by seed/factories.ts, through the domain's own
 * createArtistProfile, like a real sign-up. Given the storage, every demo artist also gets a
 * picture, three featured stage photos and a short audio clip (seed/demo-media.ts), stored through
 * the app's own upload path. With payments through the embedded provider, every demo artist has
 * payouts set up and the demo client has a booking at each money stage (seed/demo-money.ts).
 * Seeding twice inserts nothing new (seedDemoData).
 */
import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { GENRES, LOCATIONS } from "~/features/artists/artists.constants";
import { setArtistAvatar } from "~/features/artists/artists.server";
import { slugify } from "~/features/artists/slug";
import { uploadMedia } from "~/features/media/media.server";
import { setMediaFeatured } from "~/features/portfolio/portfolio.server";
import type { PolicyCode } from "~/features/terms/terms-types";
import { queueCredentialRefresh } from "~/features/verification/credential-queue.server";
import { recordSessionLevel } from "~/features/verification/verification-levels.server";
import type { SignedInActor } from "~/lib/actor";
import { addDays, type IsoDate } from "~/lib/dates";
import type { Env } from "~/lib/env.server";
import type { Logger } from "~/lib/logger.server";
import type { Storage } from "~/lib/storage.server";
import type { Database } from "~db/client";
import type { EVENT_TYPES } from "~db/enums";
import {
  artistProfiles,
  availability,
  bookings,
  lineupConfirmations,
  musicSessions,
  peerVerifications,
  portfolios,
  sessionParticipants,
  users,
} from "~db/schema";
import { demoAvatar, demoMelodyWav, demoPhoto } from "./demo-media";
import { type SeedMoney, seedDemoMoney } from "./demo-money";
import {
  artistActor,
  type CreatedArtist,
  createArtist,
  createSession,
  createUser,
} from "./factories";

/** A UUID derived from a name, so the same demo user always gets the same id. */
export function stableId(name: string): string {
  const h = createHash("sha256").update(`gigledger-demo:${name}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

type DemoArtist = {
  name: string;
  first: string;
  last: string;
  genre: (typeof GENRES)[number];
  location: (typeof LOCATIONS)[number];
  experience: string;
  instruments: string;
  hourlyRate: number | null;
  /** For an artist who quotes each booking: "From ₹…" on the card (decision 064). */
  startingPrice?: number;
  bio: string;
  publicPortfolio: boolean;
  social: { instagram?: string; youtube?: string; facebook?: string };
  /** Where every one of the artist's demo gigs is (otherwise the venues take turns). */
  venue?: string;
  /** How many of SESSION_PLAN's sessions the artist has (otherwise 3 to 5, by position). */
  sessions?: number;
  /** The published cancellation policy (otherwise the default, moderate). */
  cancellationPolicy?: PolicyCode;
  /** The kinds of event played (discovery's occasion filter). */
  occasions: (typeof EVENT_TYPES)[number][];
};

/**
 * Each demo city's zone: a demo artist's booking times and "today" are wall-clock values there
 * (docs/product.md, "Artist profiles"). Every location has one, or this does not compile.
 */
export const DEMO_CITY_ZONES = {
  "New York NY": "America/New_York",
  "Los Angeles CA": "America/Los_Angeles",
  "San Francisco CA": "America/Los_Angeles",
  "Atlanta GA": "America/New_York",
  "Chicago IL": "America/Chicago",
  "New Delhi": "Asia/Kolkata",
} as const satisfies Record<(typeof LOCATIONS)[number], string>;

export const DEMO_ARTISTS: DemoArtist[] = [
  {
    name: "Maya Lindqvist",
    occasions: ["Live Show", "Wedding", "Private Event"],
    first: "Maya",
    last: "Lindqvist",
    genre: "Jazz",
    location: "New York NY",
    experience: "12 years",
    instruments: "Piano, Vocals",
    hourlyRate: 4500,
    bio: "Jazz pianist and vocalist leading a trio in Manhattan clubs; standards, bossa nova and originals for listening rooms and weddings.",
    publicPortfolio: true,
    social: {
      instagram: "https://instagram.com/mayalindqvist",
      youtube: "https://youtube.com/@mayalindqvist",
    },
  },
  {
    name: "Arjun Mehta",
    occasions: ["Wedding", "Corporate Event", "Private Event"],
    first: "Arjun",
    last: "Mehta",
    genre: "Bollywood",
    location: "New Delhi",
    experience: "8 years",
    instruments: "Vocals, Harmonium",
    hourlyRate: 3000,
    bio: "Playback-style singer for sangeet nights, corporate galas and unplugged Bollywood evenings, with a four-piece band on request.",
    publicPortfolio: true,
    social: { instagram: "https://instagram.com/arjunmehtalive" },
  },
  {
    name: "The Copper Wires",
    occasions: ["Live Show", "Private Event"],
    first: "Jess",
    last: "Okafor",
    genre: "Rock",
    location: "Chicago IL",
    experience: "6 years",
    instruments: "Electric Guitar, Bass, Drums",
    hourlyRate: 5200,
    bio: "Four-piece rock band covering the 70s to now, plus originals. Loud when you want it, tight always.",
    publicPortfolio: false,
    social: { facebook: "https://facebook.com/thecopperwires" },
  },
  {
    name: "Elena Vasquez",
    occasions: ["Wedding", "Recording Session", "Live Show"],
    first: "Elena",
    last: "Vasquez",
    genre: "Classical",
    location: "San Francisco CA",
    experience: "15 years",
    instruments: "Violin, Viola",
    hourlyRate: 6000,
    bio: "Conservatory-trained violinist; solo recitals, string quartet for ceremonies, and session work for film scores.",
    publicPortfolio: true,
    social: { youtube: "https://youtube.com/@elenavasquezviolin" },
  },
  {
    name: "DJ Kofi Mensah",
    occasions: ["Live Show", "Corporate Event", "Private Event"],
    first: "Kofi",
    last: "Mensah",
    genre: "Hip-Hop",
    location: "Atlanta GA",
    experience: "9 years",
    instruments: "Turntables, Sampler",
    hourlyRate: 3800,
    bio: "Hip-hop and R&B DJ and producer for clubs, campus events and brand launches; reads a room fast.",
    publicPortfolio: false,
    social: { instagram: "https://instagram.com/djkofimensah" },
  },
  {
    name: "Lily Chen",
    occasions: ["Private Event", "Live Show", "Wedding"],
    first: "Lily",
    last: "Chen",
    genre: "Pop",
    location: "Los Angeles CA",
    experience: "5 years",
    instruments: "Vocals, Keyboard",
    hourlyRate: 4000,
    bio: "Pop singer-songwriter with a live looping set; private events, rooftop shows and acoustic covers.",
    publicPortfolio: true,
    cancellationPolicy: "flexible",
    social: {
      instagram: "https://instagram.com/lilychenmusic",
      youtube: "https://youtube.com/@lilychen",
    },
  },
  {
    name: "Marcus Hale",
    occasions: ["Live Show", "Jam Session"],
    first: "Marcus",
    last: "Hale",
    genre: "Blues",
    location: "Chicago IL",
    experience: "20 years",
    instruments: "Guitar, Harmonica, Vocals",
    hourlyRate: null,
    startingPrice: 18000,
    bio: "Chicago blues guitarist and harmonica player; Sunday residencies, festivals and juke-joint nights.",
    publicPortfolio: false,
    social: {},
  },
  {
    name: "Sadie Brooks",
    occasions: ["Live Show", "Wedding"],
    first: "Sadie",
    last: "Brooks",
    genre: "Country",
    location: "Atlanta GA",
    experience: "7 years",
    instruments: "Acoustic Guitar, Banjo, Vocals",
    hourlyRate: 3500,
    bio: "Country and Americana songwriter playing honky-tonks, barn weddings and songwriter rounds.",
    publicPortfolio: true,
    social: { facebook: "https://facebook.com/sadiebrooksmusic" },
  },
  {
    name: "Rhea Kapoor",
    occasions: ["Live Show", "Recording Session", "Wedding"],
    first: "Rhea",
    last: "Kapoor",
    genre: "Classical",
    location: "New Delhi",
    experience: "10 years",
    instruments: "Sitar, Tanpura",
    hourlyRate: 2500,
    bio: "Hindustani classical sitarist; baithaks, fusion collaborations and recording sessions.",
    publicPortfolio: false,
    social: {},
  },
  {
    name: "Nina Okoro",
    occasions: ["Live Show", "Jam Session", "Corporate Event"],
    first: "Nina",
    last: "Okoro",
    genre: "Jazz",
    location: "Los Angeles CA",
    experience: "4 years",
    instruments: "Saxophone, Flute",
    hourlyRate: 3200,
    bio: "Tenor saxophonist for jazz brunches, cocktail hours and funk horn sections.",
    publicPortfolio: false,
    social: {},
  },
  {
    // Long names on purpose: pages must hold them at phone width.
    name: "The Extraordinarily Long-Named Lakeside Wedding Orchestra of Greater Bengaluru",
    occasions: ["Wedding", "Corporate Event"],
    first: "Ananya",
    last: "Raghunathan-Subramaniam",
    genre: "Classical",
    location: "New Delhi",
    experience: "11 years",
    instruments: "Violin, Cello, Veena, Flute, Mridangam, Tabla",
    hourlyRate: 8500,
    bio: "A twenty-two-piece orchestra for lakeside weddings, sangeet evenings and garden receptions: Carnatic and Western classical repertoire, arranged for every part of the day.",
    publicPortfolio: true,
    social: {},
    venue: "Lakeside Lawns and Botanical Gardens Pavilion, North Wing Terrace",
    sessions: 5, // all of them, the long-titled planned showcase included
  },
];

const DEMO_CLIENT = { first: "Priya", last: "Sharma", email: "priya.client@demo.gigledger.test" };
const VENUES = [
  "Blue Note",
  "The Green Room",
  "Riverside Hall",
  "Studio 9",
  "Lakeside Lawns",
  "The Loft",
];
/**
 * Each demo session and who vouched for it, so every level is reached honestly under the rules of
 * decision 046 (accounts two years old, confirmations a day after the end): the evening set by two
 * peers (Peer-confirmed), the studio session by one peer who has a client-verified gig of their own
 * (Peer-confirmed), the open jam by its lineup of two plus nobody else (Lineup-verified: two
 * voices, from outside the artist's circle). Booked gigs are Client-verified.
 */
const SESSION_PLAN = [
  { type: "performance", title: "Evening set", daysAgo: 40, minutes: 120, verifiers: 2 },
  { type: "recording", title: "Studio tracking", daysAgo: 25, minutes: 240, verifiers: 1 },
  { type: "jam", title: "Open jam", daysAgo: 12, minutes: 90, verifiers: 0, lineup: 2 },
  { type: "practice", title: "Repertoire practice", daysAgo: 3, minutes: 60, verifiers: 0 },
  { type: "performance", title: "Planned showcase", daysAgo: -10, minutes: 150, verifiers: 0 },
] as const;

/** What storing the demo pictures and sounds needs: the app's storage, its limits and a logger. */
export type SeedMedia = { env: Env; storage: Storage; logger: Logger };

/**
 * `media` left out: no pictures or sounds (tests that only need the rows). `money` (by default
 * media's environment and logger) left out too: no payouts and no paid bookings.
 */
export type SeedOptions = { today: IsoDate; media?: SeedMedia; money?: SeedMoney };

/**
 * Seeds the demo data. Users keep stable ids and the domain answers with the existing profile for
 * a user who has one, so a second run creates no artist; an artist's history (sessions,
 * verifications, bookings, availability, pictures and sounds) is written only in the run that
 * created the artist.
 */
export async function seedDemoData(
  database: Database,
  { today, media, money = media }: SeedOptions,
) {
  // One transaction: a failed seed leaves nothing behind, so the next start tries again.
  await database.transaction(async (db) => {
    const client = await createUser(db, {
      id: stableId("client"),
      firstName: DEMO_CLIENT.first,
      lastName: DEMO_CLIENT.last,
      email: DEMO_CLIENT.email,
      roles: ["client"],
    });
    const clientId = client.id;
    const artists = [];
    for (const [i, a] of DEMO_ARTISTS.entries()) artists.push(await createDemoArtist(db, a, i));
    const artistIds = artists.map((a) => a.artistId);
    // Pictures and sounds are drawn and stored while the rows go in: sharp works on its own
    // threads, so a fresh start waits for the slower of the two, not for both.
    const drawn = media ? DEMO_ARTISTS.map((a) => drawDemoMedia(a)) : [];
    const stored: Promise<void>[] = [];
    for (const [i, a] of DEMO_ARTISTS.entries()) {
      const artist = artists[i];
      if (!artist?.created) continue;
      const sessions = await insertHistory(db, { i, a, artistIds, clientId, today });
      const files = drawn[i];
      if (media && files)
        stored.push(files.then((f) => storeDemoMedia({ ...media, db }, artist, sessions, f)));
    }
    await settleAll<unknown>([...drawn, ...stored]);
    if (money && artists.every((a) => a.created))
      await seedDemoMoney(db, {
        ...money,
        client,
        artists: artists.map((artist, i) => ({
          artistId: artist.artistId,
          userId: artist.user.id,
          email: artist.user.email,
          legalName: artist.user.name,
          timeZone: DEMO_CITY_ZONES[(DEMO_ARTISTS[i] as DemoArtist).location],
          location: (DEMO_ARTISTS[i] as DemoArtist).location,
        })),
      });
    await recountRatings(db);
    // Each session's flags as the rules give them, now that every artist's history is in.
    const all = await db.select({ id: musicSessions.id }).from(musicSessions);
    for (const { id } of all) await recordSessionLevel(db, id);
    // Verified demo sessions get signed credentials like any other: queued for the worker.
    const verified = await db
      .select({ id: musicSessions.id })
      .from(musicSessions)
      .where(eq(musicSessions.isVerified, true));
    for (const { id } of verified) await queueCredentialRefresh(db, id);
  });
}

/** Demo accounts are two years old: their confirmations count (decision 046). */
const DEMO_ACCOUNT_AGE_DAYS = 730;

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Like Promise.all, but waits for every promise before failing with the first failure, so no write
 * is still running when the transaction rolls back.
 */
async function settleAll<T>(promises: Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(promises);
  return results.map((r) => {
    if (r.status === "rejected") throw r.reason;
    return r.value;
  });
}

/** The artist through the domain's own path (seed/factories.ts), then the demo's own settings. */
async function createDemoArtist(db: Tx, a: DemoArtist, i: number) {
  const zone = DEMO_CITY_ZONES[a.location];
  const artist = await createArtist(
    { db },
    {
      user: {
        id: stableId(`user:${a.name}`),
        firstName: a.first,
        lastName: a.last,
        email: `${slugify(a.name)}@demo.gigledger.test`,
      },
      name: a.name,
      bio: a.bio,
      genre: a.genre,
      location: a.location,
      experience: a.experience,
      instruments: a.instruments,
      hourlyRate: a.hourlyRate,
      startingPrice: a.startingPrice ?? null,
      timeZone: zone,
      ...(a.cancellationPolicy ? { cancellationPolicy: a.cancellationPolicy } : {}),
      ...a.social,
    },
  );
  // Demo artists seeded before they said which occasions they play get theirs.
  await db
    .update(artistProfiles)
    .set({ occasions: a.occasions })
    .where(
      and(eq(artistProfiles.id, artist.artistId), sql`${artistProfiles.occasions} = '{}'::text[]`),
    );
  // A demo artist who quotes, seeded before starting prices, gets theirs.
  if (a.startingPrice !== undefined)
    await db
      .update(artistProfiles)
      .set({ startingPrice: a.startingPrice })
      .where(
        and(
          eq(artistProfiles.id, artist.artistId),
          sql`${artistProfiles.startingPrice} IS NULL AND ${artistProfiles.hourlyRate} IS NULL`,
        ),
      );
  // Demo artists seeded before they had their city's zone still have India's (the column's
  // default): they move to their city's.
  if (!artist.created && zone !== "Asia/Kolkata") {
    await db
      .update(artistProfiles)
      .set({ timeZone: zone })
      .where(
        and(
          eq(artistProfiles.id, artist.artistId),
          eq(artistProfiles.location, a.location),
          eq(artistProfiles.timeZone, "Asia/Kolkata"),
        ),
      );
  }
  if (artist.created) {
    await db
      .update(users)
      .set({ createdAt: sql`now() - ${DEMO_ACCOUNT_AGE_DAYS} * interval '1 day'` })
      .where(eq(users.id, artist.user.id));
    await db
      .update(artistProfiles)
      .set({ isAvailable: i % 4 !== 3 })
      .where(eq(artistProfiles.id, artist.artistId));
    await db
      .update(portfolios)
      .set({
        description: `Selected performances and recordings by ${a.name}.`,
        isPublic: a.publicPortfolio,
      })
      .where(eq(portfolios.artistProfileId, artist.artistId));
  }
  return artist;
}

async function insertHistory(
  db: Tx,
  {
    i,
    a,
    artistIds,
    clientId,
    today,
  }: { i: number; a: DemoArtist; artistIds: string[]; clientId: string; today: IsoDate },
) {
  const now = new Date(`${today}T12:00:00Z`);
  const artistId = artistIds[i] as string;
  const venueAt = (n: number) => a.venue ?? (VENUES[n % VENUES.length] as string);

  // Sessions: earlier artists in the list have more verified history, so rankings differ.
  const plan = SESSION_PLAN.slice(0, a.sessions ?? 5 - (i % 3));
  const sessions: { id: string; title: string; type: string }[] = [];
  for (const [j, s] of plan.entries()) {
    const verifierCount = i < 6 ? s.verifiers : 0;
    const venue = venueAt(i + j);
    const sessionId = await createSession(db, artistId, {
      title: `${s.title} — ${venue}`,
      sessionType: s.type,
      startTime: new Date(now.getTime() - s.daysAgo * 86_400_000),
      // Logged when it started (a planned one: now).
      createdAt: new Date(now.getTime() - Math.max(s.daysAgo, 0) * 86_400_000),
      durationMinutes: s.minutes,
      venue,
      location: a.location,
      description: `${s.title} with ${a.instruments.toLowerCase()}.`,
      instrumentsUsed: a.instruments.split(",").map((x) => x.trim()),
      genres: [a.genre],
      tags: j === 0 ? ["live", "featured"] : [],
      ...(verifierCount > 0 ? { peerVerificationScore: 100 } : {}),
    });
    sessions.push({ id: sessionId, title: `${s.title} — ${venue}`, type: s.type });
    // A day after the session ended: confirmations count only after the fact.
    const after = new Date(now.getTime() - (s.daysAgo - 1) * 86_400_000 + s.minutes * 60_000);
    // Two peers (the next two artists), or one (three on, among those with booked gigs).
    const verifiers =
      verifierCount === 2
        ? [artistIds[(i + 1) % artistIds.length], artistIds[(i + 2) % artistIds.length]]
        : verifierCount === 1
          ? [artistIds[(i + 3) % 7]]
          : [];
    for (const verifierId of verifiers as string[]) {
      await db.insert(sessionParticipants).values({
        sessionId,
        artistProfileId: verifierId,
        participationType: "verifier",
        verificationStatus: "verified",
      });
      await db
        .insert(peerVerifications)
        .values({ sessionId, verifiedByArtistId: verifierId, trustScore: 100, createdAt: after });
    }
    // The first two artists planned their open jam with a lineup of two, who confirmed it.
    const lineup = "lineup" in s && i < 2 ? s.lineup : 0;
    for (let m = 0; m < lineup; m++) {
      const memberId = artistIds[(i + 4 + m) % artistIds.length] as string;
      await db.insert(sessionParticipants).values({
        sessionId,
        artistProfileId: memberId,
        participationType: "collaborator",
        verificationStatus: "verified",
      });
      await db
        .insert(lineupConfirmations)
        .values({ sessionId, artistProfileId: memberId, answer: "confirmed", createdAt: after });
    }
  }

  // Completed, rated gigs booked through GigLedger, each logged as a verified session.
  const ratings = i < 7 ? [5, 4 + (i % 2)].slice(0, 1 + (i % 2)) : [];
  for (const [k, rating] of ratings.entries()) {
    const eventDate = addDays(today, -(20 + k * 7 + i));
    const hours = 2 + k;
    const venue = venueAt(i + k + 2);
    const eventType = k === 0 ? "Private Event" : "Wedding";
    const [booking] = await db
      .insert(bookings)
      .values({
        artistProfileId: artistId,
        clientUserId: clientId,
        eventDate,
        durationHours: hours,
        venue,
        eventType,
        message: "Looking forward to it!",
        status: "completed",
        totalAmount: hours * (a.hourlyRate ?? 150),
        rating,
        review:
          rating === 5 ? "Wonderful evening, guests loved it." : "Great set, arrived on time.",
        ratingGiven: true,
        // The first client showed the venue publicly, the second kept it private (decision 017).
        venuePublic: k === 0,
      })
      .returning({ id: bookings.id });
    await createSession(db, artistId, {
      ...(k === 0
        ? { title: `${eventType} at ${venue}`, venue }
        : { title: `${eventType}, ${a.location}`, venue: null }),
      sessionType: "performance",
      startTime: new Date(`${eventDate}T14:00:00Z`),
      // Logged by the rating, the day after the gig.
      createdAt: new Date(`${addDays(eventDate, 1)}T12:00:00Z`),
      durationMinutes: hours * 60,
      location: a.location,
      bookingId: booking?.id,
    });
  }

  // 30 days of availability from today: mostly available, some booked or unavailable.
  const days = Array.from({ length: 30 }, (_, d) => d);
  await db.insert(availability).values(
    days.map((d) => ({
      artistProfileId: artistId,
      date: addDays(today, d),
      status:
        (d + i) % 7 === 5
          ? ("booked" as const)
          : (d + i) % 9 === 4
            ? ("unavailable" as const)
            : ("available" as const),
    })),
  );
  return sessions;
}

type DemoFiles = {
  avatar: Buffer;
  photos: { bytes: Buffer; caption: string }[];
  audio: { bytes: Buffer; title: string };
};

/** The artist's picture, three stage photos (captioned with their gigs) and a tune. */
async function drawDemoMedia(a: DemoArtist): Promise<DemoFiles> {
  const venue = (n: number) => a.venue ?? (VENUES[n % VENUES.length] as string);
  const captions = ["On stage", "Sound check", "Encore"].map(
    (moment, k) => `${moment} at ${venue(k + 1)}`,
  );
  const [avatar, ...photos] = await Promise.all([
    demoAvatar(a.name),
    ...captions.map((_, k) => demoPhoto(a.name, k)),
  ]);
  return {
    avatar: avatar as Buffer,
    photos: photos.map((bytes, k) => ({ bytes, caption: captions[k] as string })),
    audio: { bytes: demoMelodyWav(a.name), title: `${a.name} — live excerpt` },
  };
}

/**
 * Stores an artist's demo files the way the app stores an upload: the picture through
 * setArtistAvatar, the photos and the clip through the media upload handler (type from the bytes,
 * the same limits, re-encoding and previews), all featured in the artist's portfolio.
 */
async function storeDemoMedia(
  ctx: SeedMedia & { db: Tx },
  artist: CreatedArtist,
  sessions: { id: string; title: string; type: string }[],
  files: DemoFiles,
) {
  const actor = artistActor(artist);
  const ctxOf = { db: ctx.db, storage: ctx.storage };
  const stage = sessions.find((s) => s.type === "performance") ?? sessions[0];
  const studio = sessions.find((s) => s.type === "recording") ?? stage;
  if (!stage || !studio) return;
  const asArtist: UploadCtx = { db: ctx.db, env: ctx.env, storage: ctx.storage };
  // Side by side: the image work runs on sharp's threads while the rows go in.
  const [, ...ids] = await settleAll([
    setArtistAvatar(
      ctxOf,
      actor,
      new File([new Uint8Array(files.avatar)], "portrait.png", { type: "image/png" }),
    ),
    ...files.photos.map((photo, k) =>
      upload(asArtist, actor, stage.id, {
        bytes: photo.bytes,
        fileName: `photo-${k + 1}.jpg`,
        description: photo.caption,
      }),
    ),
    upload(asArtist, actor, studio.id, {
      bytes: files.audio.bytes,
      fileName: "live-excerpt.wav",
      description: files.audio.title,
    }),
  ]);
  await setMediaFeatured(ctxOf, actor, { mediaIds: ids, featured: true });
}

/** One file through the domain's upload (the same checks as PUT /api/sessions/:id/media). */
async function upload(
  ctx: UploadCtx,
  actor: SignedInActor,
  sessionId: string,
  file: { bytes: Buffer; fileName: string; description: string },
): Promise<string> {
  const bytes = new Uint8Array(file.bytes);
  const media = await uploadMedia(ctx, actor, {
    sessionId,
    body: new Blob([bytes]).stream(),
    declaredBytes: bytes.length,
    fileName: file.fileName,
    description: file.description,
  });
  return media.id;
}

type UploadCtx = Parameters<typeof uploadMedia>[0];

/** Rating and review count follow from the rated bookings. */
async function recountRatings(db: Tx) {
  await db.execute(sql`
    UPDATE artist_profiles ap SET
      rating = r.avg_rating,
      total_reviews = r.reviews
    FROM (
      SELECT artist_profile_id, round(avg(rating)::numeric, 2) AS avg_rating, count(*)::int AS reviews
      FROM bookings WHERE rating IS NOT NULL GROUP BY artist_profile_id
    ) r
    WHERE ap.id = r.artist_profile_id AND (ap.rating <> r.avg_rating OR ap.total_reviews <> r.reviews)
  `);
}

export async function isDatabaseEmpty(db: Database) {
  const rows = await db.select({ id: artistProfiles.id }).from(artistProfiles).limit(1);
  return rows.length === 0;
}
