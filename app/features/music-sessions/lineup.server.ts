import { and, eq, sql } from "drizzle-orm";
import {
  queueArtistsCredentialRefresh,
  queueCredentialRefresh,
} from "~/features/verification/credential-queue.server";
import { recordSessionLevel } from "~/features/verification/verification-levels.server";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { isUuid } from "~/lib/ids";
import { refuse } from "~/lib/problem";
import { type Queryable, queryRows } from "~db/client";
import { lineupConfirmations, musicSessions, sessionParticipants } from "~db/schema";
import { canAnswerLineup, type LineupState } from "./music-sessions.policy";

type DbCtx = { db: Queryable };
type TxCtx = Pick<AppContext, "db">;
type LineupAnswer = "confirmed" | "declined";

const NOT_FOUND = "Session not found.";
const ALREADY_ANSWERED_MESSAGE = "You've already answered for this session.";
const NOT_ENDED_MESSAGE =
  "This session hasn't ended yet. You can confirm it once it has taken place.";

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
      durationMinutes: musicSessions.durationMinutes,
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
  return row
    ? {
        startTime: row.startTime,
        durationMinutes: row.durationMinutes,
        joined: true,
        answer: row.answer ?? null,
      }
    : null;
}

/**
 * A joined collaborator answers, once the session has ended, whether it took place as logged;
 * earlier answers are refused and nothing is stored. Declining is recorded too. The ladder then
 * decides the level (Lineup-verified needs every joined collaborator and a second, independent
 * voice: docs/decisions/046). Anyone who did not join gets "not found".
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
    const [owner] = await queryRows<{ artistId: string }>(
      tx,
      sql`SELECT artist_profile_id AS "artistId" FROM ${musicSessions}
          WHERE ${musicSessions.id} = ${input.sessionId} FOR UPDATE`,
    );
    const state = await getLineupState({ db: tx }, actor, input.sessionId);
    if (!state) refuse("not_found", NOT_FOUND);
    if (state.answer !== null)
      refuse("conflict", ALREADY_ANSWERED_MESSAGE, { reason: "already_answered" });
    if (!canAnswerLineup(actor, state, now))
      refuse("conflict", NOT_ENDED_MESSAGE, { reason: "not_ended" });
    const inserted = await tx
      .insert(lineupConfirmations)
      .values({
        sessionId: input.sessionId,
        artistProfileId: artistId,
        answer: input.answer,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: lineupConfirmations.id });
    if (inserted.length === 0)
      refuse("conflict", ALREADY_ANSWERED_MESSAGE, { reason: "already_answered" });
    const lineupVerified = await applyLineupRule(tx, input.sessionId);
    // The level may have changed: the session's credential is signed or revoked after commit.
    await queueCredentialRefresh(tx, input.sessionId);
    if (owner)
      await queueArtistsCredentialRefresh(tx, { owner: owner.artistId, confirmer: artistId });
    return { lineupVerified };
  });
}

/** The ladder decides, and its level is written on the row (`recordSessionLevel`). */
async function applyLineupRule(tx: Queryable, sessionId: string): Promise<boolean> {
  return (await recordSessionLevel(tx, sessionId)).level === "lineup_verified";
}
