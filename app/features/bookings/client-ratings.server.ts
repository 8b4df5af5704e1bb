// Two-way trust (issue 42, docs/decisions/058): after a completed booking the artist rates the
// client (1–5 and a short text, once); other artists see it beside the client's record on the
// client's later requests (trust's `getClientRecord`).
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { SignedInActor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { refuse } from "~/lib/problem";
import { queryRows } from "~db/client";
import { getBooking } from "./booking-views.server";
import { isBookingArtist } from "./bookings.policy";
import { CLIENT_COMMENT_MAX } from "./client-rating-rules";

type Ctx = Pick<AppContext, "db" | "env" | "clock">;

export const ClientRatingSchema = z.object({
  stars: z.coerce
    .number({ error: "Choose 1 to 5 stars." })
    .int({ error: "Choose 1 to 5 stars." })
    .min(1, { error: "Choose 1 to 5 stars." })
    .max(5, { error: "Choose 1 to 5 stars." }),
  comment: z
    .string()
    .trim()
    .max(CLIENT_COMMENT_MAX, { error: `At most ${CLIENT_COMMENT_MAX} characters.` })
    .optional()
    .transform((v) => (v ? v : null)),
});

export type ClientRatingState = {
  bookingId: string;
  clientName: string;
  eventDate: string;
  status: string;
  given: { stars: number; comment: string | null } | null;
  canRate: boolean;
};

/** What the artist's rating page shows; null for anyone but the booking's artist. */
export async function clientRatingState(
  ctx: Ctx,
  actor: SignedInActor,
  bookingId: string,
): Promise<ClientRatingState | null> {
  const booking = await getBooking(ctx, actor, bookingId);
  if (!booking || !isBookingArtist(actor, booking)) return null;
  const [given] = await queryRows<{ stars: number; comment: string | null }>(
    ctx.db,
    sql`SELECT stars, comment FROM client_ratings WHERE booking_id = ${booking.id}`,
  );
  return {
    bookingId: booking.id,
    clientName: booking.clientName,
    eventDate: booking.eventDate,
    status: booking.status,
    given: given ?? null,
    canRate: booking.status === "completed" && !given && booking.clientUserId !== null,
  };
}

/** The artist rates the client of a completed booking, once. */
export async function rateClient(
  ctx: Ctx,
  actor: SignedInActor,
  bookingId: string,
  input: z.infer<typeof ClientRatingSchema>,
) {
  const state = await clientRatingState(ctx, actor, bookingId);
  if (!state) refuse("not_found", "This booking does not exist.");
  if (state.status !== "completed")
    refuse("conflict", "You can rate the client once the booking is completed.");
  const added = await queryRows<{ id: string }>(
    ctx.db,
    sql`INSERT INTO client_ratings (booking_id, client_user_id, artist_profile_id, stars, comment,
          created_at)
        SELECT b.id, b.client_user_id, b.artist_profile_id, ${input.stars}, ${input.comment},
          ${ctx.clock.now().toISOString()}
        FROM bookings b WHERE b.id = ${bookingId} AND b.client_user_id IS NOT NULL
        ON CONFLICT (booking_id) DO NOTHING RETURNING id`,
  );
  if (added.length === 0)
    refuse("conflict", "You have already rated this client for this booking.");
}
