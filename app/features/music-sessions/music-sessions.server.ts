import { and, count, desc, eq, sql } from "drizzle-orm";
import { sessionWithOwner } from "~/features/verification/session-columns.server";
import {
  type SessionLevel,
  VERIFICATION_METHOD_OF,
} from "~/features/verification/verification-levels";
import { sessionLevel, sessionLevels } from "~/features/verification/verification-levels.server";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { nowInZone, toZonedInputValue, zonedInputToUtc } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import { refuse } from "~/lib/problem";
import {
  artistProfiles,
  bookings,
  lineupConfirmations,
  musicSessions,
  peerVerifications,
  sessionMedia,
  sessionParticipants,
} from "~db/schema";
import { getLineupState } from "./lineup.server";
import {
  canAnswerLineup,
  canChangeSessionSchedule,
  canEditSession,
  canEditSessionDetails,
  canLogSession,
} from "./music-sessions.policy";
import type { SessionForm, SessionListQuery, SessionType } from "./music-sessions.schema";

export type SessionCard = {
  id: string;
  artistProfileId: string;
  title: string;
  sessionType: SessionType;
  startTime: Date;
  durationMinutes: number;
  venue: string | null;
  instrumentsUsed: string[];
  genres: string[];
  isVerified: boolean;
  /** Its rung on the verification ladder, who verified it and when. */
  level: SessionLevel;
  /** The owner's time zone: the start time is a wall-clock time there. */
  timeZone: string;
  /** True when the artist appears on this session as a collaborator, not as its owner. */
  listedAsCollaborator: boolean;
  /** The owner's artist name (a collaborator's copy says whose session it is). */
  ownerName: string;
};

const SESSION_LIST_LIMIT = 60;

const SELF_LOGGED: SessionLevel = { level: "self_logged", verifiers: [], reachedAt: null };

type DbCtx = Pick<AppContext, "db">;

/** `%text%` for LIKE, with the user's own % _ \ taken literally. */
function containsPattern(text: string) {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * An artist's history: their own sessions plus those they joined as a verified collaborator,
 * each once, newest first. Search covers title, description and venue. Public: anyone may list.
 */
export async function listSessionsForArtist(
  { db }: DbCtx,
  input: { artistId: string; query?: SessionListQuery; limit?: number },
): Promise<SessionCard[]> {
  const { artistId, query = { q: "", type: "" }, limit = SESSION_LIST_LIMIT } = input;
  const joined = sql`EXISTS (SELECT 1 FROM ${sessionParticipants} p
    WHERE p.session_id = ${musicSessions.id} AND p.artist_profile_id = ${artistId}
      AND p.participation_type = 'collaborator' AND p.verification_status = 'verified')`;
  const conditions = [sql`(${musicSessions.artistProfileId} = ${artistId} OR ${joined})`];
  if (query.q) {
    conditions.push(
      sql`lower(${musicSessions.title} || ' ' || coalesce(${musicSessions.description}, '') || ' ' || coalesce(${musicSessions.venue}, '')) LIKE ${containsPattern(query.q)}`,
    );
  }
  if (query.type) conditions.push(eq(musicSessions.sessionType, query.type));
  const rows = await db
    .select({
      id: musicSessions.id,
      artistProfileId: musicSessions.artistProfileId,
      title: musicSessions.title,
      sessionType: musicSessions.sessionType,
      startTime: musicSessions.startTime,
      durationMinutes: musicSessions.durationMinutes,
      venue: musicSessions.venue,
      instrumentsUsed: musicSessions.instrumentsUsed,
      genres: musicSessions.genres,
      isVerified: musicSessions.isVerified,
      timeZone: artistProfiles.timeZone,
      ownerName: artistProfiles.artistName,
    })
    .from(musicSessions)
    .innerJoin(artistProfiles, eq(artistProfiles.id, musicSessions.artistProfileId))
    .where(and(...conditions))
    .orderBy(desc(musicSessions.startTime), musicSessions.id)
    .limit(limit);
  const levels = await sessionLevels(
    { db },
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const level = levels.get(r.id) ?? SELF_LOGGED;
    return {
      ...r,
      level,
      isVerified: level.level !== "self_logged",
      listedAsCollaborator: r.artistProfileId !== artistId,
    };
  });
}

export type SessionsSectionData = {
  artistId: string;
  artistName: string;
  isOwner: boolean;
  query: SessionListQuery;
  sessions: SessionCard[];
  /** True when the artist has no sessions at all (as opposed to none matching the search). */
  hasNone: boolean;
  /** The artist's own time zone (each card shows its session in its owner's zone). */
  timeZone: string;
};

