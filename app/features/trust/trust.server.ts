import { type SQL, sql } from "drizzle-orm";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { isUuid } from "~/lib/ids";
import { queryRows, queryRowsPrepared, uuidArray } from "~db/client";
import {
  type ClientRecord,
  type CountedCancellation,
  type CountedRequest,
  RESPONSE_WINDOW_HOURS,
  type ResponseFigures,
  type TrustFigures,
} from "./trust";

type ReadCtx = Pick<AppContext, "db">;

/*
 * Every figure here is computed from the booking rows when asked, never stored (docs/product.md,
 * Trust figures). The rules, once, as SQL:
 *
 * - A request counts for the response rate when it arrived in the last 90 days and either was
 *   answered or has been waiting longer than 24 hours (a request that came in this morning is not
 *   yet a miss). A request the client withdrew before any answer, within its first 24 hours,
 *   does not count: the artist had no fair chance.
 * - One client's requests to one artist that arrive on the same day (the artist's day) count as
 *   one request, which arrived with the first of them and was answered with the first answer to
 *   any of them (decision 038): a client who floods an artist moves the rate by one request a day
 *   at most, and an artist who answers them once has answered them.
 * - Its first answer is the earliest of the artist's accept or decline and the artist's first
 *   message in the booking.
 * - A cancellation counts when the artist cancelled a booking they had confirmed in the last
 *   12 months, out of all the bookings they confirmed in that time.
 */

/** The first answer to a booking `b` whose artist profile is `a`. */
const firstAnswer = sql`least(
  b.responded_at,
  (SELECT min(m.created_at) FROM booking_messages m
    WHERE m.booking_id = b.id AND m.sender_user_id = a.user_id)
)`;

const window = sql.raw(`interval '${RESPONSE_WINDOW_HOURS} hours'`);

const countedRequest = sql`(
  b.created_at >= now() - interval '90 days'
  AND NOT coalesce(b.cancelled_by = 'client' AND b.responded_at IS NULL
    AND b.cancelled_at < b.created_at + ${window}, false)
)`;

/**
 * The counted requests of some artists, one row per client, artist and day of arrival: `id` is
 * the day's first request, `requests` how many it stands for. A request whose client's account is
 * gone stands alone (nothing tells its client apart from another's). `artistIds` is one `uuid[]`
 * (uuidArray).
 */
function requestRows(artistIds: SQL) {
  return sql`
    SELECT r.artist_id,
      (array_agg(r.id ORDER BY r.created_at, r.id))[1] AS id,
      min(r.created_at) AS created_at,
      min(r.first_answer) AS first_answer,
      count(*)::int AS requests
    FROM (
      SELECT b.artist_profile_id AS artist_id, b.id, b.created_at,
        coalesce(b.client_user_id, b.id) AS client_key,
        (b.created_at AT TIME ZONE a.time_zone)::date AS arrival_day,
        ${firstAnswer} AS first_answer
      FROM bookings b JOIN artist_profiles a ON a.id = b.artist_profile_id
      WHERE b.artist_profile_id = ANY(${artistIds}) AND ${countedRequest}
    ) r
    GROUP BY r.artist_id, r.client_key, r.arrival_day`;
}

const countedNow = sql`(r.first_answer IS NOT NULL OR r.created_at <= now() - ${window})`;

/**
 * The response and cancellation figures of several artists in one round trip (a discovery page
 * asks for its twelve at once). Artists with no rows get zero counts.
 */
export async function getTrustFigures(
  ctx: ReadCtx,
  _actor: Actor,
  artistIds: string[],
): Promise<Record<string, TrustFigures>> {
  const ids = [...new Set(artistIds.filter(isUuid))];
  const figures: Record<string, TrustFigures> = {};
  if (ids.length === 0) return figures;
  const idList = uuidArray(ids);
  // Prepared: the same text for any page, planned once per connection (decision 071).
  const [responses, cancellations] = await Promise.all([
    queryRowsPrepared<{
      artist_id: string;
      counted: number;
      answered: number;
      median_seconds: number | null;
    }>(
      ctx.db,
      sql`
        SELECT r.artist_id,
          count(*) FILTER (WHERE ${countedNow})::int AS counted,
          count(*) FILTER (WHERE r.first_answer <= r.created_at + ${window})::int AS answered,
          percentile_cont(0.5) WITHIN GROUP (
            ORDER BY extract(epoch FROM r.first_answer - r.created_at)
          ) FILTER (WHERE r.first_answer IS NOT NULL) AS median_seconds
        FROM (${requestRows(idList)}) r
        GROUP BY r.artist_id`,
    ),
    queryRowsPrepared<{ artist_id: string; confirmed: number; cancelled: number }>(
      ctx.db,
      sql`
        SELECT b.artist_profile_id AS artist_id,
          count(*)::int AS confirmed,
          count(*) FILTER (WHERE b.cancelled_by = 'artist')::int AS cancelled
        FROM bookings b
        WHERE b.artist_profile_id = ANY(${idList})
          AND b.confirmed_at >= now() - interval '12 months'
        GROUP BY b.artist_profile_id`,
    ),
  ]);
  for (const id of ids) {
    figures[id] = {
      response: { counted: 0, answeredWithinWindow: 0, medianMinutes: null },
      cancellations: { confirmed: 0, cancelled: 0 },
    };
  }
  for (const row of responses) {
    const entry = figures[row.artist_id];
    if (!entry) continue;
    entry.response = responseOf(row);
  }
  for (const row of cancellations) {
    const entry = figures[row.artist_id];
    if (!entry) continue;
    entry.cancellations = { confirmed: row.confirmed, cancelled: row.cancelled };
  }
  return figures;
}

