import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { addOffer } from "~/features/agreements/agreements.server";
import type { OfferChoices } from "~/features/agreements/offer-document";
import { canBookArtist } from "~/features/artists/artists.policy";
import { busyStatusOn } from "~/features/availability/availability.server";
import { paymentRouteOf } from "~/features/payments/payouts.server";
import { policyTerms } from "~/features/terms/policies";
import type { PublishedTerms } from "~/features/terms/published-terms";
import { publishedTermsSha256 } from "~/features/terms/published-terms.server";
import type { SignedInActor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { formatLongDate, todayIn, wallClockIn } from "~/lib/dates";
import { rupeesToPaise } from "~/lib/money";
import { formatPaise } from "~/lib/money-text";
import { refuse } from "~/lib/problem";
import { hitRateLimit } from "~/lib/rate-limit.server";
import type { Queryable } from "~db/client";
import { artistProfiles, bookings, profiles, userRoles, users } from "~db/schema";
import { bookingUrl, emailOf, sendQuietly } from "./booking-mailer.server";
import { type BookingFacts, bookingMails } from "./booking-mails";
import { formatDuration } from "./booking-time";
import { BOOKING_REFUSALS, BOOKING_REQUEST_LIMITS } from "./bookings.constants";
import type { BookingRequest, GroupRequest, RequestOrigin } from "./bookings.schema";
import { estimateTotal } from "./pricing";

type Ctx = Pick<AppContext, "db" | "env" | "logger" | "mailer" | "clock">;

/**
 * The request's offer: one line, the estimate (hours × the hourly rate, ₹150 an hour without one),
 * on the artist's published deposit, balance due day and policy.
 */
function requestChoices(
  hours: number,
  hourlyRate: number | null,
  terms: PublishedTerms,
  termsSha256: string,
): OfferChoices {
  const rate = rupeesToPaise(hourlyRate ?? 150);
  return {
    kind: "request",
    lines: [
      {
        label: `Performance, ${formatDuration(hours)} at ${formatPaise(rate)} per hour`,
        amountPaise: rupeesToPaise(estimateTotal(hours, hourlyRate)),
      },
    ],
    depositBps: terms.depositBps,
    balanceDueDays: terms.balanceDueDays,
    cancellation: policyTerms(terms.policy),
    included: [],
    notes: null,
    publishedTermsSha256: termsSha256,
  };
}

/** What a request asks of every artist it goes to: the event, without the artist. */
type RequestDetails = Omit<BookingRequest, "artistId" | "termsSha256">;

/** An artist a request may go to, with the published terms it offers to book on. */
type RequestedArtist = {
  id: string;
  userId: string;
  slug: string;
  artistName: string;
  hourlyRate: number | null;
  timeZone: string;
  email: string;
  terms: PublishedTerms;
  termsSha256: string;
};

/**
 * Every rule a request must meet for one artist, before anything is stored: the artist exists and
 * is not the client, the date (in the artist's zone) is ahead and free, and the terms are the ones
 * the form showed (`termsSha256`). `several`: the request goes to more than one artist, so a busy
 * date names whose it is.
 */
async function requestedArtist(
  ctx: Ctx,
  actor: SignedInActor,
  artistId: string,
  input: RequestDetails & { termsSha256?: string },
  several = false,
): Promise<RequestedArtist> {
  const [artist] = await ctx.db
    .select({
      id: artistProfiles.id,
      userId: artistProfiles.userId,
      slug: artistProfiles.slug,
      artistName: artistProfiles.artistName,
      hourlyRate: artistProfiles.hourlyRate,
      timeZone: artistProfiles.timeZone,
      depositBps: artistProfiles.depositBps,
      balanceDueDays: artistProfiles.balanceDueDays,
      policy: artistProfiles.cancellationPolicy,
      email: users.email,
    })
    .from(artistProfiles)
    .innerJoin(users, eq(users.id, artistProfiles.userId))
    .where(eq(artistProfiles.id, artistId));
  if (!artist) refuse("not_found", "Artist profile not found.");
  if (!canBookArtist(actor, artist)) refuse("forbidden", "You can't book your own profile.");
  const day = todayIn(artist.timeZone);
  if (input.eventDate < day)
    refuse("invalid", "Please choose today or a later date.", {
      reason: BOOKING_REFUSALS.dateNotAvailable,
    });
  if (
    input.eventDate === day &&
    input.startTime !== null &&
    input.startTime <= wallClockIn(new Date(), artist.timeZone).time
  ) {
    const message = "This start time has already passed today. Please choose a later time.";
    refuse("invalid", message, {
      reason: BOOKING_REFUSALS.startTimePassed,
      fieldErrors: { startTime: message },
    });
  }
  // The one "free on a date" rule, as in discovery's "Available on" (marks, confirmed bookings,
  // imported calendars).
  const busy = await busyStatusOn(ctx, actor, { artistId: artist.id, date: input.eventDate });
  if (busy) {
    refuse(
      "conflict",
      several
        ? `${artist.artistName} is not free on ${formatLongDate(input.eventDate)} (${busy}). Remove them from this request or choose another date.`
        : `This date is ${busy}. Please choose an available date.`,
      { reason: BOOKING_REFUSALS.dateNotAvailable },
    );
  }
  const terms = {
    depositBps: artist.depositBps,
    balanceDueDays: artist.balanceDueDays,
    policy: artist.policy,
  };
  const termsSha256 = publishedTermsSha256(terms);
  if (input.termsSha256 && input.termsSha256 !== termsSha256) {
    refuse(
      "conflict",
      `${artist.artistName} changed their booking terms while you were reading them. Please read the new terms and send your request again.`,
      { reason: BOOKING_REFUSALS.termsChanged },
    );
  }
  return { ...artist, terms, termsSha256 };
}

/**
 * Stores the request to one artist, in the caller's transaction: at most one pending request per
 * client, artist and date; counted against the client's limits; its first offer on the artist's
 * published terms. Returns the booking's id.
 */
async function storeRequest(
  tx: Queryable,
  ctx: Ctx,
  request: {
    actor: SignedInActor;
    clientName: string;
    artist: RequestedArtist;
    input: RequestDetails;
    origin: RequestOrigin;
    groupId: string | null;
  },
): Promise<string> {
  const { actor, clientName, artist, input } = request;
  // One client's requests are stored one at a time (the lock is held to the commit and taken
  // again for each artist of a group at no cost), so two sent at once can't both be first, and a
  // group and a single request sent together never hold what the other waits for.
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(hashtextextended(${`booking-request:${actor.id}`}, 0))`,
  );
  const [first] = await tx
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.clientUserId, actor.id),
        eq(bookings.artistProfileId, artist.id),
        eq(bookings.eventDate, input.eventDate),
        eq(bookings.status, "pending"),
      ),
    )
    .limit(1);
  if (first) {
    refuse(
      "conflict",
      `You already have a pending request to ${artist.artistName} for ${formatLongDate(input.eventDate)}.`,
      {
        reason: BOOKING_REFUSALS.duplicateRequest,
        fieldErrors: { pendingBookingId: first.id },
      },
    );
  }
  await withinRequestLimits(tx, actor, artist);
  const [created] = await tx
    .insert(bookings)
    .values({
      artistProfileId: artist.id,
      clientUserId: actor.id,
      eventDate: input.eventDate,
      startTime: input.startTime,
      durationHours: input.durationHours,
      venue: input.venue,
      eventType: input.eventType,
      message: input.message,
      status: "pending",
      totalAmount: estimateTotal(input.durationHours, artist.hourlyRate),
      requestGroupId: request.groupId,
    })
    .returning({ id: bookings.id });
  const bookingId = created?.id as string;
  // The request is the booking's first offer: the client's, on the published terms.
  await addOffer(tx, {
    facts: {
      bookingId,
      artist: { profileId: artist.id, userId: artist.userId, name: artist.artistName },
      client: { userId: actor.id, name: clientName },
      event: {
        date: input.eventDate,
        startTime: input.startTime,
        timeZone: artist.timeZone,
        durationMinutes: Math.round(input.durationHours * 60),
        venue: input.venue,
        eventType: input.eventType,
        eventName: null,
      },
    },
    choices: {
      ...requestChoices(input.durationHours, artist.hourlyRate, artist.terms, artist.termsSha256),
      paidThrough: await paymentRouteOf(tx, ctx.env, { artistProfileId: artist.id }),
    },
    maker: { party: "client", userId: actor.id, name: clientName, ...request.origin },
    at: new Date(),
    expiresAt: null,
  });
  // Sending a first booking request is what makes a user a client.
  await tx.insert(userRoles).values({ userId: actor.id, role: "client" }).onConflictDoNothing();
  return bookingId;
}

/** The event as a booking mail tells it, for one artist's booking. */
function factsFor(input: RequestDetails, artist: RequestedArtist): BookingFacts {
  return {
    ...input,
    timeZone: artist.timeZone,
    totalAmount: estimateTotal(input.durationHours, artist.hourlyRate),
  };
}

/**
 * A client's request: every rule checked here, the amount computed here. The date and start time
 * are wall-clock values in the artist's zone, and "today" is the artist's today. The artist gets
 * the request by mail, the client a confirmation.
 */
export async function createBookingRequest(
  ctx: Ctx,
  actor: SignedInActor,
  input: BookingRequest,
  origin: RequestOrigin = {},
) {
  const artist = await requestedArtist(ctx, actor, input.artistId, input);
  const clientName = await clientNameOf(ctx, actor.id);
  const id = await ctx.db.transaction((tx) =>
    storeRequest(tx, ctx, { actor, clientName, artist, input, origin, groupId: null }),
  );
  const facts = factsFor(input, artist);
  const url = bookingUrl(ctx, id);
  const clientEmail = await emailOf(ctx, actor.id);
  if (clientEmail) {
    await sendQuietly(
      ctx,
      bookingMails.requestSent(
        clientEmail,
        { clientName, artistName: artist.artistName },
        facts,
        url,
      ),
    );
  }
  await sendQuietly(
    ctx,
    bookingMails.newRequest(
      artist.email,
      { artistName: artist.artistName, clientName, message: input.message },
      facts,
      url,
    ),
  );
  return { id, artistName: artist.artistName, artistSlug: artist.slug };
}

/**
 * One request to several artists (two or three; decision 060): the same event to each, every
 * rule checked for each before anything is stored, then one booking per artist in one transaction
 * (all sent or none), sharing a group id. Each request counts against the client's limits as a
 * single one does. Each artist gets the request by mail, told how many artists it went to; the
 * client one confirmation listing them.
 */
export async function createGroupRequest(
  ctx: Ctx,
  actor: SignedInActor,
  input: GroupRequest,
  origin: RequestOrigin = {},
) {
  const artists: RequestedArtist[] = [];
  for (const [i, artistId] of input.artistIds.entries()) {
    artists.push(
      await requestedArtist(
        ctx,
        actor,
        artistId,
        { ...input, termsSha256: input.termsSha256?.[i] },
        true,
      ),
    );
  }
  const clientName = await clientNameOf(ctx, actor.id);
  const groupId = randomUUID();
  const ids = await ctx.db.transaction(async (tx) => {
    const stored = new Map<string, string>();
    for (const artist of artists) {
      stored.set(
        artist.id,
        await storeRequest(tx, ctx, { actor, clientName, artist, input, origin, groupId }),
      );
    }
    return stored;
  });
  const sent = artists.map((artist) => ({
    bookingId: ids.get(artist.id) as string,
    artistName: artist.artistName,
    facts: factsFor(input, artist),
  }));
  const clientEmail = await emailOf(ctx, actor.id);
  if (clientEmail) {
    await sendQuietly(
      ctx,
      bookingMails.groupRequestSent(
        clientEmail,
        clientName,
        sent.map((s) => ({ ...s, url: bookingUrl(ctx, s.bookingId) })),
      ),
    );
  }
  for (const [i, artist] of artists.entries()) {
    const { bookingId, facts } = sent[i] as (typeof sent)[number];
    await sendQuietly(
      ctx,
      bookingMails.newRequest(
        artist.email,
        {
          artistName: artist.artistName,
          clientName,
          message: input.message,
          sentTo: artists.length,
        },
        facts,
        bookingUrl(ctx, bookingId),
      ),
    );
  }
  return sent.map(({ bookingId, artistName }) => ({ id: bookingId, artistName }));
}

/** The client's name as the artist sees it in mails ("Client" when the profile has none). */
async function clientNameOf(ctx: Pick<AppContext, "db">, userId: string) {
  const [row] = await ctx.db
    .select({ first: profiles.firstName, last: profiles.lastName, name: users.name })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(eq(users.id, userId));
  return [row?.first, row?.last].filter(Boolean).join(" ").trim() || row?.name || "Client";
}

/** "45 minutes", "3 hours": how long until a limit's window ends. */
function waitText(ms: number) {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes <= 60) return `${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
  const hours = Math.ceil(minutes / 60);
  return `${hours} ${hours === 1 ? "hour" : "hours"}`;
}

/**
 * Counts a request that is about to be stored against the client's limits (decision 038), inside
 * its transaction: a request refused for any reason, by a limit too, rolls its count back, so
 * only stored requests count and a refused one is never stored or mailed.
 */
async function withinRequestLimits(
  tx: Queryable,
  actor: SignedInActor,
  artist: { id: string; artistName: string },
) {
  const { perArtist, perClient } = BOOKING_REQUEST_LIMITS;
  const toArtist = await hitRateLimit(tx, `booking-request:${actor.id}:${artist.id}`, perArtist);
  if (!toArtist.allowed) {
    refuse(
      "rate_limited",
      `You have sent ${artist.artistName} ${perArtist.max} booking requests in the last 24 hours. Please wait for an answer, or send another request in ${waitText(toArtist.retryAfterMs)}.`,
      { reason: BOOKING_REFUSALS.rateLimited },
    );
  }
  const toAnyone = await hitRateLimit(tx, `booking-request:${actor.id}`, perClient);
  if (!toAnyone.allowed) {
    refuse(
      "rate_limited",
      `You have sent ${perClient.max} booking requests in the last hour. Please send the next one in ${waitText(toAnyone.retryAfterMs)}.`,
      { reason: BOOKING_REFUSALS.rateLimited },
    );
  }
}