/** The artist's time zone; session times are wall-clock times there. */
async function artistTimeZone({ db }: DbCtx, artistId: string): Promise<string | null> {
  const [row] = await db
    .select({ timeZone: artistProfiles.timeZone })
    .from(artistProfiles)
    .where(eq(artistProfiles.id, artistId));
  return row?.timeZone ?? null;
}

/** Everything the 'Musical Sessions & Portfolio' area needs, for a profile or the dashboard. */
export async function loadSessionsSection(
  ctx: DbCtx,
  viewer: Actor,
  input: { artistId: string; artistName: string; query: SessionListQuery },
): Promise<SessionsSectionData> {
  const { artistId, query } = input;
  const [sessions, timeZone] = await Promise.all([
    listSessionsForArtist(ctx, { artistId, query }),
    artistTimeZone(ctx, artistId),
  ]);
  const filtered = Boolean(query.q || query.type);
  const hasNone =
    sessions.length === 0 &&
    (!filtered || (await listSessionsForArtist(ctx, { artistId, limit: 1 })).length === 0);
  return {
    artistId,
    artistName: input.artistName,
    isOwner: canEditSession(viewer, { artistProfileId: artistId }),
    query,
    sessions,
    hasNone,
    timeZone: timeZone ?? "UTC",
  };
}

export type SessionDetail = Awaited<ReturnType<typeof getSessionDetail>>;

/**
 * A session with its owner, participants and peer verifications (its media: `listMedia`), and
 * whether the viewer may edit it; null when unknown. Public: anyone with the link may look.
 */
export async function getSessionDetail({ db }: DbCtx, viewer: Actor, sessionId: string) {
  if (!isUuid(sessionId)) return null;
  const [session] = await sessionWithOwner(db, sessionId, {
    artistSlug: artistProfiles.slug,
    venue: musicSessions.venue,
    description: musicSessions.description,
    instrumentsUsed: musicSessions.instrumentsUsed,
    genres: musicSessions.genres,
    tags: musicSessions.tags,
    isVerified: musicSessions.isVerified,
    peerVerificationScore: musicSessions.peerVerificationScore,
    verificationMethod: musicSessions.verificationMethod,
    bookingId: musicSessions.bookingId,
  });
  if (!session) return null;
  const [participants, verifications, level, lineupAnswers, viewerLineup, booking] =
    await Promise.all([
      db
        .select({
          id: sessionParticipants.id,
          artistProfileId: sessionParticipants.artistProfileId,
          artistName: artistProfiles.artistName,
          artistSlug: artistProfiles.slug,
          participationType: sessionParticipants.participationType,
          verificationStatus: sessionParticipants.verificationStatus,
          notes: sessionParticipants.notes,
          createdAt: sessionParticipants.createdAt,
        })
        .from(sessionParticipants)
        .innerJoin(artistProfiles, eq(artistProfiles.id, sessionParticipants.artistProfileId))
        .where(eq(sessionParticipants.sessionId, sessionId))
        .orderBy(sessionParticipants.createdAt),
      db
        .select({
          id: peerVerifications.id,
          artistName: artistProfiles.artistName,
          artistSlug: artistProfiles.slug,
          trustScore: peerVerifications.trustScore,
          verificationType: peerVerifications.verificationType,
          verificationLevel: peerVerifications.verificationLevel,
          notes: peerVerifications.notes,
          createdAt: peerVerifications.createdAt,
        })
        .from(peerVerifications)
        .innerJoin(artistProfiles, eq(artistProfiles.id, peerVerifications.verifiedByArtistId))
        .where(eq(peerVerifications.sessionId, sessionId))
        .orderBy(peerVerifications.createdAt),
      sessionLevel({ db }, sessionId),
      db
        .select({
          artistProfileId: lineupConfirmations.artistProfileId,
          artistName: artistProfiles.artistName,
          artistSlug: artistProfiles.slug,
          answer: lineupConfirmations.answer,
          at: lineupConfirmations.createdAt,
        })
        .from(lineupConfirmations)
        .innerJoin(artistProfiles, eq(artistProfiles.id, lineupConfirmations.artistProfileId))
        .where(eq(lineupConfirmations.sessionId, sessionId))
        .orderBy(lineupConfirmations.createdAt),
      getLineupState({ db }, viewer, sessionId),
      session.bookingId
        ? db
            .select({ venue: bookings.venue, clientUserId: bookings.clientUserId })
            .from(bookings)
            .where(eq(bookings.id, session.bookingId))
            .then((rows) => rows[0] ?? null)
        : null,
    ]);
  // A gig booked here whose client keeps the venue off the public history: its two parties
  // still see it (docs/product.md, "Ratings").
  const isParty =
    canEditSession(viewer, session) ||
    Boolean(viewer && booking?.clientUserId && booking.clientUserId === viewer.id);
  const privateVenue = booking && session.venue === null && isParty ? booking.venue : null;
  const state = {
    artistProfileId: session.artistProfileId,
    isVerified: session.isVerified,
    peerVerifications: verifications.length,
    verifiedParticipants: participants.filter((p) => p.verificationStatus === "verified").length,
  };
  const { bookingId: _booking, ...shown } = session;
  return {
    ...shown,
    // What the rules give now, not a flag a job has still to bring up to date.
    isVerified: level.level !== "self_logged",
    verificationMethod: VERIFICATION_METHOD_OF[level.level] as string | null,
    participants,
    verifications,
    level,
    lineupAnswers,
    /** The viewer's part in the lineup (null unless they joined), and whether they may answer. */
    viewerLineup: viewerLineup
      ? { ...viewerLineup, canAnswer: canAnswerLineup(viewer, viewerLineup) }
      : null,
    privateVenue,
    canEdit: canEditSession(viewer, session),
    canEditDetails: canEditSessionDetails(viewer, session),
    canChangeSchedule: canChangeSessionSchedule(viewer, state),
    /** The start as the edit form's datetime-local value, in the artist's zone. */
    startInput: toZonedInputValue(session.startTime, session.timeZone),
  };
}

