import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bookings,
  lineupConfirmations,
  musicSessions,
  peerVerifications,
  sessionParticipants,
  users,
} from "~db/schema";
import { createArtist, createSession, createUser } from "~seed/factories";
import { createTestDatabase } from "../../../tests/support/test-database";
import type { VerificationLevel } from "./verification-levels";
import { recordSessionLevel, sessionLevel } from "./verification-levels.server";

/**
 * The rules of docs/decisions/046 on small graphs of artists, on PGlite and PostgreSQL: who
 * confirmed whose session, when, from how old an account. Each row of a table builds its own
 * artists, so the rows do not see each other.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.dispose();
});

const DAY = 86_400_000;
/** Every session of these graphs starts here and lasts 90 minutes. */
const START = new Date("2026-06-01T20:00:00Z");
const END = new Date(START.getTime() + 90 * 60_000);
/** A day after the end: when confirmations are given unless told. */
const AFTER = new Date(END.getTime() + DAY);

type Person = {
  /** Days between the account's creation and the confirmation (a year unless told). */
  ageDays?: number;
  /** Whether they had logged a session of their own by then (yes unless told). */
  hasSession?: boolean;
  /** A Client-verified gig of their own. */
  clientGig?: boolean;
};

/** An artist as the graph needs them: an account of that age, a session or not, a client gig. */
async function person(label: string, p: Person = {}) {
  const a = await createArtist({ db: database.db }, { name: `${label} ${crypto.randomUUID()}` });
  const created = new Date(AFTER.getTime() - (p.ageDays ?? 365) * DAY);
  await database.db.update(users).set({ createdAt: created }).where(eq(users.id, a.user.id));
  if (p.hasSession ?? true)
    await createSession(database.db, a.artistId, {
      title: "Own rehearsal",
      sessionType: "practice",
      startTime: created,
      createdAt: created,
    });
  if (p.clientGig) {
    const client = await createUser(database.db);
    const [booking] = await database.db
      .insert(bookings)
      .values({
        artistProfileId: a.artistId,
        clientUserId: client.id,
        eventDate: "2026-05-01",
        startTime: "19:30",
        durationHours: 2,
        venue: "Hall",
        eventType: "Live Show",
        totalAmount: 4000,
        status: "completed",
        rating: 5,
        ratingGiven: true,
      })
      .returning({ id: bookings.id });
    await createSession(database.db, a.artistId, {
      title: "Booked gig",
      startTime: new Date("2026-05-01T19:30:00Z"),
      bookingId: booking?.id,
      createdAt: created,
    });
  }
  return a;
}

type Edge = {
  /** Who confirms. */
  by: string;
  /** Whose session: the session of the table row, or a fresh ended session of this artist. */
  of: string;
  /** As a lineup member (joined the planned session) rather than through a share link. */
  lineup?: boolean;
  /** Minutes after the session's end (a day unless told; negative: before the end). */
  minutesAfterEnd?: number;
};

type Graph = {
  people: Record<string, Person>;
  /** Confirmations of other sessions, given first: they shape the graph around the session. */
  before?: Edge[];
  /** Confirmations of the session judged: A's session. */
  of: Edge[];
  /** Collaborators who joined A's session without answering. */
  silent?: string[];
};

/** Table rows as written (what, graph, level), titled "what → level". */
const table = (rows: [string, Graph, VerificationLevel][]) =>
  rows.map(([what, graph, level]) => [what, level, graph] as const);

/** Builds the graph and returns the level of A's judged session. */
async function levelIn(graph: Graph): Promise<{ level: VerificationLevel }> {
  const artists = new Map<string, Awaited<ReturnType<typeof person>>>();
  for (const [label, p] of Object.entries({ A: {}, ...graph.people }))
    artists.set(label, await person(label, p));
  const id = (label: string) => {
    const a = artists.get(label);
    if (!a) throw new Error(`no ${label}`);
    return a.artistId;
  };
  const confirm = async (sessionId: string, edge: Edge, at: Date) => {
    if (edge.lineup) {
      await database.db.insert(sessionParticipants).values({
        sessionId,
        artistProfileId: id(edge.by),
        participationType: "collaborator",
        verificationStatus: "verified",
      });
      await database.db.insert(lineupConfirmations).values({
        sessionId,
        artistProfileId: id(edge.by),
        answer: "confirmed",
        createdAt: at,
      });
    } else {
      await database.db.insert(peerVerifications).values({
        sessionId,
        verifiedByArtistId: id(edge.by),
        trustScore: 100,
        createdAt: at,
      });
    }
  };
  const when = (edge: Edge) => new Date(END.getTime() + (edge.minutesAfterEnd ?? 24 * 60) * 60_000);
  // Earlier gigs of the others, a year back so they do not fall in the judged pair's 90 days.
  for (const edge of graph.before ?? []) {
    const start = new Date(START.getTime() - 200 * DAY);
    const other = await createSession(database.db, id(edge.of), { startTime: start });
    await confirm(other, edge, new Date(start.getTime() + DAY));
  }
  const judged = await createSession(database.db, id("A"), { startTime: START });
  for (const label of graph.silent ?? [])
    await database.db.insert(sessionParticipants).values({
      sessionId: judged,
      artistProfileId: id(label),
      participationType: "collaborator",
      verificationStatus: "verified",
    });
  for (const edge of graph.of) await confirm(judged, edge, when(edge));
  const found = await sessionLevel(database, judged);
  return { level: found.level };
}

