import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { isUuid } from "~/lib/ids";
import { type Queryable, queryRows, readEach } from "~db/client";
import { artistProfiles, bookings, musicSessions, sessionParticipants } from "~db/schema";
import {
  type Confirmation,
  type LevelFacts,
  levelOf,
  MIN_ACCOUNT_AGE_DAYS,
  PAIR_WINDOW_DAYS,
  type SessionLevel,
  VERIFICATION_METHOD_OF,
  type VoidReason,
} from "./verification-levels";

const DAY = 86_400_000;

/**
 * Paid & agreed, the ladder's top (docs/decisions/056): a gig agreed and paid through GigLedger
 * whose payout was released without a reported problem. For the booking `b` (a table or alias
 * holding `bookings` columns), when its payout was released if every condition holds, else null:
 * the agreement in force says the money goes through GigLedger, the booking was not cancelled (a
 * cancellation's release is no gig), the payout was released, and `noProblemReported` holds.
 * Database triggers re-sign the session's credential when these columns change (migration 0022).
 */
export function paidAndAgreedAtOf(b: SQL): SQL<Date | null> {
  return sql<Date | null>`CASE WHEN ${b}.payout_released_at IS NOT NULL
      AND ${b}.status IN ('confirmed', 'completed')
      AND EXISTS (SELECT 1 FROM agreements pa_a WHERE pa_a.booking_id = ${b}.id
        AND pa_a.status = 'in_force' AND pa_a.paid_through = 'gigledger')
      AND ${noProblemReported(b)}
    THEN ${b}.payout_released_at END`;
}

/**
 * No problem was reported on the booking that stands (issue 42, decision 058): a report that is
 * open, or decided with a refund, keeps it from Paid & agreed; one decided for the artist (release)
 * does not. Migration 0024's trigger re-signs the session's credential when a report comes or is
 * decided.
 */