const NO_PROFILE = "An artist profile is needed to log a session.";

/**
 * What the 'Log New Session' form starts with: the artist's time zone (the typed time is read
 * there) and "now" on the artist's clock.
 */
export async function newSessionDefaults(
  ctx: DbCtx,
  actor: Actor,
  now: Date = new Date(),
): Promise<{ timeZone: string; now: string }> {
  const timeZone = actor?.artistProfileId ? await artistTimeZone(ctx, actor.artistProfileId) : null;
  if (!timeZone || !canLogSession(actor)) refuse("forbidden", NO_PROFILE, { reason: "no_profile" });
  return { timeZone, now: nowInZone(timeZone, now) };
}

/**
 * Logs a session for the acting artist; collaborators start empty and join through a link. The
 * date and time typed are a wall-clock time in the artist's zone (see docs/product.md, Times and
 * dates), whatever the browser's zone.
 */
export async function createSession(
  ctx: DbCtx,
  actor: Actor,
  input: SessionForm,
): Promise<{ id: string }> {
  const timeZone = actor?.artistProfileId ? await artistTimeZone(ctx, actor.artistProfileId) : null;
  if (!actor?.artistProfileId || !timeZone || !canLogSession(actor))
    refuse("forbidden", NO_PROFILE, { reason: "no_profile" });
  const [row] = await ctx.db
    .insert(musicSessions)
    .values({
      artistProfileId: actor.artistProfileId,
      title: input.title,
      sessionType: input.sessionType,
      startTime: zonedInputToUtc(input.startTime, timeZone),
      durationMinutes: input.durationMinutes,
      venue: input.venue,
      location: input.location,
      description: input.description,
      instrumentsUsed: input.instruments,
      genres: input.genres,
      tags: input.tags,
      collaborators: [],
    })
    .returning({ id: musicSessions.id });
  if (!row) throw new Error("insert returned no row");
  return row;
}

/** A session's owner and start, whoever asks; null when there is no such session. */
export async function findSession({ db }: DbCtx, sessionId: string) {
  if (!isUuid(sessionId)) return null;
  const [row] = await db
    .select({
      id: musicSessions.id,
      artistProfileId: musicSessions.artistProfileId,
      startTime: musicSessions.startTime,
      title: musicSessions.title,
    })
    .from(musicSessions)
    .where(eq(musicSessions.id, sessionId));
  return row ?? null;
}

/** The session when the actor may edit it, otherwise null ("not yours" looks like "not found"). */
export async function getOwnedSession(ctx: DbCtx, actor: Actor, sessionId: string) {
  const session = await findSession(ctx, sessionId);
  return session && canEditSession(actor, session) ? session : null;
}

