import { and, desc, eq, sql } from "drizzle-orm";
import { localDateTimeToUtc } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import type { Storage } from "~/lib/storage.server";
import type { Queryable } from "~db/client";
import {
  artistProfiles,
  musicSessions,
  peerVerifications,
  sessionMedia,
  sessionParticipants,
} from "~db/schema";
import { type Actor, canEditSession, canLogSession } from "./music-sessions.policy";
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
  /** True when the artist appears on this session as a collaborator, not as its owner. */
  listedAsCollaborator: boolean;
};

export const SESSION_LIST_LIMIT = 60;

/** `%text%` for LIKE, with the user's own % _ \ taken literally. */
function containsPattern(text: string) {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * An artist's history (product-spec 7.6): their own sessions plus those they joined as a verified
 * collaborator, each once, newest first. Search covers title, description and venue.
 */
export async function listSessionsForArtist(
  db: Queryable,
  artistId: string,
  query: SessionListQuery = { q: "", type: "" },
  limit = SESSION_LIST_LIMIT,
): Promise<SessionCard[]> {
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
    })
    .from(musicSessions)
    .where(and(...conditions))
    .orderBy(desc(musicSessions.startTime), musicSessions.id)
    .limit(limit);
  return rows.map((r) => ({ ...r, listedAsCollaborator: r.artistProfileId !== artistId }));
}

export type SessionsSectionData = {
  artistId: string;
  artistName: string;
  isOwner: boolean;
  query: SessionListQuery;
  sessions: SessionCard[];
  /** True when the artist has no sessions at all (as opposed to none matching the search). */
  hasNone: boolean;
  timeZone: string;
};

/** Everything the 'Musical Sessions & Portfolio' area needs, for a profile or the dashboard. */
export async function loadSessionsSection(
  db: Queryable,
  options: {
    artistId: string;
    artistName: string;
    viewer: Actor;
    query: SessionListQuery;
    timeZone: string;
  },
): Promise<SessionsSectionData> {
  const { artistId, query } = options;
  const sessions = await listSessionsForArtist(db, artistId, query);
  const filtered = Boolean(query.q || query.type);
  const hasNone =
    sessions.length === 0 &&
    (!filtered || (await listSessionsForArtist(db, artistId, { q: "", type: "" }, 1)).length === 0);
  return {
    artistId,
    artistName: options.artistName,
    isOwner: canEditSession(options.viewer, { artistProfileId: artistId }),
    query,
    sessions,
    hasNone,
    timeZone: options.timeZone,
  };
}

export type SessionDetail = Awaited<ReturnType<typeof getSessionDetail>>;

/** A session with its owner, participants, peer verifications and media; null when unknown. */
export async function getSessionDetail(db: Queryable, sessionId: string) {
  if (!isUuid(sessionId)) return null;
  const [session] = await db
    .select({
      id: musicSessions.id,
      artistProfileId: musicSessions.artistProfileId,
      artistName: artistProfiles.artistName,
      artistSlug: artistProfiles.slug,
      title: musicSessions.title,
      sessionType: musicSessions.sessionType,
      startTime: musicSessions.startTime,
      durationMinutes: musicSessions.durationMinutes,
      venue: musicSessions.venue,
      location: musicSessions.location,
      description: musicSessions.description,
      instrumentsUsed: musicSessions.instrumentsUsed,
      genres: musicSessions.genres,
      tags: musicSessions.tags,
      isVerified: musicSessions.isVerified,
      peerVerificationScore: musicSessions.peerVerificationScore,
      verificationMethod: musicSessions.verificationMethod,
    })
    .from(musicSessions)
    .innerJoin(artistProfiles, eq(artistProfiles.id, musicSessions.artistProfileId))
    .where(eq(musicSessions.id, sessionId));
  if (!session) return null;
  const [participants, verifications, media] = await Promise.all([
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
    listMedia(db, sessionId),
  ]);
  return { ...session, participants, verifications, media };
}

export type MediaItem = {
  id: string;
  mediaType: "photo" | "video" | "audio";
  filePath: string;
  previewPath: string | null;
  fileName: string;
  fileSize: number;
  mimeType: string;
  description: string | null;
  createdAt: Date;
};

/** A session's media, newest first. */
export async function listMedia(db: Queryable, sessionId: string): Promise<MediaItem[]> {
  return db
    .select({
      id: sessionMedia.id,
      mediaType: sessionMedia.mediaType,
      filePath: sessionMedia.filePath,
      previewPath: sessionMedia.previewPath,
      fileName: sessionMedia.fileName,
      fileSize: sessionMedia.fileSize,
      mimeType: sessionMedia.mimeType,
      description: sessionMedia.description,
      createdAt: sessionMedia.createdAt,
    })
    .from(sessionMedia)
    .where(eq(sessionMedia.sessionId, sessionId))
    .orderBy(desc(sessionMedia.createdAt), sessionMedia.id);
}

export class ForbiddenError extends Error {}

/** Logs a session for the acting artist; collaborators start empty (product-spec 3). */
export async function createSession(
  db: Queryable,
  actor: Actor,
  input: SessionForm,
  timeZone: string,
): Promise<{ id: string }> {
  if (!actor?.artistProfileId || !canLogSession(actor))
    throw new ForbiddenError("An artist profile is needed to log a session.");
  const [row] = await db
    .insert(musicSessions)
    .values({
      artistProfileId: actor.artistProfileId,
      title: input.title,
      sessionType: input.sessionType,
      startTime: localDateTimeToUtc(input.startTime, input.timezoneOffset, timeZone),
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

/** The session when the actor owns it, otherwise null ("not yours" looks like "not found"). */
export async function getOwnedSession(db: Queryable, actor: Actor, sessionId: string) {
  if (!actor?.artistProfileId || !isUuid(sessionId)) return null;
  const [row] = await db
    .select({
      id: musicSessions.id,
      artistProfileId: musicSessions.artistProfileId,
      startTime: musicSessions.startTime,
      title: musicSessions.title,
    })
    .from(musicSessions)
    .where(
      and(
        eq(musicSessions.id, sessionId),
        eq(musicSessions.artistProfileId, actor.artistProfileId),
      ),
    );
  return row ?? null;
}

/** Deletes the actor's own session and its media files; false when there is no such session. */
export async function deleteSession(
  db: Queryable,
  storage: Storage,
  actor: Actor,
  sessionId: string,
): Promise<boolean> {
  if (!actor?.artistProfileId || !isUuid(sessionId)) return false;
  const files = await db
    .select({ filePath: sessionMedia.filePath, previewPath: sessionMedia.previewPath })
    .from(sessionMedia)
    .innerJoin(musicSessions, eq(musicSessions.id, sessionMedia.sessionId))
    .where(
      and(
        eq(sessionMedia.sessionId, sessionId),
        eq(musicSessions.artistProfileId, actor.artistProfileId),
      ),
    );
  const deleted = await db
    .delete(musicSessions)
    .where(
      and(
        eq(musicSessions.id, sessionId),
        eq(musicSessions.artistProfileId, actor.artistProfileId),
      ),
    )
    .returning({ id: musicSessions.id });
  if (deleted.length === 0) return false;
  // The rows are gone (media rows cascade); a file that fails to delete is only an orphan.
  await Promise.allSettled(
    files
      .flatMap((f) => [f.filePath, f.previewPath])
      .flatMap((k) => (k ? [storage.delete(k)] : [])),
  );
  return true;
}
