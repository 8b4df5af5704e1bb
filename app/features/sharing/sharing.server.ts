import { createHash, randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Actor } from "~/features/music-sessions/music-sessions.policy";
import { type SharingMode, sharingModeOf } from "~/features/music-sessions/music-sessions.policy";
import { getOwnedSession } from "~/features/music-sessions/music-sessions.server";
import type { Queryable } from "~db/client";
import {
  artistProfiles,
  musicSessions,
  peerVerifications,
  sessionParticipants,
  sessionSharingTokens,
} from "~db/schema";
import { canJoinSession } from "./sharing.policy";
import {
  EXPIRED_LINK_MESSAGE,
  INVALID_LINK_MESSAGE,
  SHARE_LINK_DAYS,
  type TrustScore,
  UNKNOWN_LINK_MESSAGE,
  USED_UP_LINK_MESSAGE,
} from "./sharing.schema";

/** Only the hash is stored: a leaked database does not leak working links. */
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export function joinUrl(origin: string, token: string) {
  return `${origin}/join-session/${encodeURIComponent(token)}`;
}

/** A new link for the actor's own session; null when the session is not theirs. */
export async function createSharingLink(
  db: Queryable,
  actor: Actor,
  sessionId: string,
  options: { maxUses: number | null; origin: string; now?: Date },
) {
  const session = await getOwnedSession(db, actor, sessionId);
  if (!session || !actor?.artistProfileId) return null;
  const token = randomBytes(32).toString("base64url"); // 256 bits
  const now = options.now ?? new Date();
  const expiresAt = new Date(now.getTime() + SHARE_LINK_DAYS * 24 * 60 * 60_000);
  await db.insert(sessionSharingTokens).values({
    sessionId,
    creatorArtistId: actor.artistProfileId,
    tokenHash: hashToken(token),
    maxUses: options.maxUses,
    expiresAt,
    createdAt: now,
  });
  return { url: joinUrl(options.origin, token), expiresAt, maxUses: options.maxUses };
}

export type SharedSession = {
  tokenId: string;
  mode: SharingMode;
  session: {
    id: string;
    artistProfileId: string;
    artistName: string;
    title: string;
    sessionType: string;
    startTime: Date;
    durationMinutes: number;
    venue: string | null;
    location: string | null;
  };
};

export type TokenCheck =
  | ({ ok: true } & SharedSession)
  | { ok: false; reason: "unknown" | "expired" | "used_up"; message: string };

/** What a link leads to, or why it is no good (the validate step of product-spec 7.6). */
export async function checkSharingToken(
  db: Queryable,
  token: string,
  now: Date = new Date(),
): Promise<TokenCheck> {
  const [row] = await db
    .select({
      tokenId: sessionSharingTokens.id,
      maxUses: sessionSharingTokens.maxUses,
      useCount: sessionSharingTokens.useCount,
      expiresAt: sessionSharingTokens.expiresAt,
      id: musicSessions.id,
      artistProfileId: musicSessions.artistProfileId,
      artistName: artistProfiles.artistName,
      title: musicSessions.title,
      sessionType: musicSessions.sessionType,
      startTime: musicSessions.startTime,
      durationMinutes: musicSessions.durationMinutes,
      venue: musicSessions.venue,
      location: musicSessions.location,
    })
    .from(sessionSharingTokens)
    .innerJoin(musicSessions, eq(musicSessions.id, sessionSharingTokens.sessionId))
    .innerJoin(artistProfiles, eq(artistProfiles.id, musicSessions.artistProfileId))
    .where(eq(sessionSharingTokens.tokenHash, hashToken(token)));
  if (!row) return { ok: false, reason: "unknown", message: UNKNOWN_LINK_MESSAGE };
  if (row.expiresAt.getTime() <= now.getTime())
    return { ok: false, reason: "expired", message: EXPIRED_LINK_MESSAGE };
  if (row.maxUses !== null && row.useCount >= row.maxUses)
    return { ok: false, reason: "used_up", message: USED_UP_LINK_MESSAGE };
  const { tokenId, maxUses: _m, useCount: _u, expiresAt: _e, ...session } = row;
  return { ok: true, tokenId, mode: sharingModeOf(session, now), session };
}

export type UseOutcome =
  | { ok: true; sessionId: string; verified?: boolean }
  | { ok: false; code: "invalid"; message: string }
  | { ok: false; code: "already" | "own" | "wrong_mode" | "no_profile" };

/** Rolls the transaction back and tells the caller why. */
class Refused extends Error {
  constructor(readonly outcome: Extract<UseOutcome, { ok: false }>) {
    super(outcome.code);
  }
}

/**
 * Counts one use of the token if it still has one: a single conditional UPDATE, so concurrent
 * users can never push it past max_uses or past its expiry.
 */
