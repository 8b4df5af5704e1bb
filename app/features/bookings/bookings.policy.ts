import type { Actor } from "~/lib/actor";
import type { BOOKING_STATUSES } from "~db/enums";

export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/**
 * Who may do what with a booking: pure rules, used by the server to refuse and by the booking
 * page to show or hide its buttons. `status` is the booking's status as of today (a confirmed
 * booking whose date has passed is completed, a pending one cancelled), and `beforeEventDay` says
 * whether today is still before the event's date; both come from the read.
 */
export type BookingParties = {
  status: BookingStatus;
  beforeEventDay: boolean;
  ratingGiven: boolean;
  /** The client's choice of showing the venue publicly; null before they chose. */
  venuePublic?: boolean | null;
  clientUserId: string | null;
  artistUserId: string | null;
};

export const isBookingClient = (actor: Actor, b: BookingParties) =>
  actor !== null && b.clientUserId === actor.id;

export const isBookingArtist = (actor: Actor, b: BookingParties) =>
  actor !== null && b.artistUserId === actor.id;

/** Only its two parties see a booking; to anyone else it does not exist. */
export const canReadBooking = (actor: Actor, b: BookingParties) =>
  isBookingClient(actor, b) || isBookingArtist(actor, b);

/** Only the artist accepts or declines, only while pending. */
export const canRespondToBooking = (actor: Actor, b: BookingParties) =>
  isBookingArtist(actor, b) && b.status === "pending";

/** The client cancels while pending or confirmed, up to the day before the event. */
export const canCancelBooking = (actor: Actor, b: BookingParties) =>
  isBookingClient(actor, b) &&
  (b.status === "pending" || b.status === "awaiting_deposit" || b.status === "confirmed") &&
  b.beforeEventDay;

/** The artist cancels a confirmed booking before its date (with a reason; it counts against them). */
export const canArtistCancelBooking = (actor: Actor, b: BookingParties) =>
  isBookingArtist(actor, b) && b.status === "confirmed" && b.beforeEventDay;

/** The client rates a completed booking, once. */
export const canRateBooking = (actor: Actor, b: BookingParties) =>
  isBookingClient(actor, b) && b.status === "completed" && !b.ratingGiven;

/**
 * Once a booking is rated, its client decides (and may change) whether the artist's public history
 * shows its venue or only "{event type}, {city}".
 */
export const canChooseVenueVisibility = (actor: Actor, b: BookingParties) =>
  isBookingClient(actor, b) && b.ratingGiven && b.artistUserId !== null;

/**
 * 'Add to calendar' is offered to either party while the booking stands for an event that happens
 * (pending, confirmed or completed); a declined or cancelled one has nothing to put in a calendar.
 */
export const canAddBookingToCalendar = (actor: Actor, b: BookingParties) =>
  canReadBooking(actor, b) &&
  (b.status === "pending" || b.status === "confirmed" || b.status === "completed");

/**
 * After the artist cancelled a confirmed booking, its client is offered artists free that day and
 * a search for the date, while the date is still ahead.
 */
export const canSeeSubstitutes = (
  actor: Actor,
  b: BookingParties & {
    cancelledBy: "client" | "artist" | null;
    artistProfileId: string | null;
    noShowReported?: boolean;
  },
) =>
  isBookingClient(actor, b) &&
  b.artistProfileId !== null &&
  ((b.status === "cancelled" && b.cancelledBy === "artist" && b.beforeEventDay) ||
    // A reported no-show (issue 42): who is free that day, on the day itself.
    b.noShowReported === true);

/** Both parties may message while the booking exists and both still have accounts. */
export const canMessageBooking = (actor: Actor, b: BookingParties) =>
  canReadBooking(actor, b) && b.clientUserId !== null && b.artistUserId !== null;

/**
 * The artist sends a quote on a pending request, or proposes a change to an agreed booking, until
 * the day before the event (docs/product.md, "Quotes and agreements").
 */
export const canSendQuote = (actor: Actor, b: BookingParties) =>
  isBookingArtist(actor, b) &&
  b.clientUserId !== null &&
  (b.status === "pending" || b.status === "confirmed") &&
  b.beforeEventDay;

/** The client accepts, asks for changes to or declines an open quote, until the day before. */
export const canAnswerQuote = (actor: Actor, b: BookingParties) =>
  isBookingClient(actor, b) &&
  (b.status === "pending" || b.status === "confirmed") &&
  b.beforeEventDay;
