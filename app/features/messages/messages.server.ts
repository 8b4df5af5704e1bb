import { and, asc, eq, sql } from "drizzle-orm";
import { getBooking } from "~/features/bookings/booking-views.server";
import {
  type BookingParties,
  canMessageBooking,
  canReadBooking,
  isBookingArtist,
} from "~/features/bookings/bookings.policy";
import type { Actor, SignedInActor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { isUuid } from "~/lib/ids";
import { refuse } from "~/lib/problem";
import { queryRows } from "~db/client";
import { bookingMessageReads, bookingMessages, profiles, users } from "~db/schema";
import { newMessageMail } from "./message-mails";

type Ctx = Pick<AppContext, "db" | "env" | "logger" | "mailer" | "realtime">;

export type BookingMessage = {
  id: string;
  senderUserId: string;
  senderName: string;
  message: string;
  createdAt: string;
};

export const bookingTopic = (bookingId: string) => `booking:${bookingId}`;

const columns = {
  id: bookingMessages.id,
  senderUserId: bookingMessages.senderUserId,
  first: profiles.firstName,
  last: profiles.lastName,
  name: users.name,
  message: bookingMessages.message,
  createdAt: bookingMessages.createdAt,
};

function toMessage(row: {
  id: string;
  senderUserId: string;
  first: string | null;
  last: string | null;
  name: string | null;
  message: string;
  createdAt: Date;
}): BookingMessage {
  const senderName = [row.first, row.last].filter(Boolean).join(" ") || row.name || "Someone";
  return {
    id: row.id,
    senderUserId: row.senderUserId,
    senderName,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * A booking's messages, oldest first; with `after` (a message id), only those sent after it.
 * `booking` is the one `getBooking` gave this actor; anyone who is not a party reads nothing.
 */
export async function listMessages(
  ctx: Pick<AppContext, "db">,
  actor: Actor,
  input: { booking: BookingParties & { id: string }; after?: string | null },
): Promise<BookingMessage[]> {
  const { booking, after } = input;
  if (!canReadBooking(actor, booking)) return [];
  // Compared inside the database: created_at has microseconds, a JavaScript Date only milliseconds.
  const afterClause =
    after && isUuid(after)
      ? sql`(${bookingMessages.createdAt}, ${bookingMessages.id}) > (SELECT created_at, id FROM booking_messages WHERE id = ${after} AND booking_id = ${booking.id})`
      : undefined;
  const rows = await ctx.db
    .select(columns)
    .from(bookingMessages)
    .innerJoin(users, eq(users.id, bookingMessages.senderUserId))
    .leftJoin(profiles, eq(profiles.id, bookingMessages.senderUserId))
    .where(
      afterClause
        ? and(eq(bookingMessages.bookingId, booking.id), afterClause)
        : eq(bookingMessages.bookingId, booking.id),
    )
    .orderBy(asc(bookingMessages.createdAt), asc(bookingMessages.id));
  return rows.map(toMessage);
}

/** Saves a message from one party, delivers it live to open pages and e-mails the other party. */
export async function sendMessage(
  ctx: Ctx,
  actor: SignedInActor,
  input: { bookingId: string; message: string },
) {
  const { bookingId, message: text } = input;
  const booking =
    (await getBooking(ctx, actor, bookingId)) ?? refuse("not_found", "Booking not found.");
  if (!canMessageBooking(actor, booking))
    refuse("conflict", "Messages can't be sent on this booking.");
  const [saved] = await ctx.db
    .insert(bookingMessages)
    .values({ bookingId, senderUserId: actor.id, message: text })
    .returning({ id: bookingMessages.id });
  const [message] = await ctx.db
    .select(columns)
    .from(bookingMessages)
    .innerJoin(users, eq(users.id, bookingMessages.senderUserId))
    .leftJoin(profiles, eq(profiles.id, bookingMessages.senderUserId))
    .where(eq(bookingMessages.id, saved?.id as string));
  const view = toMessage(message as Parameters<typeof toMessage>[0]);
  await ctx.realtime.publish(bookingTopic(bookingId), { id: view.id });

  const toClient = isBookingArtist(actor, booking);
  const recipientId = toClient ? booking.clientUserId : booking.artistUserId;
  const recipientEmail = toClient ? booking.clientEmail : await emailOf(ctx, recipientId);
  const recipientName = toClient ? booking.clientName : booking.artistName;
  if (recipientId && recipientEmail && recipientEmail !== "N/A") {
    try {
      if (await claimMessageMail(ctx, { bookingId, userId: recipientId })) {
        await ctx.mailer.send(
          newMessageMail(
            recipientEmail,
            { recipientName, senderName: view.senderName },
            text,
            new URL(`/bookings/${bookingId}`, ctx.env.appUrl).href,
          ),
        );
      }
    } catch (error) {
      ctx.logger.error({ err: error }, "could not e-mail a message notification");
    }
  }
  return view;
}

/** How long a message mail holds back the next one while its recipient has not read them. */
const MESSAGE_MAIL_INTERVAL_MINUTES = 15;

/**
 * Whether the recipient gets a mail for a new message, recorded at once so that two messages sent
 * together can't both say yes. Yes when they were never mailed about this booking, when the last
 * mail is 15 minutes old or more, or when they have read the messages since it; otherwise (a mail
 * in the last 15 minutes still unread) no. See docs/decisions/012-message-mail-throttle.md.
 */
async function claimMessageMail(
  ctx: Pick<AppContext, "db">,
  input: { bookingId: string; userId: string },
): Promise<boolean> {
  const claimed = await queryRows<{ user_id: string }>(
    ctx.db,
    sql`INSERT INTO booking_message_reads (booking_id, user_id, last_mailed_at)
      VALUES (${input.bookingId}, ${input.userId}, now())
      ON CONFLICT (booking_id, user_id) DO UPDATE SET last_mailed_at = excluded.last_mailed_at
      WHERE booking_message_reads.last_mailed_at IS NULL
        OR booking_message_reads.last_mailed_at
          <= now() - make_interval(mins => ${MESSAGE_MAIL_INTERVAL_MINUTES})
        OR booking_message_reads.last_read_at >= booking_message_reads.last_mailed_at
      RETURNING user_id`,
  );
  return claimed.length > 0;
}

/**
 * The actor has read the booking's messages: called when they load the booking's page, so the
 * next message mails them again. Nothing for anyone who is not a party.
 */
export async function markMessagesRead(
  ctx: Pick<AppContext, "db">,
  actor: Actor,
  booking: BookingParties & { id: string },
) {
  if (!actor || !canReadBooking(actor, booking)) return;
  await ctx.db
    .insert(bookingMessageReads)
    .values({ bookingId: booking.id, userId: actor.id, lastReadAt: sql`now()` })
    .onConflictDoUpdate({
      target: [bookingMessageReads.bookingId, bookingMessageReads.userId],
      set: { lastReadAt: sql`now()` },
    });
}

async function emailOf(ctx: Pick<AppContext, "db">, userId: string | null) {
  if (!userId) return null;
  const [row] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}