async function takeOneUse(tx: Queryable, tokenId: string) {
  const taken = await tx
    .update(sessionSharingTokens)
    .set({ useCount: sql`${sessionSharingTokens.useCount} + 1` })
    .where(
      and(
        eq(sessionSharingTokens.id, tokenId),
        sql`(${sessionSharingTokens.maxUses} IS NULL OR ${sessionSharingTokens.useCount} < ${sessionSharingTokens.maxUses})`,
        sql`${sessionSharingTokens.expiresAt} > now()`,
      ),
    )
    .returning({ id: sessionSharingTokens.id });
  if (taken.length === 0)
    throw new Refused({ ok: false, code: "invalid", message: INVALID_LINK_MESSAGE });
}

async function usableLink(db: Queryable, actor: Actor, token: string, mode: SharingMode) {
  if (!actor?.artistProfileId) throw new Refused({ ok: false, code: "no_profile" });
  const check = await checkSharingToken(db, token);
  if (!check.ok) throw new Refused({ ok: false, code: "invalid", message: check.message });
  if (!canJoinSession(actor, check.session)) throw new Refused({ ok: false, code: "own" });
  if (check.mode !== mode) throw new Refused({ ok: false, code: "wrong_mode" });
  return { ...check, artistId: actor.artistProfileId };
}

async function refusals(run: () => Promise<UseOutcome>): Promise<UseOutcome> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Refused) return error.outcome;
    throw error;
  }
}

/** Joins a planned session as a collaborator (verified at once, listed in the joiner's history). */
export async function joinSessionAsCollaborator(
  db: Queryable,
  actor: Actor,
  token: string,
  input: { notes: string | null },
): Promise<UseOutcome> {
  return refusals(async () => {
    const link = await usableLink(db, actor, token, "collaboration");
    return db.transaction(async (tx) => {
      const inserted = await tx
        .insert(sessionParticipants)
        .values({
          sessionId: link.session.id,
          artistProfileId: link.artistId,
          joinedViaToken: link.tokenId,
          participationType: "collaborator",
          verificationStatus: "verified",
          notes: input.notes,
        })
        .onConflictDoNothing()
        .returning({ id: sessionParticipants.id });
      if (inserted.length === 0) throw new Refused({ ok: false, code: "already" });
      await takeOneUse(tx, link.tokenId);
      return { ok: true as const, sessionId: link.session.id };
    });
  });
}

/** Verifies a past session: a pending verifier, a peer verification, then the peer rule. */
export async function submitPeerVerification(
  db: Queryable,
  actor: Actor,
  token: string,
  input: { notes: string | null; trustScore: TrustScore },
): Promise<UseOutcome> {
  return refusals(async () => {
    const link = await usableLink(db, actor, token, "verification");
    return db.transaction(async (tx) => {
      // One verification of a session at a time, so the peer rule always sees every score.
      await tx.execute(
        sql`SELECT id FROM ${musicSessions} WHERE ${musicSessions.id} = ${link.session.id} FOR UPDATE`,
      );
      const verification = await tx
        .insert(peerVerifications)
        .values({
          sessionId: link.session.id,
          verifiedByArtistId: link.artistId,
          trustScore: input.trustScore,
          notes: input.notes,
        })
        .onConflictDoNothing()
        .returning({ id: peerVerifications.id });
      if (verification.length === 0) throw new Refused({ ok: false, code: "already" });
      await tx
        .insert(sessionParticipants)
        .values({
          sessionId: link.session.id,
          artistProfileId: link.artistId,
          joinedViaToken: link.tokenId,
          participationType: "verifier",
          verificationStatus: "pending",
          notes: input.notes,
        })
        .onConflictDoNothing();
      await takeOneUse(tx, link.tokenId);
      const verified = await applyPeerRule(tx, link.session.id);
      return { ok: true as const, sessionId: link.session.id, verified };
    });
  });
}

export const PEER_THRESHOLD = 100;

/**
 * decisions.md: verified by peers once the trust scores of distinct verifiers add up to at least
 * 100; the peer score is their mean; the verifiers' participant rows become verified then.
 * A session already verified from a client booking keeps that method.
 */
export async function applyPeerRule(tx: Queryable, sessionId: string): Promise<boolean> {
  const [totals] = await tx
    .select({
      sum: sql<number>`coalesce(sum(${peerVerifications.trustScore}), 0)::int`,
      mean: sql<string | null>`round(avg(${peerVerifications.trustScore}), 2)`,
    })
    .from(peerVerifications)
    .where(eq(peerVerifications.sessionId, sessionId));
  const score = totals?.mean === null || totals?.mean === undefined ? null : Number(totals.mean);
  const reached = (totals?.sum ?? 0) >= PEER_THRESHOLD;
  await tx
    .update(musicSessions)
    .set(
      reached
        ? {
            peerVerificationScore: score,
            isVerified: true,
            verificationMethod: sql`coalesce(${musicSessions.verificationMethod}, 'peer')`,
          }
        : { peerVerificationScore: score },
    )
    .where(eq(musicSessions.id, sessionId));
  if (reached) {
    await tx
      .update(sessionParticipants)
      .set({ verificationStatus: "verified" })
      .where(
        and(
          eq(sessionParticipants.sessionId, sessionId),
          eq(sessionParticipants.participationType, "verifier"),
        ),
      );
  }
  return reached;
}