function responseOf(row: {
  counted: number;
  answered: number;
  median_seconds: number | null;
}): ResponseFigures {
  return {
    counted: row.counted,
    answeredWithinWindow: row.answered,
    medianMinutes: row.median_seconds === null ? null : Math.round(Number(row.median_seconds) / 60),
  };
}

/**
 * The receipts behind an artist's own figures, for their dashboard: each request that counts
 * (received, first answered, within 24 hours or not) and each confirmed booking of the last
 * 12 months (cancelled by them or not). Only the artist themselves may ask.
 */
export async function listTrustReceipts(
  ctx: ReadCtx,
  actor: Actor,
): Promise<{ requests: CountedRequest[]; confirmed: CountedCancellation[] } | null> {
  if (!actor?.artistProfileId) return null;
  const ids = uuidArray([actor.artistProfileId]);
  const [requests, confirmed] = await Promise.all([
    queryRows<{
      id: string;
      created_at: Date | string;
      first_answer: Date | string | null;
      event_date: string;
      requests: number;
    }>(
      ctx.db,
      sql`
        SELECT r.id, r.created_at, r.first_answer, r.requests,
          b.event_date::text AS event_date
        FROM (${requestRows(ids)}) r JOIN bookings b ON b.id = r.id
        WHERE ${countedNow}
        ORDER BY r.created_at DESC`,
    ),
    queryRows<{
      id: string;
      confirmed_at: Date | string;
      cancelled_at: Date | string | null;
      cancelled_by: string | null;
      event_date: string;
    }>(
      ctx.db,
      sql`
        SELECT b.id, b.confirmed_at, b.cancelled_at, b.cancelled_by, b.event_date::text AS event_date
        FROM bookings b
        WHERE b.artist_profile_id = ${actor.artistProfileId}::uuid
          AND b.confirmed_at >= now() - interval '12 months'
        ORDER BY b.confirmed_at DESC`,
    ),
  ]);
  const iso = (v: Date | string) => new Date(v).toISOString();
  return {
    requests: requests.map((r) => {
      const received = iso(r.created_at);
      const answered = r.first_answer ? iso(r.first_answer) : null;
      return {
        bookingId: r.id,
        eventDate: r.event_date,
        sameDayRequests: r.requests - 1,
        receivedAt: received,
        firstAnswerAt: answered,
        withinWindow:
          answered !== null &&
          Date.parse(answered) - Date.parse(received) <= RESPONSE_WINDOW_HOURS * 3_600_000,
      };
    }),
    confirmed: confirmed.map((c) => ({
      bookingId: c.id,
      eventDate: c.event_date,
      confirmedAt: iso(c.confirmed_at),
      cancelledAt: c.cancelled_by === "artist" && c.cancelled_at ? iso(c.cancelled_at) : null,
    })),
  };
}

/**
 * A client's record here, shown to an artist deciding on their request: bookings completed and
 * bookings the client cancelled. Only an artist who holds a booking from this client may ask.
 */
export async function getClientRecord(
  ctx: ReadCtx,
  actor: Actor,
  input: { clientUserId: string | null },
): Promise<ClientRecord | null> {
  if (!actor?.artistProfileId || !input.clientUserId || !isUuid(input.clientUserId)) return null;
  const [row] = await queryRows<{ asked: boolean; completed: number; cancelled: number }>(
    ctx.db,
    sql`
      SELECT
        EXISTS (SELECT 1 FROM bookings WHERE client_user_id = ${input.clientUserId}::uuid
          AND artist_profile_id = ${actor.artistProfileId}::uuid) AS asked,
        count(*) FILTER (WHERE status = 'completed'
          OR (status = 'confirmed' AND event_date < current_date))::int AS completed,
        count(*) FILTER (WHERE cancelled_by = 'client' AND withdrawn_for_id IS NULL)::int
          AS cancelled
      FROM bookings WHERE client_user_id = ${input.clientUserId}::uuid`,
  );
  if (!row?.asked) return null;
  const rated = await queryRows<{
    stars: number;
    comment: string | null;
    count: number;
    average: number | null;
  }>(
    ctx.db,
    sql`SELECT stars, comment, count(*) OVER ()::int AS count, avg(stars) OVER ()::float AS average
        FROM client_ratings WHERE client_user_id = ${input.clientUserId}::uuid
        ORDER BY created_at DESC`,
  );
  return {
    completedBookings: row.completed,
    cancelledBookings: row.cancelled,
    ratings: {
      count: rated[0]?.count ?? 0,
      average: rated[0]?.average ?? null,
      latest: rated.slice(0, 3).map((r) => ({ stars: r.stars, comment: r.comment })),
    },
  };
}
