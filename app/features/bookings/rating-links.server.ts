import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import type { SignedInActor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { isUuid } from "~/lib/ids";
import type { Queryable } from "~db/client";
import { bookings } from "~db/schema";
import { RATING_LINK_DAYS } from "./booking-mails";

// ─── One-click rating links (decision 044) ───────────────────────────────────────────────────
// A rating mail's link rates the booking without signing in. Its token is the booking's id, when
// the link expires (seconds, base 36) and an HMAC-SHA-256 of both and the booking's client under
// the server secret: nothing is stored, and only the server can make one. It proves only that its
// holder can read the client's mail, so it does one thing: rate that booking as its client, once.

/** `{booking id}.{expiry}.{43 base64url characters}`. */
const TOKEN = /^([0-9a-f-]{36})\.([0-9a-z]{1,9})\.([A-Za-z0-9_-]{43})$/;

const macOf = (secret: string, bookingId: string, clientUserId: string, expires: string) =>
  createHmac("sha256", secret)
    .update(`rating-link:${bookingId}:${clientUserId}:${expires}`)
    .digest("base64url");

/** The client's one-click rating address for a booking, working for `RATING_LINK_DAYS` from `now`. */
export function ratingLinkUrl(
  ctx: Pick<AppContext, "env">,
  booking: { id: string; clientUserId: string },
  now = new Date(),
) {
  const expires = Math.floor(now.getTime() / 1000 + RATING_LINK_DAYS * 86400).toString(36);
  const mac = macOf(ctx.env.authSecret, booking.id, booking.clientUserId, expires);
  return new URL(`/rate/${booking.id}.${expires}.${mac}`, ctx.env.appUrl).href;
}

export type RatingLink =
  | { state: "invalid" }
  /** Made by us, but too old: the client signs in to rate the booking on its page. */
  | { state: "expired"; bookingId: string }
  /** Acts as the booking's client for the rating only. */
  | { state: "valid"; bookingId: string; client: SignedInActor };

/** What a rating link's token is worth now; anything not made by us for a booking's client is invalid. */
export async function readRatingLink(
  ctx: { db: Queryable; env: Pick<AppContext["env"], "authSecret"> },
  token: string,
  now = new Date(),
): Promise<RatingLink> {
  const match = TOKEN.exec(token);
  const [, bookingId = "", expires = "", mac = ""] = match ?? [];
  if (!isUuid(bookingId)) return { state: "invalid" };
  const [row] = await ctx.db
    .select({ clientUserId: bookings.clientUserId })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  // A booking whose client deleted their account has nobody left to rate it.
  if (!row?.clientUserId) return { state: "invalid" };
  const expected = Buffer.from(macOf(ctx.env.authSecret, bookingId, row.clientUserId, expires));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { state: "invalid" };
  if (Number.parseInt(expires, 36) * 1000 <= now.getTime()) return { state: "expired", bookingId };
  return {
    state: "valid",
    bookingId,
    client: { id: row.clientUserId, roles: [], artistProfileId: null },
  };
}
