import { formatLongDate } from "~/lib/dates";
import { composeMail } from "~/lib/mail.server";
import { namesList } from "~/lib/names-list";
import { formatBookingWhen, formatDuration, formatStartTime } from "./booking-time";
import { formatRupees } from "./pricing";

/** What a booking mail says about the event (the date and time are the artist's wall clock). */
export type BookingFacts = {
  eventDate: string;
  startTime: string | null;
  timeZone: string;
  durationHours: number;
  venue: string;
  eventType: string;
  totalAmount: number;
};

/** The event, one fact a line, as both parties see it on the booking page. */
function details(b: BookingFacts) {
  return [
    `Date: ${formatLongDate(b.eventDate)}`,
    `Time: ${formatStartTime(b, { withZone: true }) ?? "not given"}`,
    `Venue: ${b.venue}`,
    `Duration: ${formatDuration(b.durationHours)}`,
    `Event type: ${b.eventType}`,
    `Amount: ${formatRupees(b.totalAmount)}`,
  ].join("\n");
}

/** How long the one-click rating link in a rating mail works (decision 044). */
export const RATING_LINK_DAYS = 30;

/** Every mail of a booking's life; each links to the booking's page (built from APP_URL). */
export const bookingMails = {
  /** To the artist: a new request, with everything needed to answer it. */
  newRequest: (
    to: string,
    who: { artistName: string; clientName: string; message: string | null; sentTo?: number },
    b: BookingFacts,
    url: string,
  ) =>
    composeMail(to, `New booking request for ${formatLongDate(b.eventDate)}`, [
      `Hi ${who.artistName},`,
      `${who.clientName} would like to book you for ${formatBookingWhen(b, { withZone: true })}.`,
      ...(who.sentTo && who.sentTo > 1
        ? [
            `${who.clientName} sent this request to ${who.sentTo} artists: the first one they agree with gets the booking, and the other requests are withdrawn.`,
          ]
        : []),
      details(b),
      who.message ? `Their message:\n${who.message}` : `${who.clientName} did not add a message.`,
      "Accept or decline the request, or message the client, here:",
      url,
    ]),

  /** To the client: their request went out (the toast after sending promises this mail). */
  requestSent: (
    to: string,
    who: { clientName: string; artistName: string },
    b: BookingFacts,
    url: string,
  ) =>
    composeMail(to, `Your booking request to ${who.artistName} was sent`, [
      `Hi ${who.clientName},`,
      `Your request to book ${who.artistName} for ${formatBookingWhen(b, { withZone: true })} has been sent. We'll e-mail you when ${who.artistName} accepts or declines it.`,
      details(b),
      "See the request or message the artist here:",
      url,
    ]),

  /** To the client: one request went to several artists (each line links to its booking). */
  groupRequestSent: (
    to: string,
    clientName: string,
    sent: { artistName: string; facts: BookingFacts; url: string }[],
  ) => {
    const first = sent[0]?.facts as BookingFacts;
    return composeMail(to, `Your booking request was sent to ${sent.length} artists`, [
      `Hi ${clientName},`,
      `Your request for ${formatLongDate(first.eventDate)} (${first.eventType} at ${first.venue}) went to ${namesList(sent.map((s) => s.artistName))}. Each answers on their own booking; when you agree with one of them, we withdraw the other requests and tell those artists.`,
      ...sent.map(
        (s) =>
          `${s.artistName}: ${formatBookingWhen(s.facts, { withZone: true })}, estimated ${formatRupees(s.facts.totalAmount)}\n${s.url}`,
      ),
    ]);
  },

  /** To an artist: the client agreed with another artist their request also went to. */
  requestWithdrawn: (
    to: string,
    who: { artistName: string; clientName: string },
    b: BookingFacts,
    url: string,
  ) =>
    composeMail(to, `${who.clientName} withdrew their request for ${formatLongDate(b.eventDate)}`, [
      `Hi ${who.artistName},`,
      `${who.clientName} sent their request for ${formatBookingWhen(b, { withZone: true })} (${b.eventType} at ${b.venue}) to several artists and has agreed with another of them, so their request to you was withdrawn. Nothing is owed, and your date stays free.`,
      "See the request here:",
      url,
    ]),

  /** To the client: the artist accepted or declined (with the reason, when given). */
  answered: (
    to: string,
    who: { clientName: string; artistName: string },
    b: BookingFacts,
    answer: { accepted: boolean; reason?: string | null },
    url: string,
  ) => {
    const when = formatBookingWhen(b, { withZone: true });
    return composeMail(
      to,
      answer.accepted
        ? `${who.artistName} accepted your booking`
        : `${who.artistName} declined your booking`,
      [
        `Hi ${who.clientName},`,
        answer.accepted
          ? `Good news: ${who.artistName} confirmed your booking for ${when}.`
          : `${who.artistName} can't take your booking for ${when}. You can look for another date or artist on GigLedger.`,
        ...(answer.reason ? [`Their reason:\n${answer.reason}`] : []),
        details(b),
        "See the booking here:",
        url,
      ],
    );
  },

  /**
   * To the client, once the booking is completed, and again after 3 and 10 days while it is not
   * rated (`reminder`): a link that rates it in one click, signed in or not (decision 044).
   */
  askToRate: (
    to: string,
    who: { clientName: string; artistName: string; reminder: boolean },
    b: BookingFacts,
    rateUrl: string,
  ) =>
    composeMail(
      to,
      who.reminder ? `Reminder: how was ${who.artistName}?` : `How was ${who.artistName}?`,
      [
        `Hi ${who.clientName},`,
        who.reminder
          ? `You haven't rated your booking with ${who.artistName} for ${formatBookingWhen(b, { withZone: true })} yet.`
          : `Your booking with ${who.artistName} for ${formatBookingWhen(b, { withZone: true })} is complete. How was it?`,
        `Your rating appears on ${who.artistName}'s profile, and the gig goes into their history as a Client-verified performance.`,
        details(b),
        `Rate ${who.artistName} in one click (the link works without signing in for ${RATING_LINK_DAYS} days):`,
        rateUrl,
      ],
    ),

  /** To the artist: the client rated the booking (with the review, when written). */
  rated: (
    to: string,
    who: { artistName: string; clientName: string; rating: number; review: string | null },
    b: BookingFacts,
    url: string,
  ) =>
    composeMail(to, `${who.clientName} rated your booking`, [
      `Hi ${who.artistName},`,
      `${who.clientName} rated your booking for ${formatBookingWhen(b, { withZone: true })} ${who.rating} of 5.`,
      ...(who.review ? [`Their review:\n${who.review}`] : []),
      "The gig is now in your history as a Client-verified performance.",
      details(b),
      "See the booking here:",
      url,
    ]),

  /**
   * To the other party: the booking was cancelled. `substitutes` is, when the artist cancelled, how
   * many artists the client's booking page suggests as it is sent (null when the client
   * cancelled): the mail promises only what that page shows.
   */
  cancelled: (
    to: string,
    who: {
      recipientName: string;
      cancelledBy: string;
      dateFreed: boolean;
      reason?: string | null;
      substitutes?: number | null;
    },
    b: BookingFacts,
    url: string,
  ) => {
    const day = formatLongDate(b.eventDate);
    const next =
      who.substitutes === undefined || who.substitutes === null
        ? "See the booking here:"
        : who.substitutes > 0
          ? `The booking page suggests ${who.substitutes === 1 ? "an artist who is" : "artists who are"} free on ${day}, each one click from a request, and a search for every artist free that day:`
          : `The booking page has a search for every artist free on ${day}:`;
    return composeMail(to, `${who.cancelledBy} cancelled the booking for ${day}`, [
      `Hi ${who.recipientName},`,
      `${who.cancelledBy} cancelled the booking for ${formatBookingWhen(b, { withZone: true })} (${b.eventType} at ${b.venue}).`,
      ...(who.reason ? [`Their reason:\n${who.reason}`] : []),
      ...(who.dateFreed ? ["The date is available again in your calendar."] : []),
      next,
      url,
    ]);
  },
};