/** Deletes the actor's own session and its media files; anyone else's is "not found". */
export async function deleteSession(
  ctx: Pick<AppContext, "db" | "storage">,
  actor: Actor,
  sessionId: string,
): Promise<void> {
  const session = await getOwnedSession(ctx, actor, sessionId);
  if (!session) refuse("not_found", "Session not found.");
  const files = await ctx.db
    .select({ filePath: sessionMedia.filePath, previewPath: sessionMedia.previewPath })
    .from(sessionMedia)
    .where(eq(sessionMedia.sessionId, session.id));
  const deleted = await ctx.db
    .delete(musicSessions)
    .where(
      and(
        eq(musicSessions.id, session.id),
        eq(musicSessions.artistProfileId, session.artistProfileId),
      ),
    )
    .returning({ id: musicSessions.id });
  // Deleted meanwhile by another request: as gone as if it never was.
  if (deleted.length === 0) refuse("not_found", "Session not found.");
  // The rows are gone (media rows cascade); a file that fails to delete is only an orphan.
  await Promise.allSettled(
    files
      .flatMap((f) => [f.filePath, f.previewPath])
      .flatMap((k) => (k ? [ctx.storage.delete(k)] : [])),
  );
}

export const SCHEDULE_LOCKED_MESSAGE =
  "Someone has verified this session, so its type, date, time, duration and venue can no longer be changed.";
const LOCKED_FIELD = "Locked: this session has been verified.";

/**
 * Edits the actor's own session (anyone else's is "not found"). Title, description, location,
 * instruments, genres and tags change at any time; type, date and time, duration and venue only
 * while the session is self-logged. The row is locked meanwhile, so a verification arriving at the
 * same moment is seen.
 */
export async function updateSession(
  ctx: DbCtx,
  actor: Actor,
  input: SessionForm & { sessionId: string },
): Promise<{ id: string }> {
  if (!isUuid(input.sessionId)) refuse("not_found", "Session not found.");
  return ctx.db.transaction(async (tx) => {
    const [session] = await tx
      .select({
        id: musicSessions.id,
        artistProfileId: musicSessions.artistProfileId,
        sessionType: musicSessions.sessionType,
        startTime: musicSessions.startTime,
        durationMinutes: musicSessions.durationMinutes,
        venue: musicSessions.venue,
        isVerified: musicSessions.isVerified,
        timeZone: artistProfiles.timeZone,
      })
      .from(musicSessions)
      .innerJoin(artistProfiles, eq(artistProfiles.id, musicSessions.artistProfileId))
      .where(eq(musicSessions.id, input.sessionId))
      .for("update", { of: musicSessions });
    if (!session || !canEditSessionDetails(actor, session))
      refuse("not_found", "Session not found.");
    const [[peers], [participants]] = await Promise.all([
      tx
        .select({ n: count() })
        .from(peerVerifications)
        .where(eq(peerVerifications.sessionId, session.id)),
      tx
        .select({ n: count() })
        .from(sessionParticipants)
        .where(
          and(
            eq(sessionParticipants.sessionId, session.id),
            eq(sessionParticipants.verificationStatus, "verified"),
          ),
        ),
    ]);
    const sameStart =
      input.startTime.slice(0, 16) === toZonedInputValue(session.startTime, session.timeZone);
    const changed: Record<string, string> = {};
    if (input.sessionType !== session.sessionType) changed.sessionType = LOCKED_FIELD;
    if (!sameStart) changed.startTime = LOCKED_FIELD;
    if (input.durationMinutes !== session.durationMinutes) changed.durationMinutes = LOCKED_FIELD;
    if (input.venue !== session.venue) changed.venue = LOCKED_FIELD;
    const state = {
      ...session,
      peerVerifications: peers?.n ?? 0,
      verifiedParticipants: participants?.n ?? 0,
    };
    if (Object.keys(changed).length > 0 && !canChangeSessionSchedule(actor, state))
      refuse("conflict", SCHEDULE_LOCKED_MESSAGE, {
        reason: "schedule_locked",
        fieldErrors: changed,
      });
    await tx
      .update(musicSessions)
      .set({
        title: input.title,
        sessionType: input.sessionType,
        startTime: sameStart
          ? session.startTime
          : zonedInputToUtc(input.startTime, session.timeZone),
        durationMinutes: input.durationMinutes,
        venue: input.venue,
        location: input.location,
        description: input.description,
        instrumentsUsed: input.instruments,
        genres: input.genres,
        tags: input.tags,
        updatedAt: new Date(),
      })
      .where(eq(musicSessions.id, session.id));
    return { id: session.id };
  });
}
