import { and, eq, sql } from "drizzle-orm";
import { queueCredentialRefresh } from "~/features/verification/credential-queue.server";
import { sessionLevel } from "~/features/verification/verification-levels.server";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { isUuid } from "~/lib/ids";
import { refuse } from "~/lib/problem";
import type { Queryable } from "~db/client";
import { lineupConfirmations, musicSessions, sessionParticipants } from "~db/schema";
import { canAnswerLineup, type LineupState } from "./music-sessions.policy";

type DbCtx = { db: Queryable };
type TxCtx = Pick<AppContext, "db">;
type LineupAnswer = "confirmed" | "declined";

const NOT_FOUND = "Session not found.";
const ALREADY_ANSWERED_MESSAGE = "You've already answered for this session.";
const NOT_STARTED_MESSAGE =
  "This session hasn't started yet. You can confirm it once it has taken place.";

/** The viewer's part in a session's lineup; null when they did not join it as a collaborator. */
export async function getLineupState(
  { db }: DbCtx,
  actor: Actor,
  sessionId: string,
): Promise<LineupState | null> {
  const artistId = actor?.artistProfileId;
  if (!artistId || !isUuid(sessionId)) return null;
  const [row] = await db
    .select({
      startTime: musicSessions.startTime,
      answer: lineupConfirmations.answer,
    })
    .from(sessionParticipants)
    .innerJoin(musicSessions, eq(musicSessions.id, sessionParticipants.sessionId))
    .leftJoin(
      lineupConfirmations,
      and(
        eq(lineupConfirmations.sessionId, sessionParticipants.sessionId),
        eq(lineupConfirmations.artistProfileId, artistId),
      ),
    )
    .where(
      and(
        eq(sessionParticipants.sessionId, sessionId),
        eq(sessionParticipants.artistProfileId, artistId),
        eq(sessionParticipants.participationType, "collaborator"),
      ),
    );
  return row ? { startTime: row.startTime, joined: true, answer: row.answer ?? null } : null;
}

/**
 * A joined collaborator answers, once the session has started, whether it took place as logged.
 * Declining is recorded too. When every joined collaborator has confirmed, the session is
 * Lineup-verified and counts as verified. Anyone who did not join gets "not found".
 */
export async function answerLineup(
  ctx: TxCtx,
  actor: Actor,
  input: { sessionId: string; answer: LineupAnswer; now?: Date },
): Promise<{ lineupVerified: boolean }> {
  const now = input.now ?? new Date();
  const artistId = actor?.artistProfileId;
  if (!artistId || !isUuid(input.sessionId)) refuse("not_found", NOT_FOUND);
  return ctx.db.transaction(async (tx) => {
    // One answer of a session at a time, so the last confirmation always sees all the others.
    await tx.execute(
      sql`SELECT id FROM ${musicSessions} WHERE ${musicSessions.id} = ${input.sessionId} FOR UPDATE`,
    );
    const state = await getLineupState({ db: tx }, actor, input.sessionId);
    if (!state) refuse("not_found", NOT_FOUND);
    if (state.answer !== null)
      refuse("conflict", ALREADY_ANSWERED_MESSAGE, { reason: "already_answered" });
    if (!canAnswerLineup(actor, state, now))
      refuse("conflict", NOT_STARTED_MESSAGE, { reason: "not_started" });
    const inserted = await tx
      .insert(lineupConfirmations)
      .values({ sessionId: input.sessionId, artistProfileId: artistId, answer: input.answer })
      .onConflictDoNothing()
      .returning({ id: lineupConfirmations.id });
    if (inserted.length === 0)
      refuse("conflict", ALREADY_ANSWERED_MESSAGE, { reason: "already_answered" });
    const lineupVerified = await applyLineupRule(tx, input.sessionId);
    // The level may have changed: the session's credential is signed or revoked after commit.
    await queueCredentialRefresh(tx, input.sessionId);
    return { lineupVerified };
  });
}

/**
 * Every joined collaborator (at least one) confirmed: the session counts as verified (the
 * artist's Verified Sessions figure), keeping an earlier method (peer) if it had one.
 */
async function applyLineupRule(tx: Queryable, sessionId: string): Promise<boolean> {
  // The ladder's own derivation decides; this only records it on the row.
  const reached = (await sessionLevel({ db: tx }, sessionId)).level === "lineup_verified";
  if (reached) {
    await tx
      .update(musicSessions)
      .set({
        isVerified: true,
        verificationMethod: sql`coalesce(${musicSessions.verificationMethod}, 'lineup')`,
        updatedAt: new Date(),
      })
      .where(eq(musicSessions.id, sessionId));
  }
  return reached;
}
