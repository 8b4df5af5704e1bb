import { createHash, randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { type SharingMode, sharingModeOf } from "~/features/music-sessions/music-sessions.policy";
import { findSession } from "~/features/music-sessions/music-sessions.server";
import {
  queueArtistsCredentialRefresh,
  queueCredentialRefresh,
} from "~/features/verification/credential-queue.server";
import { sessionWithOwnerColumns } from "~/features/verification/session-columns.server";
import { recordSessionLevel } from "~/features/verification/verification-levels.server";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import type { Env } from "~/lib/env.server";
import { Problem, refuse } from "~/lib/problem";
import type { Queryable } from "~db/client";
import {
  artistProfiles,
  musicSessions,
  peerVerifications,
  sessionParticipants,
  sessionSharingTokens,
} from "~db/schema";
import { canJoinSession, canShareSession } from "./sharing.policy";
import {
  EXPIRED_LINK_MESSAGE,
  INVALID_LINK_MESSAGE,
  NOT_ENDED_MESSAGE,
  SHARE_LINK_DAYS,
  type TrustScore,
  UNKNOWN_LINK_MESSAGE,
  USED_UP_LINK_MESSAGE,
} from "./sharing.schema";

/** Only the hash is stored: a leaked database does not leak working links. */
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

function joinUrl(origin: string, token: string) {
  return `${origin}/join-session/${encodeURIComponent(token)}`;
}

type DbCtx = Pick<AppContext, "db">;
/** Links are made for where the app lives (`env.appUrl`). */
type LinkCtx = DbCtx & { env: Pick<Env, "appUrl"> };

/** A new link for the actor's own session; anyone else's session is "not found". */
export async function createSharingLink(
  ctx: LinkCtx,
  actor: Actor,
  input: { sessionId: string; maxUses: number | null; now?: Date },
) {
  const session = await findSession(ctx, input.sessionId);
  if (!session || !actor?.artistProfileId || !canShareSession(actor, session))
    refuse("not_found", "Session not found.");
  const token = randomBytes(32).toString("base64url"); // 256 bits
  const now = input.now ?? new Date();
  const expiresAt = new Date(now.getTime() + SHARE_LINK_DAYS * 24 * 60 * 60_000);
  await ctx.db.insert(sessionSharingTokens).values({
    sessionId: session.id,
    creatorArtistId: actor.artistProfileId,
    tokenHash: hashToken(token),
    maxUses: input.maxUses,
    expiresAt,
    createdAt: now,
  });
  return { url: joinUrl(ctx.env.appUrl.origin, token), expiresAt, maxUses: input.maxUses };
}

export type SharedSession = {
  tokenId: string;
  mode: SharingMode;
  session: {
    id: string;
    artistProfileId: string;
    artistName: string;
    /** The owner's time zone: the start time is a wall-clock time there. */
    timeZone: string;
    title: string;
    sessionType: string;
    startTime: Date;
    durationMinutes: number;
    venue: string | null;
    location: string | null;
  };
};

type TokenCheck =
  | ({ ok: true } & SharedSession)
  | { ok: false; reason: "unknown" | "expired" | "used_up"; message: string };

/** What a link leads to, or why it is no good (unknown, expired or used up). Anyone may ask. */
export async function checkSharingToken(
  { db }: DbCtx,
  token: string,
  now: Date = new Date(),
): Promise<TokenCheck> {
  const [row] = await db
    .select({
      tokenId: sessionSharingTokens.id,
      maxUses: sessionSharingTokens.maxUses,
      useCount: sessionSharingTokens.useCount,
      expiresAt: sessionSharingTokens.expiresAt,
      ...sessionWithOwnerColumns,
      venue: musicSessions.venue,
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

/**
 * Why a link could not be used, as the `reason` of the Problem thrown: `invalid_link` (unknown,
 * expired or used up: gone), `already` (joined or verified before), `own` (one's own session),
 * `wrong_mode` (joining a past session or verifying a future one), `no_profile`.
 */
export type UseRefusal =
  | "invalid_link"
  | "already"
  | "own"
  | "wrong_mode"
  | "no_profile"
  | "not_ended";

function refuseUse(
  code: "gone" | "conflict" | "forbidden",
  reason: UseRefusal,
  message: string,
): never {
  throw new Problem(code, message, reason);
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
  if (taken.length === 0) refuseUse("gone", "invalid_link", INVALID_LINK_MESSAGE);
}

async function usableLink(ctx: DbCtx, actor: Actor, token: string, mode: SharingMode) {
  if (!actor?.artistProfileId)
    refuseUse("forbidden", "no_profile", "You need an artist profile to join or verify sessions.");
  const check = await checkSharingToken(ctx, token);
  if (!check.ok) refuseUse("gone", "invalid_link", check.message);
  if (!canJoinSession(actor, check.session))
    refuseUse("forbidden", "own", "You can't join or verify your own session.");
  if (check.mode !== mode)
    refuseUse(
      "conflict",
      "wrong_mode",
      mode === "collaboration"
        ? "This session has taken place: it can be verified, not joined."
        : "This session is still ahead: it can be joined, not verified.",
    );
  return { ...check, artistId: actor.artistProfileId };
}

/** Joins a planned session as a collaborator (verified at once, listed in the joiner's history). */
export async function joinSessionAsCollaborator(
  ctx: DbCtx,
  actor: Actor,
  input: { token: string; notes: string | null },
): Promise<{ sessionId: string }> {
  const link = await usableLink(ctx, actor, input.token, "collaboration");
  return ctx.db.transaction(async (tx) => {
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
    if (inserted.length === 0)
      refuseUse("conflict", "already", "You've already joined this session.");
    await takeOneUse(tx, link.tokenId);
    return { sessionId: link.session.id };
  });
}

/**
 * Verifies a session that has ended (start + duration): a pending verifier, a peer verification,
 * then the ladder decides (docs/decisions/046). Earlier answers are refused and nothing is stored.
 */
export async function submitPeerVerification(
  ctx: DbCtx,
  actor: Actor,
  input: { token: string; notes: string | null; trustScore: TrustScore; now?: Date },
): Promise<{ sessionId: string; verified: boolean }> {
  const link = await usableLink(ctx, actor, input.token, "verification");
  const now = input.now ?? new Date();
  const endsAt = link.session.startTime.getTime() + link.session.durationMinutes * 60_000;
  if (now.getTime() < endsAt) refuseUse("conflict", "not_ended", NOT_ENDED_MESSAGE);
  return ctx.db.transaction(async (tx) => {
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
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: peerVerifications.id });
    if (verification.length === 0)
      refuseUse("conflict", "already", "You've already verified this session.");
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
    await queueCredentialRefresh(tx, link.session.id);
    await queueArtistsCredentialRefresh(tx, {
      owner: link.session.artistProfileId,
      confirmer: link.artistId,
    });
    return { sessionId: link.session.id, verified };
  });
}

/**
 * After a verification: the ladder (verification-levels.server.ts) decides the level and writes
 * it on the row; the trust scores no longer decide anything, their mean is kept as the peer
 * score. When the session is Peer-confirmed or above, its verifiers' participant rows become
 * verified.
 */
async function applyPeerRule(tx: Queryable, sessionId: string): Promise<boolean> {
  const [totals] = await tx
    .select({ mean: sql<string | null>`round(avg(${peerVerifications.trustScore}), 2)` })
    .from(peerVerifications)
    .where(eq(peerVerifications.sessionId, sessionId));
  const score = totals?.mean === null || totals?.mean === undefined ? null : Number(totals.mean);
  await tx
    .update(musicSessions)
    .set({ peerVerificationScore: score })
    .where(eq(musicSessions.id, sessionId));
  const reached = (await recordSessionLevel(tx, sessionId)).level !== "self_logged";
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
