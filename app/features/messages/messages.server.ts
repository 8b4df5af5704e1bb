import { and, asc, eq, sql } from "drizzle-orm";
import type { AppContext } from "~/lib/context";
import { bookingMessages, profiles, users } from "~db/schema";
import { bookingMails } from "../bookings/booking-mails";
import { canMessageBooking } from "../bookings/bookings.policy";
import { BookingError, getBookingForUser } from "../bookings/bookings.server";

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
 * The caller has already checked that the reader is a party of the booking.
 */
export async function listMessages(
  ctx: Pick<AppContext, "db">,
  bookingId: string,
  after?: string | null,
) {
  // Compared inside the database: created_at has microseconds, a JavaScript Date only milliseconds.
  const afterClause =
    after && /^[0-9a-f-]{36}$/i.test(after)
      ? sql`(${bookingMessages.createdAt}, ${bookingMessages.id}) > (SELECT created_at, id FROM booking_messages WHERE id = ${after} AND booking_id = ${bookingId})`
      : undefined;
  const rows = await ctx.db
    .select(columns)
    .from(bookingMessages)
    .innerJoin(users, eq(users.id, bookingMessages.senderUserId))
    .leftJoin(profiles, eq(profiles.id, bookingMessages.senderUserId))
    .where(
      afterClause
        ? and(eq(bookingMessages.bookingId, bookingId), afterClause)
        : eq(bookingMessages.bookingId, bookingId),
    )
    .orderBy(asc(bookingMessages.createdAt), asc(bookingMessages.id));
  return rows.map(toMessage);
}

/** Saves a message from one party, delivers it live to open pages and e-mails the other party. */
export async function sendMessage(ctx: Ctx, user: { id: string }, bookingId: string, text: string) {
  const booking = await getBookingForUser(ctx, bookingId, user.id);
  if (!booking) throw new BookingError("Booking not found.", 404);
  if (!canMessageBooking(user.id, booking))
    throw new BookingError("Messages can't be sent on this booking.", 409);
  const [saved] = await ctx.db
    .insert(bookingMessages)
    .values({ bookingId, senderUserId: user.id, message: text })
    .returning({ id: bookingMessages.id });
  const [message] = await ctx.db
    .select(columns)
    .from(bookingMessages)
    .innerJoin(users, eq(users.id, bookingMessages.senderUserId))
    .leftJoin(profiles, eq(profiles.id, bookingMessages.senderUserId))
    .where(eq(bookingMessages.id, saved?.id as string));
  const view = toMessage(message as Parameters<typeof toMessage>[0]);
  await ctx.realtime.publish(bookingTopic(bookingId), { id: view.id });

  const toClient = booking.artistUserId === user.id;
  const recipientEmail = toClient ? booking.clientEmail : await emailOf(ctx, booking.artistUserId);
  const recipientName = toClient ? booking.clientName : booking.artistName;
  if (recipientEmail && recipientEmail !== "N/A") {
    try {
      await ctx.mailer.send(
        bookingMails.newMessage(
          recipientEmail,
          recipientName,
          view.senderName,
          text,
          new URL(`/bookings/${bookingId}`, ctx.env.appUrl).href,
        ),
      );
    } catch (error) {
      ctx.logger.error({ err: error }, "could not e-mail a message notification");
    }
  }
  return view;
}

async function emailOf(ctx: Pick<AppContext, "db">, userId: string | null) {
  if (!userId) return null;
  const [row] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}
