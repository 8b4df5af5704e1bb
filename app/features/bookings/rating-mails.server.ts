import { sql } from "drizzle-orm";
import type { AppContext } from "~/lib/context";
import { isUuid } from "~/lib/ids";
import { enqueueJob, type Job, type QueueHandler } from "~/lib/jobs.server";
import { sendMailOnce } from "~/lib/mail-once.server";
import { type Queryable, queryRows } from "~db/client";
import { bookingUrl, emailOf } from "./booking-mailer.server";
import { bookingMails } from "./booking-mails";
import { getBooking } from "./booking-views.server";
import { canRateBooking } from "./bookings.policy";
import { ratingLinkUrl } from "./rating-links.server";

// Asking for the evidence (docs/product.md, "Ratings"; decision 044): a completed booking's client
// is asked to rate it, reminded after 3 and 10 days while it is not rated, and its artist is told
// once it is. Each mail is a job of one queue, keyed by the booking and the mail, added in the
// transaction that calls for it, and sent at most once (`sendMailOnce`).

export const RATING_MAILS_QUEUE = "bookings.rating-mails";

/** Days after the first ask when an unrated booking's client is reminded. */
export const RATING_REMINDER_DAYS = [3, 10] as const;

type Kind = "ask" | "remind" | "rated";

const DAY_MS = 86_400_000;

/**
 * In the transaction that completes bookings (the settling job): the ask now and the reminders
 * later, for each booking. A booking rated before it was settled is completed by its rating, not
 * here, so its client is never asked.
 */
export async function queueRatingRequests(tx: Queryable, bookingIds: string[], now = new Date()) {
  for (const bookingId of bookingIds) {
    await enqueueJob(tx, {
      queue: RATING_MAILS_QUEUE,
      key: `${bookingId}:ask`,
      payload: { bookingId, kind: "ask" },
    });
    for (const days of RATING_REMINDER_DAYS) {
      await enqueueJob(tx, {
        queue: RATING_MAILS_QUEUE,
        key: `${bookingId}:remind-${days}`,
        payload: { bookingId, kind: "remind" },
        runAt: new Date(now.getTime() + days * DAY_MS),
      });
    }
  }
}

/** In the rating's transaction: the artist hears of it. */
export async function queueRatedMail(tx: Queryable, bookingId: string) {
  await enqueueJob(tx, {
    queue: RATING_MAILS_QUEUE,
    key: `${bookingId}:rated`,
    payload: { bookingId, kind: "rated" },
  });
}

type Ctx = Pick<AppContext, "db" | "env" | "mailer">;

/** The mail a job stands for, as things are now; null when it has nothing left to say. */
async function mailOf(ctx: Ctx, tx: Queryable, bookingId: string, kind: Kind) {
  // One at a time with the rating (which holds the same row): an ask never overtakes a rating.
  const [row] = await queryRows<{ clientUserId: string | null; artistUserId: string | null }>(
    tx,
    sql`SELECT b.client_user_id AS "clientUserId", ap.user_id AS "artistUserId"
      FROM bookings b LEFT JOIN artist_profiles ap ON ap.id = b.artist_profile_id
      WHERE b.id = ${bookingId} FOR UPDATE OF b`,
  );
  return row ? mailFor(ctx, tx, row, bookingId, kind) : null;
}

async function mailFor(
  ctx: Ctx,
  tx: Queryable,
  parties: { clientUserId: string | null; artistUserId: string | null },
  bookingId: string,
  kind: Kind,
) {
  const read = { db: tx, env: ctx.env };
  if (kind === "rated") {
    if (!parties.artistUserId) return null;
    const artist = { id: parties.artistUserId, roles: [], artistProfileId: null };
    const booking = await getBooking(read, artist, bookingId);
    const to = await emailOf(read, parties.artistUserId);
    if (!booking?.ratingGiven || booking.rating === null || !to) return null;
    return bookingMails.rated(
      to,
      {
        artistName: booking.artistName,
        clientName: booking.clientName,
        rating: booking.rating,
        review: booking.review,
      },
      booking,
      bookingUrl(ctx, booking.id),
    );
  }
  if (!parties.clientUserId || !parties.artistUserId) return null;
  const client = { id: parties.clientUserId, roles: [], artistProfileId: null };
  const booking = await getBooking(read, client, bookingId);
  // Rated meanwhile (never a reminder after a rating), or no longer ratable.
  if (!booking || !canRateBooking(client, booking) || booking.clientEmail === "N/A") return null;
  return bookingMails.askToRate(
    booking.clientEmail,
    { clientName: booking.clientName, artistName: booking.artistName, reminder: kind === "remind" },
    booking,
    ratingLinkUrl(ctx, { id: booking.id, clientUserId: parties.clientUserId }),
  );
}

const KINDS: readonly Kind[] = ["ask", "remind", "rated"];

async function sendRatingMail(ctx: Ctx, job: Job) {
  const { bookingId, kind } = job.payload as { bookingId?: unknown; kind?: unknown };
  if (!isUuid(bookingId) || !KINDS.includes(kind as Kind)) return;
  await sendMailOnce(ctx, `${RATING_MAILS_QUEUE}:${job.key}`, (tx) =>
    mailOf(ctx, tx, bookingId as string, kind as Kind),
  );
}

/** The rating mails' queue: each job sends its mail outside the database, at most once. */
export function ratingMailJobs(ctx: Ctx): QueueHandler[] {
  return [
    { queue: RATING_MAILS_QUEUE, leaseSeconds: 120, outside: (job) => sendRatingMail(ctx, job) },
  ];
}