describe("more than one voice, only after the fact, established accounts", () => {
  it.each(
    table([
      ["nobody", { people: {}, of: [] }, "self_logged"],
      [
        "self: A confirms A",
        {
          people: { B: {} },
          of: [
            { by: "A", of: "A" },
            { by: "B", of: "A" },
          ],
        },
        "self_logged",
      ],
      ["one voice", { people: { B: {} }, of: [{ by: "B", of: "A" }] }, "self_logged"],
      [
        "two voices",
        {
          people: { B: {}, C: {} },
          of: [
            { by: "B", of: "A" },
            { by: "C", of: "A" },
          ],
        },
        "peer_confirmed",
      ],
      [
        "one voice with a client-verified gig",
        { people: { B: { clientGig: true } }, of: [{ by: "B", of: "A" }] },
        "peer_confirmed",
      ],
      [
        "two voices, one given a minute before the end",
        {
          people: { B: {}, C: {} },
          of: [
            { by: "B", of: "A" },
            { by: "C", of: "A", minutesAfterEnd: -1 },
          ],
        },
        "self_logged",
      ],
      [
        "two voices, one given a minute after the end",
        {
          people: { B: {}, C: {} },
          of: [
            { by: "B", of: "A" },
            { by: "C", of: "A", minutesAfterEnd: 1 },
          ],
        },
        "peer_confirmed",
      ],
      [
        "two voices, one from an account 6 days old",
        {
          people: { B: {}, C: { ageDays: 6 } },
          of: [
            { by: "B", of: "A" },
            { by: "C", of: "A" },
          ],
        },
        "self_logged",
      ],
      [
        "two voices, one from an account 7 days old",
        {
          people: { B: {}, C: { ageDays: 7 } },
          of: [
            { by: "B", of: "A" },
            { by: "C", of: "A" },
          ],
        },
        "peer_confirmed",
      ],
      [
        "two voices, one from an artist with no session of their own",
        {
          people: { B: {}, C: { hasSession: false } },
          of: [
            { by: "B", of: "A" },
            { by: "C", of: "A" },
          ],
        },
        "self_logged",
      ],
      [
        "a week-old voice with a client gig still counts for nothing",
        { people: { B: { ageDays: 3, clientGig: true } }, of: [{ by: "B", of: "A" }] },
        "self_logged",
      ],
    ]),
  )("%s → %s", async (_what, level, graph) => {
    expect((await levelIn(graph)).level).toBe(level);
  });
});

describe("the lineup: a duo needs a second voice, a ring caps at Peer-confirmed", () => {
  it.each(
    table([
      [
        "a duo alone",
        { people: { B: {} }, of: [{ by: "B", of: "A", lineup: true }] },
        "self_logged",
      ],
      [
        "a duo and a peer",
        {
          people: { B: {}, P: {} },
          of: [
            { by: "B", of: "A", lineup: true },
            { by: "P", of: "A" },
          ],
        },
        "lineup_verified",
      ],
      [
        "a duo and a peer from a 2-day-old account",
        {
          people: { B: {}, P: { ageDays: 2 } },
          of: [
            { by: "B", of: "A", lineup: true },
            { by: "P", of: "A" },
          ],
        },
        "self_logged",
      ],
      [
        "a duo confirmed at the start (the old trick) and a peer",
        {
          people: { B: {}, P: {} },
          of: [
            { by: "B", of: "A", lineup: true, minutesAfterEnd: -90 },
            { by: "P", of: "A" },
          ],
        },
        "self_logged",
      ],
      [
        "a trio, both confirmed",
        {
          people: { B: {}, C: {} },
          of: [
            { by: "B", of: "A", lineup: true },
            { by: "C", of: "A", lineup: true },
          ],
        },
        "lineup_verified",
      ],
      [
        "a trio, one still silent, and a peer",
        {
          people: { B: {}, C: {}, P: {} },
          silent: ["C"],
          of: [
            { by: "B", of: "A", lineup: true },
            { by: "P", of: "A" },
          ],
        },
        "peer_confirmed",
      ],
    ]),
  )("%s → %s", async (_what, level, graph) => {
    expect((await levelIn(graph)).level).toBe(level);
  });
});