function noProblemReported(b: SQL): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM problem_reports pa_p WHERE pa_p.booking_id = ${b}.id
      AND (pa_p.decision IS NULL OR pa_p.decision <> 'release'))`;
}

/** `(a, b, c)` for an `IN`. */
const list = (values: readonly string[]): SQL =>
  sql`(${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )})`;

/** One confirmation of one session, judged on its own rows (decision 046). */
type ConfirmationRow = {
  sessionId: string;
  ownerId: string;
  artistId: string;
  name: string;
  artistSlug: string;
  kind: "peer" | "lineup";
  at: Date;
  void: Exclude<VoidReason, "repeat"> | null;
};

/**
 * Every confirmation (a peer verification, or a lineup "it happened") matching `where`, with the
 * reason it does not count when one of its own rows says so: the owner's own, given before the
 * session ended (start + duration), from an account younger than a week then, or from an artist
 * who had logged no session of their own then. All of these are fixed once given, so a level never
 * changes by itself as time passes.
 */
export function confirmationsWhere(db: Queryable, where: SQL) {
  return queryRows<ConfirmationRow>(
    db,
    sql`WITH c AS (
          SELECT session_id, verified_by_artist_id AS artist_id, created_at AS at, 'peer' AS kind
            FROM peer_verifications
          UNION ALL
          SELECT session_id, artist_profile_id, created_at, 'lineup'
            FROM lineup_confirmations WHERE answer = 'confirmed')
        SELECT c.session_id AS "sessionId", s.artist_profile_id AS "ownerId",
          c.artist_id AS "artistId", v.artist_name AS name, v.slug AS "artistSlug", c.kind, c.at,
          CASE
            WHEN c.artist_id = s.artist_profile_id THEN 'own'
            WHEN c.at < s.start_time + s.duration_minutes * interval '1 minute' THEN 'before_end'
            WHEN u.created_at > c.at - ${MIN_ACCOUNT_AGE_DAYS} * interval '1 day' THEN 'new_account'
            WHEN NOT EXISTS (SELECT 1 FROM music_sessions o
              WHERE o.artist_profile_id = c.artist_id AND o.created_at <= c.at) THEN 'no_sessions'
          END AS void
        FROM c
        JOIN music_sessions s ON s.id = c.session_id
        JOIN artist_profiles v ON v.id = c.artist_id
        JOIN users u ON u.id = v.user_id
        WHERE ${where}`,
  );
}

/** Who confirmed whom (counting confirmations only): artist id to the artists they confirmed. */
type Graph = { out: Map<string, Set<string>>; in: Map<string, Set<string>> };

function graphOf(rows: ConfirmationRow[]): Graph {
  const graph: Graph = { out: new Map(), in: new Map() };
  for (const r of rows) {
    if (r.void !== null) continue;
    graph.out.set(r.artistId, (graph.out.get(r.artistId) ?? new Set()).add(r.ownerId));
    graph.in.set(r.ownerId, (graph.in.get(r.ownerId) ?? new Set()).add(r.artistId));
  }
  return graph;
}

const edge = (g: Graph, from: string, to: string) => g.out.get(from)?.has(to) ?? false;

/**
 * The owner's ring (decision 046): the owner and every artist on a cycle of confirmations through
 * the owner of two (they confirmed each other) or three (A confirmed X, X confirmed Y, Y confirmed
 * A).
 */
function ringOf(g: Graph, owner: string): Set<string> {
  const ring = new Set([owner]);
  for (const x of g.out.get(owner) ?? []) {
    if (edge(g, x, owner)) ring.add(x);
    for (const y of g.out.get(x) ?? []) {
      if (y !== owner && edge(g, y, owner)) {
        ring.add(x);
        ring.add(y);
      }
    }
  }
  return ring;
}

/**
 * A verifier is independent for an owner's session unless their own standing rests only on the
 * owner's ring: they are outside it, or have a Client-verified gig, or someone outside the ring
 * (and not themselves) confirmed them.
 */
function isIndependent(g: Graph, ring: Set<string>, verifier: string, clientGig: boolean) {
  if (!ring.has(verifier) || clientGig) return true;
  for (const w of g.in.get(verifier) ?? []) if (!ring.has(w) && w !== verifier) return true;
  return false;
}

/**
 * Each session's verification level, derived from the rows that prove it (never stored by hand):
 * a booking agreed, paid through GigLedger and paid out, a rated booking, peer verifications, the joined lineup's answers, judged by the rules of
 * docs/decisions/046 (after the end, established accounts, one count per pair per 90 days, rings
 * capped). Sessions that do not exist are left out of the map. Public: the level, the verifiers'
 * names and the dates are shown to everyone.
 */
export async function sessionLevels(
  { db }: { db: Queryable },
  sessionIds: readonly string[],
): Promise<Map<string, SessionLevel>> {
  const ids = [...new Set(sessionIds.filter(isUuid))];
  const out = new Map<string, SessionLevel>();
  if (ids.length === 0) return out;
  const [sessions, lineup, own] = await readEach(db, [
    () =>
      db
        .select({
          id: musicSessions.id,
          ownerId: musicSessions.artistProfileId,
          // The session is inserted in the rating's own transaction: its creation is the rating.
          clientRatedAt: sql<Date | null>`CASE WHEN ${bookings.ratingGiven} THEN ${musicSessions.createdAt} END`,
          paidAndAgreedAt: paidAndAgreedAtOf(sql`${bookings}`),
        })
        .from(musicSessions)
        .leftJoin(bookings, eq(bookings.id, musicSessions.bookingId))
        .where(inArray(musicSessions.id, ids)),
    () =>
      db
        .select({
          sessionId: sessionParticipants.sessionId,
          artistId: sessionParticipants.artistProfileId,
          name: artistProfiles.artistName,
          artistSlug: artistProfiles.slug,
        })
        .from(sessionParticipants)
        .innerJoin(artistProfiles, eq(artistProfiles.id, sessionParticipants.artistProfileId))
        .where(
          and(
            inArray(sessionParticipants.sessionId, ids),
            eq(sessionParticipants.participationType, "collaborator"),
          ),
        ),
    () => confirmationsWhere(db, sql`c.session_id IN ${list(ids)}`),
  ]);
  const [declines, around] = await readEach(db, [
    () =>
      queryRows<{ sessionId: string; artistId: string }>(
        db,
        sql`SELECT session_id AS "sessionId", artist_profile_id AS "artistId"
            FROM lineup_confirmations WHERE answer = 'declined' AND session_id IN ${list(ids)}`,
      ),
    // Everything the rings and the pair rule look at: confirmations given or received by an owner
    // or a verifier of these sessions.
    async () => {
      const people = [
        ...new Set([...sessions.map((s) => s.ownerId), ...own.map((r) => r.artistId)]),
      ];
      return people.length === 0
        ? []
        : confirmationsWhere(
            db,
            sql`(c.artist_id IN ${list(people)} OR s.artist_profile_id IN ${list(people)})`,
          );
    },
  ]);
  // A ring of three passes through artists beyond the first circle: one more step.
  const neighbours = [...new Set(around.flatMap((r) => [r.artistId, r.ownerId]))];
  const [further, clientGigs] = await readEach(db, [
    () =>
      neighbours.length === 0
        ? Promise.resolve([])
        : confirmationsWhere(
            db,
            sql`c.artist_id IN ${list(neighbours)} AND s.artist_profile_id IN ${list(neighbours)}`,
          ),
    () =>
      own.length === 0
        ? Promise.resolve([])
        : queryRows<{ artistId: string }>(
            db,
            sql`SELECT DISTINCT s.artist_profile_id AS "artistId" FROM music_sessions s
                JOIN bookings b ON b.id = s.booking_id
                WHERE b.rating_given AND s.artist_profile_id IN ${list([...new Set(own.map((r) => r.artistId))])}`,
          ),
  ]);
  const graph = graphOf([...around, ...further]);
  const withClientGig = new Set(clientGigs.map((r) => r.artistId));
  const repeats = repeatsOf(around);
  const rings = new Map<string, Set<string>>();
  const ringFor = (owner: string) => {
    const ring = rings.get(owner) ?? ringOf(graph, owner);
    rings.set(owner, ring);
    return ring;
  };

  const facts = new Map<string, LevelFacts & { ownerId: string }>();
  for (const s of sessions) {
    const ratedAt = s.clientRatedAt === null ? null : new Date(s.clientRatedAt);
    const paidAt = s.paidAndAgreedAt === null ? null : new Date(s.paidAndAgreedAt);
    facts.set(s.id, {
      ownerId: s.ownerId,
      clientRatedAt: ratedAt,
      paidAndAgreedAt: paidAt,
      peers: [],
      lineup: [],
    });
  }
  const lineupConfirmations = new Map<string, Confirmation>();
  for (const row of own) {
    const f = facts.get(row.sessionId);
    if (!f) continue;
    const at = new Date(row.at);
    const confirmation: Confirmation = {
      artistId: row.artistId,
      name: row.name,
      artistSlug: row.artistSlug,
      at,
      void: row.void ?? (repeats.has(keyOf(row)) ? "repeat" : null),
      hasClientGig: withClientGig.has(row.artistId),
      independent: isIndependent(
        graph,
        ringFor(f.ownerId),
        row.artistId,
        withClientGig.has(row.artistId),
      ),
    };
    if (row.kind === "peer") f.peers.push(confirmation);
    else lineupConfirmations.set(`${row.sessionId}:${row.artistId}`, confirmation);
  }
  const declined = new Set(declines.map((d) => `${d.sessionId}:${d.artistId}`));
  for (const { sessionId, ...member } of lineup) {
    const key = `${sessionId}:${member.artistId}`;
    const confirmation = lineupConfirmations.get(key) ?? null;
    facts.get(sessionId)?.lineup.push({
      ...member,
      answer: confirmation ? "confirmed" : declined.has(key) ? "declined" : null,
      confirmation,
    });
  }
  for (const [id, f] of facts) out.set(id, levelOf(f));
  return out;
}

const keyOf = (r: ConfirmationRow) => `${r.sessionId}:${r.artistId}:${r.kind}`;

/**
 * The pair rule: one artist's confirmations of another's sessions count once per 90 days. Oldest
 * first, a confirmation counts when the last one of the same pair that counted is 90 days or more
 * before it; the rest are repeats. A peer verification and a lineup answer of the same session by
 * the same artist are one voice, so the second is not a repeat.
 */
function repeatsOf(rows: ConfirmationRow[]): Set<string> {
  const repeats = new Set<string>();
  const last = new Map<string, { at: number; sessionId: string }>();
  const sorted = rows
    .filter((r) => r.void === null)
    .sort((a, b) => new Date(a.at).getTime() - new Date(b.at).getTime());
  for (const r of sorted) {
    const pair = `${r.artistId}>${r.ownerId}`;
    const at = new Date(r.at).getTime();
    const before = last.get(pair);
    if (before && before.sessionId !== r.sessionId && at - before.at < PAIR_WINDOW_DAYS * DAY) {
      repeats.add(keyOf(r));
      continue;
    }
    if (!before || before.sessionId !== r.sessionId) last.set(pair, { at, sessionId: r.sessionId });
  }
  return repeats;
}

/** One session's level (Self-logged for an unknown id). */
export async function sessionLevel(ctx: { db: Queryable }, sessionId: string) {
  return (
    (await sessionLevels(ctx, [sessionId])).get(sessionId) ?? {
      level: "self_logged" as const,
      verifiers: [],
      reachedAt: null,
    }
  );
}

/**
 * Writes a session's derived level onto its row, where counters and lists read it
 * (`is_verified`, Peer-confirmed and above, with its method; the artist's Verified Sessions
 * counter follows by trigger). Called in every write that may change a level, and by the
 * credential job, so the row never shows a level the rules no longer give. `known` is the level
 * when the caller derived it already (`sessionLevels` for a batch: levels never read the flags).
 */
export async function recordSessionLevel(
  tx: Queryable,
  sessionId: string,
  known?: SessionLevel,
): Promise<SessionLevel> {
  const level = known ?? (await sessionLevel({ db: tx }, sessionId));
  const method = VERIFICATION_METHOD_OF[level.level];
  await tx
    .update(musicSessions)
    .set({ isVerified: method !== null, verificationMethod: method })
    .where(
      and(
        eq(musicSessions.id, sessionId),
        sql`(${musicSessions.isVerified}, coalesce(${musicSessions.verificationMethod}, ''))
          IS DISTINCT FROM (${method !== null}, ${method ?? ""})`,
      ),
    );
  return level;
}
