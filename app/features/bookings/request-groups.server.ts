import { sql } from "drizzle-orm";
import { closeOpenOffer } from "~/features/agreements/agreements.server";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { type Queryable, queryRows, uuidArray } from "~db/client";
import { bookingUrl, emailOf, sendQuietly } from "./booking-mailer.server";
import { bookingMails } from "./booking-mails";
import type { BookingView } from "./booking-views.server";
import { type BookingStatus, isBookingClient } from "./bookings.policy";

// One request sent to several artists (decision 060): each artist answers their own booking; the
// first one agreed (the artist accepts the request, or the client accepts a quote) withdraws the
// others still pending, in the agreeing transaction.

type Ctx = Pick<AppContext, "db" | "env" | "logger" | "mailer">;

/** Why a withdrawn request was withdrawn, as both parties read it on the booking page. */
export const WITHDRAWN_FOR_ANOTHER =
  "The client agreed with another artist this request was also sent to.";

/**
 * Serialises the agreements of one group: taken first in every agreeing transaction (before the
 * booking's own row), so two artists accepting at once agree one after the other, and the second
 * finds their request withdrawn. A booking outside any group takes nothing.
 */
export async function lockRequestGroup(tx: Queryable, bookingId: string) {
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(hashtextextended('request-group:' || request_group_id::text, 0))
        FROM bookings WHERE id = ${bookingId} AND request_group_id IS NOT NULL`,
  );
}

/**
 * The booking `agreedId` was just agreed: the other requests of its group still pending are
 * withdrawn (cancelled on the client's behalf, pointing at the agreed one), and their open offers
 * with them. Returns the withdrawn bookings' ids, for `tellWithdrawn` after the commit.
 */
export async function withdrawOtherRequests(
  tx: Queryable,
  agreedId: string,
  at: Date,
): Promise<string[]> {
  const withdrawn = await queryRows<{ id: string }>(
    tx,
    sql`UPDATE bookings o SET status = 'cancelled', cancelled_at = ${at.toISOString()},
          cancelled_by = 'client', cancel_reason = ${WITHDRAWN_FOR_ANOTHER},
          withdrawn_for_id = a.id, updated_at = ${at.toISOString()}
        FROM bookings a
        WHERE a.id = ${agreedId} AND a.request_group_id IS NOT NULL
          AND o.request_group_id = a.request_group_id AND o.id <> a.id AND o.status = 'pending'
        RETURNING o.id`,
  );
  for (const { id } of withdrawn) await closeOpenOffer(tx, id, "withdrawn", at);
  return withdrawn.map((w) => w.id);
}

/** Each artist whose request was withdrawn hears of it by mail. */
export async function tellWithdrawn(ctx: Ctx, bookingIds: string[]) {
  if (bookingIds.length === 0) return;
  const rows = await queryRows<{
    id: string;
    artistName: string;
    artistUserId: string;
    clientName: string;
    eventDate: string;
    startTime: string | null;
    durationHours: number;
    venue: string;
    eventType: string;
    totalAmount: number;
    timeZone: string;
  }>(
    ctx.db,
    sql`SELECT b.id, a.artist_name AS "artistName", a.user_id AS "artistUserId",
          coalesce(nullif(trim(concat_ws(' ', p.first_name, p.last_name)), ''), u.name, 'Client')
            AS "clientName",
          b.event_date::text AS "eventDate", to_char(b.start_time, 'HH24:MI') AS "startTime",
          b.duration_hours::float AS "durationHours", b.venue, b.event_type AS "eventType",
          b.total_amount::float AS "totalAmount", a.time_zone AS "timeZone"
        FROM bookings b
        JOIN artist_profiles a ON a.id = b.artist_profile_id
        LEFT JOIN users u ON u.id = b.client_user_id
        LEFT JOIN profiles p ON p.id = b.client_user_id
        WHERE b.id = ANY(${uuidArray(bookingIds)})`,
  );
  for (const row of rows) {
    const to = await emailOf(ctx, row.artistUserId);
    if (!to) continue;
    await sendQuietly(
      ctx,
      bookingMails.requestWithdrawn(
        to,
        { artistName: row.artistName, clientName: row.clientName },
        row,
        bookingUrl(ctx, row.id),
      ),
    );
  }
}

/** One of the other bookings of a group, as its client sees it from any of them. */
export type GroupSibling = { id: string; artistName: string; status: BookingStatus };

/**
 * What a booking's page says of its group: to the client, the other artists asked (each linking
 * to its booking, with its status); to the artist, only how many artists were asked.
 */
export async function requestGroupOf(
  ctx: Pick<AppContext, "db">,
  actor: Actor,
  booking: BookingView,
): Promise<{ size: number; others: GroupSibling[] } | null> {
  if (!booking.requestGroupId) return null;
  const rows = await queryRows<GroupSibling>(
    ctx.db,
    sql`SELECT b.id, coalesce(a.artist_name, 'Deleted user') AS "artistName", b.status
        FROM bookings b LEFT JOIN artist_profiles a ON a.id = b.artist_profile_id
        WHERE b.request_group_id = ${booking.requestGroupId} AND b.id <> ${booking.id}
        ORDER BY 2, b.id`,
  );
  const others = actor && isBookingClient(actor, booking) ? rows : [];
  return { size: rows.length + 1, others };
}