describe("independence: pairs count once per 90 days, rings stay at Peer-confirmed", () => {
  it.each(
    table([
      [
        "ring of two: A and B only confirm each other",
        {
          people: { B: {} },
          before: [{ by: "A", of: "B" }],
          of: [{ by: "B", of: "A", lineup: true }],
        },
        "self_logged",
      ],
      [
        "ring of three: A, B and C only confirm each other, lineup of B and C",
        {
          people: { B: {}, C: {} },
          before: [
            { by: "A", of: "B" },
            { by: "C", of: "B" },
            { by: "A", of: "C" },
            { by: "B", of: "C" },
          ],
          of: [
            { by: "B", of: "A", lineup: true },
            { by: "C", of: "A", lineup: true },
          ],
        },
        "peer_confirmed",
      ],
      [
        "ring of three, one way round (A→C→B→A), lineup of B and C",
        {
          people: { B: {}, C: {} },
          before: [
            { by: "A", of: "C" },
            { by: "C", of: "B" },
          ],
          of: [
            { by: "B", of: "A", lineup: true },
            { by: "C", of: "A", lineup: true },
          ],
        },
        "peer_confirmed",
      ],
      [
        "a ring of three plus one outsider who confirmed B",
        {
          people: { B: {}, C: {}, O: {} },
          before: [
            { by: "A", of: "B" },
            { by: "C", of: "B" },
            { by: "A", of: "C" },
            { by: "B", of: "C" },
            { by: "O", of: "B" },
          ],
          of: [
            { by: "B", of: "A", lineup: true },
            { by: "C", of: "A", lineup: true },
          ],
        },
        "lineup_verified",
      ],
      [
        "a ring of three plus one outsider confirming A's session",
        {
          people: { B: {}, C: {}, O: {} },
          before: [
            { by: "A", of: "B" },
            { by: "C", of: "B" },
            { by: "A", of: "C" },
            { by: "B", of: "C" },
          ],
          of: [
            { by: "B", of: "A", lineup: true },
            { by: "C", of: "A", lineup: true },
            { by: "O", of: "A" },
          ],
        },
        "lineup_verified",
      ],
      [
        "a ring of two whose partner has a client gig",
        {
          people: { B: { clientGig: true }, P: {} },
          before: [{ by: "A", of: "B" }],
          of: [
            { by: "B", of: "A", lineup: true },
            { by: "P", of: "A" },
          ],
        },
        "lineup_verified",
      ],
    ]),
  )("%s → %s", async (_what, level, graph) => {
    expect((await levelIn(graph)).level).toBe(level);
  });

  it.each([
    ["89 days", 89, "self_logged"],
    ["90 days", 90, "peer_confirmed"],
  ] as const)("the same two artists, %s apart → %s", async (_what, days, level) => {
    const a = await person("A");
    const [b, c] = [await person("B"), await person("C")];
    const first = await createSession(database.db, a.artistId, { startTime: START });
    const second = await createSession(database.db, a.artistId, {
      startTime: new Date(START.getTime() + days * DAY),
    });
    for (const [sessionId, at] of [
      [first, AFTER],
      [second, new Date(AFTER.getTime() + days * DAY)],
    ] as const) {
      for (const by of [b, c])
        await database.db
          .insert(peerVerifications)
          .values({ sessionId, verifiedByArtistId: by.artistId, trustScore: 100, createdAt: at });
    }
    expect((await sessionLevel(database, first)).level).toBe("peer_confirmed");
    expect((await sessionLevel(database, second)).level).toBe(level);
  });
});

describe("the stored flags follow the level", () => {
  it("writes is_verified and the method from the rules, and takes them back", async () => {
    const a = await person("A");
    const b = await person("B");
    const id = await createSession(database.db, a.artistId, { startTime: START });
    // A flag the old rules set for one friend's click.
    await database.db
      .update(musicSessions)
      .set({ isVerified: true, verificationMethod: "peer" })
      .where(eq(musicSessions.id, id));
    await database.db
      .insert(peerVerifications)
      .values({ sessionId: id, verifiedByArtistId: b.artistId, trustScore: 100, createdAt: AFTER });
    expect((await recordSessionLevel(database.db, id)).level).toBe("self_logged");
    const row = async () =>
      (
        await database.db
          .select({ verified: musicSessions.isVerified, method: musicSessions.verificationMethod })
          .from(musicSessions)
          .where(eq(musicSessions.id, id))
      )[0];
    expect(await row()).toEqual({ verified: false, method: null });
    const c = await person("C");
    await database.db
      .insert(peerVerifications)
      .values({ sessionId: id, verifiedByArtistId: c.artistId, trustScore: 25, createdAt: AFTER });
    await recordSessionLevel(database.db, id);
    expect(await row()).toEqual({ verified: true, method: "peer" });
  });
});
