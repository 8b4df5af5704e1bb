import { eq } from "drizzle-orm";
import type { OfferDocument } from "~/features/agreements/agreement-document";
import { agreementsOf, offerHistoryOf } from "~/features/agreements/agreements.server";
import { paidPaiseOf } from "~/features/payments/booking-payments.server";
import { DEFAULT_POLICY } from "~/features/terms/policies";
import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { rupeesToPaise } from "~/lib/money";
import { type Queryable, readEach } from "~db/client";
import { artistProfiles } from "~db/schema";
import type { BookingView } from "./booking-views.server";
import { canArtistCancelBooking, canCancelBooking, isBookingArtist } from "./bookings.policy";
import { type CancelOutcome, cancellationNow } from "./cancel-now";
import type { QuoteDraft } from "./quote-draft";

// What the booking page shows of the booking's terms: every version with what changed, the open
// quote, the agreement, and "If you cancel now" (decision 047). Reads only; the caller has already
// checked that the actor is a party.

export type OfferEntry = {
  id: string;
  version: number;
  kind: "request" | "quote";
  status: "open" | "superseded" | "declined" | "withdrawn" | "accepted";
  sha256: string;
  createdAt: Date;
  closedAt: Date | null;
  expired: boolean;
  document: OfferDocument;
  acceptedBy: { party: "artist" | "client"; acceptedAt: Date }[];
  changeRequests: {
    message: string;
    wishedTotalPaise: number | null;
    wishedDepositBps: number | null;
    wishedPolicy: string | null;
    createdAt: Date;
  }[];
};

export type AgreementEntry = {
  sha256: string;
  status: "in_force" | "superseded" | "cancelled";
  frozenAt: Date;
  version: number;
  totalPaise: number;
  policyName: string;
};

export type BookingTerms = {
  offers: OfferEntry[];
  open: OfferEntry | null;
  agreements: AgreementEntry[];
  /** What a cancellation now would mean, for the actor, while they may cancel. */
  cancelNow: CancelOutcome | null;
  /** The artist's composer, filled from the open or last version (the artist only). */
  draft: QuoteDraft | null;
};

type Ctx = { db: Queryable; env: AppContext["env"] };

export async function bookingTermsOf(
  ctx: Ctx,
  actor: Actor,
  booking: BookingView,
  now = new Date(),
): Promise<BookingTerms> {
  const [history, agreements] = await readEach(ctx.db, [
    () => offerHistoryOf(ctx.db, booking.id),
    () => agreementsOf(ctx.db, booking.id),
  ]);
  const offers: OfferEntry[] = history.map((o) => ({
    id: o.id,
    version: o.version,
    kind: o.kind,
    status: o.status,
    sha256: o.sha256,
    createdAt: o.createdAt,
    closedAt: o.closedAt,
    expired: o.status === "open" && o.expiresAt !== null && o.expiresAt <= now,
    document: o.document,
    acceptedBy: o.acceptances.map((a) => ({ party: a.party, acceptedAt: a.acceptedAt })),
    changeRequests: o.changeRequests,
  }));
  const inForce = agreements.find((a) => a.status === "in_force") ?? null;
  const mayCancel = isBookingArtist(actor, booking)
    ? canArtistCancelBooking(actor, booking)
    : canCancelBooking(actor, booking);
  const cancelNow =
    inForce && mayCancel && booking.status === "confirmed"
      ? cancellationNow(
          inForce.signed.agreement,
          isBookingArtist(actor, booking) ? "artist" : "client",
          now,
          agreements.at(-1)?.frozenAt,
          // Paid through GigLedger: what was really paid, not the schedule.
          inForce.paidThrough === "gigledger" ? await paidPaiseOf(ctx.db, booking.id) : undefined,
        )
      : null;
  return {
    offers,
    open: offers.find((o) => o.status === "open") ?? null,
    agreements: agreements.map((a) => ({
      sha256: a.sha256,
      status: a.status,
      frozenAt: a.frozenAt,
      version: a.signed.agreement.offer.version,
      totalPaise: a.signed.agreement.offer.price.totalPaise,
      policyName: a.signed.agreement.offer.cancellation.policyName,
    })),
    cancelNow,
    draft: isBookingArtist(actor, booking) ? await draftFor(ctx.db, booking, offers) : null,
  };
}

/** The composer's starting values: the latest version's, or the request and the artist's terms. */
async function draftFor(
  db: Queryable,
  booking: BookingView,
  offers: OfferEntry[],
): Promise<QuoteDraft> {
  const last = offers.at(-1)?.document;
  if (last) {
    return {
      eventDate: last.event.date,
      startTime: last.event.startTime ?? "",
      durationHours: last.event.durationMinutes / 60,
      lines: last.price.lines,
      depositPercent: last.payments.depositBps / 100,
      balanceDueDays: last.payments.balanceDueDays,
      policy: last.cancellation.policy,
      included: last.included,
      notes: last.notes ?? "",
    };
  }
  const [terms] = booking.artistProfileId
    ? await db
        .select({
          depositBps: artistProfiles.depositBps,
          balanceDueDays: artistProfiles.balanceDueDays,
          policy: artistProfiles.cancellationPolicy,
        })
        .from(artistProfiles)
        .where(eq(artistProfiles.id, booking.artistProfileId))
    : [];
  return {
    eventDate: booking.eventDate,
    startTime: booking.startTime ?? "",
    durationHours: booking.durationHours,
    lines: [{ label: "Performance", amountPaise: rupeesToPaise(booking.totalAmount) }],
    depositPercent: (terms?.depositBps ?? 3000) / 100,
    balanceDueDays: terms?.balanceDueDays ?? 7,
    policy: terms?.policy ?? DEFAULT_POLICY,
    included: [],
    notes: "",
  };
}
