import CalendarDays from "lucide-react/icons/calendar-days";
import CalendarPlus from "lucide-react/icons/calendar-plus";
import Clock from "lucide-react/icons/clock";
import Music from "lucide-react/icons/eighth-notes";
import IndianRupee from "lucide-react/icons/indian-rupee";
import MapPin from "lucide-react/icons/map-pin";
import { Form, Link, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { Button, buttonClasses } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormError } from "~/components/ui/field";
import { TextareaField } from "~/components/ui/textarea-field";
import { requireUser } from "~/features/accounts/accounts.server";
import {
  acceptQuote,
  askForChanges,
  declineQuote,
  sendQuote,
} from "~/features/bookings/booking-quotes.server";
import { rateBooking, setVenueVisibility } from "~/features/bookings/booking-ratings.server";
import { BookingStatusBadge } from "~/features/bookings/booking-status-badge";
import { BookingTermsPanel } from "~/features/bookings/booking-terms-panel";
import { bookingTermsOf } from "~/features/bookings/booking-terms-view.server";
import { formatBookingWhen, formatDuration } from "~/features/bookings/booking-time";
import { getBooking } from "~/features/bookings/booking-views.server";
import {
  canAddBookingToCalendar,
  canAnswerQuote,
  canArtistCancelBooking,
  canCancelBooking,
  canChooseVenueVisibility,
  canMessageBooking,
  canRateBooking,
  canRespondToBooking,
  canSendQuote,
  isBookingArtist,
} from "~/features/bookings/bookings.policy";
import {
  BookingActionSchema,
  type BookingIntent,
  CANCEL_REASON_MAX,
  DECLINE_REASON_MAX,
  isBookingIntent,
} from "~/features/bookings/bookings.schema";
import {
  acceptBooking,
  cancelBooking,
  cancelForNonPayment,
  declineBooking,
  giveMoreTime,
} from "~/features/bookings/bookings.server";
import { formatRupees } from "~/features/bookings/pricing";
import {
  AcceptQuoteSchema,
  ChangeRequestSchema,
  parseQuoteForm,
} from "~/features/bookings/quotes.schema";
import { RatingForm, ShowVenueCheckbox } from "~/features/bookings/rating-form";
import { RequestGroupNotice } from "~/features/bookings/request-group-notice";
import { requestGroupOf } from "~/features/bookings/request-groups.server";
import {
  listSubstitutes,
  substituteBookingHref,
  substituteSearchHref,
} from "~/features/bookings/substitutes.server";
import { listMessages, markMessagesRead, sendMessage } from "~/features/messages/messages.server";
import { MessagesPanel } from "~/features/messages/messages-panel";
import { MoneyPanel } from "~/features/payments/money-panel";
import { moneyViewOf } from "~/features/payments/money-view.server";
import { ProblemNotice } from "~/features/problems/problem-notice";
import { problemSummaryOf } from "~/features/problems/problems.server";
import { clientRatingText, clientRecordText } from "~/features/trust/trust";
import { getClientRecord } from "~/features/trust/trust.server";
import type { SignedInActor } from "~/lib/actor";
import { formatLongDate, formatWallClock } from "~/lib/dates";
import {
  attempt,
  notFound,
  parseForm,
  readForm,
  replyError,
  replyInvalid,
  replyOk,
  typedValues,
} from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { formatPaise } from "~/lib/money-text";
import { requestOriginOf } from "~/lib/request-origin.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { redirectWithToast } from "~/lib/toast.server";
import { usePending } from "~/lib/use-pending";
import { useToastOn } from "~/lib/use-toast-on";
import { SubstituteList } from "~/pages/booking/substitute-list";
import type { Route } from "./+types/bookings.$bookingId";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Booking Details", description: "A booking on GigLedger." }),
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  // Not a party of this booking: it does not exist, as far as this user can tell.
  const booking = await getBooking(context, user, params.bookingId);
  if (!booking) notFound();
  const isArtist = isBookingArtist(user, booking);
  const now = context.clock.now();
  const [messages, clientRecord, substitutes, terms, money, problems, requestGroup] =
    await Promise.all([
      listMessages(context, user, { booking }),
      isArtist ? getClientRecord(context, user, { clientUserId: booking.clientUserId }) : null,
      listSubstitutes(context, user, booking),
      bookingTermsOf(context, user, booking, now),
      moneyViewOf(context.db, booking.id, now),
      problemSummaryOf(context, user, booking.id),
      requestGroupOf(context, user, booking),
    ]);
  // Loading the page reads the conversation: the next message mails this party again.
  await markMessagesRead(context, user, booking);
  // Which booking a withdrawn request gave way to is the client's to know, not the artist's.
  const { withdrawnForId, ...shown } = booking;
  return {
    booking: shown,
    withdrawnFor: isArtist ? withdrawnForId !== null || null : withdrawnForId,
    userId: user.id,
    isArtist,
    clientRecord,
    // Offered to the client after the artist cancelled: who is free that day, and a search.
    substitutes: substitutes
      ? {
          artists: substitutes.map((artist) => ({
            ...artist,
            href: substituteBookingHref(artist.slug, booking),
          })),
          searchHref: substituteSearchHref(booking),
        }
      : null,
    messages,
    terms,
    money,
    problems,
    requestGroup,
    can: {
      quote: canSendQuote(user, booking),
      answerQuote: canAnswerQuote(user, booking),
      addToCalendar: canAddBookingToCalendar(user, booking),
      respond: canRespondToBooking(user, booking),
      cancel: canCancelBooking(user, booking),
      artistCancel: canArtistCancelBooking(user, booking),
      rate: canRateBooking(user, booking),
      chooseVenue: canChooseVenueVisibility(user, booking),
      message: canMessageBooking(user, booking),
    },
  };
}

const FAILURES: Record<BookingIntent, string> = {
  accept: "Failed to update booking status. Please try again.",
  quote: "Failed to send the quote. Please try again.",
  acceptQuote: "Failed to accept the quote. Please try again.",
  askChanges: "Failed to send your request for changes. Please try again.",
  declineQuote: "Failed to decline the quote. Please try again.",
  decline: "Failed to update booking status. Please try again.",
  cancel: "Failed to update booking status. Please try again.",
  rate: "Failed to submit rating. Please try again.",
  venue: "Failed to save your choice. Please try again.",
  message: "Failed to send message. Please try again.",
  cancelNonPayment: "Failed to cancel the booking. Please try again.",
  moreTime: "Failed to give more time. Please try again.",
};

/** The artist's confirmation after sending a message. */
const MESSAGE_SENT = {
  title: "Message Sent",
  description: "Your message has been sent to the client.",
};

/** Shown when a rating is sent without stars. */
const RATING_MISSING = {
  title: "Please select a rating",
  description: "You must provide a rating before submitting.",
  variant: "destructive",
} as const;

/**
 * A message sent from the open page changes nothing else on it (the panel adds the message), and
 * reloading here would count as reading the conversation: no revalidation after it.
 */
export function shouldRevalidate({
  formData,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formData?.get("intent") === "message" && formData.get("stay") === "1") return false;
  return defaultShouldRevalidate;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (!isBookingIntent(intent)) return replyError(400, "Unknown request.");
  if (isQuoteIntent(intent)) return quoteAction({ request, context, user, form, intent, params });
  const parsed = parseForm(
    BookingActionSchema,
    form,
    intent === "rate" ? RATING_MISSING : undefined,
  );
  if (!parsed.ok) return parsed.reply;
  const input = parsed.data;
  const { bookingId } = params;
  const back = safeRedirectPath(
    input.intent === "message" ? undefined : input.returnTo,
    `/bookings/${bookingId}`,
  );
  const run = async () => {
    switch (input.intent) {
      case "accept":
        await acceptBooking(context, user, bookingId, {
          sha256: input.sha256,
          ...requestOriginOf(request, context),
        });
        return redirectWithToast(
          back,
          (await getBooking(context, user, bookingId))?.status === "awaiting_deposit"
            ? {
                title: "Booking Accepted",
                description:
                  "It is confirmed when the client pays the deposit; they have been told.",
              }
            : { title: "Booking Confirmed", description: "The client has been notified." },
        );
      case "decline":
        await declineBooking(context, user, { bookingId, reason: input.reason });
        return redirectWithToast(back, {
          title: "Booking Declined",
          description: "The client has been notified.",
        });
      case "cancel": {
        await cancelBooking(context, user, { bookingId, reason: input.reason });
        const booking = await getBooking(context, user, bookingId);
        return redirectWithToast(back, {
          title: "Booking Cancelled",
          description:
            booking && isBookingArtist(user, booking)
              ? "The client has been told, with your reason."
              : "The artist has been told.",
        });
      }
      case "rate":
        await rateBooking(context, user, {
          bookingId,
          rating: input.rating,
          review: input.review,
          showVenue: input.showVenue,
        });
        return redirectWithToast(safeRedirectPath(input.returnTo, "/client-bookings"), {
          title: "Rating Submitted",
          description: "Thank you for rating the artist! This helps improve our platform.",
        });
      case "venue":
        await setVenueVisibility(context, user, { bookingId, showVenue: input.showVenue });
        return redirectWithToast(back, {
          title: "Choice saved",
          description: input.showVenue
            ? "The venue is now shown on the artist's public history."
            : "The venue is now hidden from the artist's public history.",
        });
      case "cancelNonPayment":
        await cancelForNonPayment(context, user, bookingId);
        return redirectWithToast(back, {
          title: "Booking Cancelled",
          description: "The client has been told; what the policy gives back is refunded.",
        });
      case "moreTime":
        await giveMoreTime(context, user, { bookingId, dueDate: input.dueDate });
        return redirectWithToast(back, {
          title: "More time given",
          description: "The client has been told the new date.",
        });
      case "message": {
        const sent = await sendMessage(context, user, { bookingId, message: input.message });
        // The open page's panel shows it; without JavaScript the page is loaded again.
        if (input.stay) return replyOk(sent);
        const page = `/bookings/${bookingId}#messages`;
        const booking = await getBooking(context, user, bookingId);
        return booking && isBookingArtist(user, booking)
          ? redirectWithToast(page, MESSAGE_SENT)
          : redirect(page);
      }
    }
  };
  return attempt(run, {
    values: parsed.values,
    toastTitle: "Error",
    failure: {
      message: FAILURES[intent],
      logger: context.logger,
      event: `booking ${intent} failed`,
    },
  });
}

type QuoteIntent = "quote" | "acceptQuote" | "askChanges" | "declineQuote";
const isQuoteIntent = (intent: BookingIntent): intent is QuoteIntent =>
  intent === "quote" ||
  intent === "acceptQuote" ||
  intent === "askChanges" ||
  intent === "declineQuote";

/** The quote's actions (docs/product.md, "Quotes and agreements"): each refusal is a plain 4xx. */
async function quoteAction({
  request,
  context,
  user,
  form,
  intent,
  params,
}: {
  request: Request;
  context: Route.ActionArgs["context"];
  user: SignedInActor;
  form: FormData;
  intent: QuoteIntent;
  params: { bookingId: string };
}) {
  const { bookingId } = params;
  const page = `/bookings/${bookingId}`;
  const origin = requestOriginOf(request, context);
  const values = typedValues(form);
  const options = {
    values,
    toastTitle: "Error",
    failure: {
      message: FAILURES[intent],
      logger: context.logger,
      event: `booking ${intent} failed`,
    },
  };
  switch (intent) {
    case "quote": {
      const parsed = parseQuoteForm(form);
      if (!parsed.ok) return replyInvalid(parsed.fieldErrors, values);
      return attempt(async () => {
        const offer = await sendQuote(context, user, { bookingId, quote: parsed.data, ...origin });
        return redirectWithToast(page, {
          title: "Quote Sent",
          description: `Version ${offer.version} is with the client.`,
        });
      }, options);
    }
    case "acceptQuote": {
      const parsed = parseForm(AcceptQuoteSchema, form);
      if (!parsed.ok) return parsed.reply;
      return attempt(async () => {
        await acceptQuote(context, user, { bookingId, sha256: parsed.data.sha256, ...origin });
        return redirectWithToast(`${page}/agreement`, {
          title: "Booking Agreed",
          description: "The signed agreement is below; the artist has been told.",
        });
      }, options);
    }
    case "askChanges": {
      const parsed = parseForm(ChangeRequestSchema, form);
      if (!parsed.ok) return parsed.reply;
      return attempt(async () => {
        await askForChanges(context, user, { bookingId, change: parsed.data });
        return redirectWithToast(page, {
          title: "Request Sent",
          description: "The artist has been asked for a revised quote.",
        });
      }, options);
    }
    case "declineQuote":
      return attempt(async () => {
        const { endsRequest } = await declineQuote(context, user, { bookingId });
        return redirectWithToast(page, {
          title: "Quote Declined",
          description: endsRequest
            ? "Your request has been withdrawn and the artist told."
            : "The booking stays as agreed; the artist has been told.",
        });
      }, options);
  }
}

function Detail({
  icon: Icon,
  label,
  children,
}: {
  icon: typeof MapPin;
  label: string;
  children: React.ReactNode;
}) {
  return (
    <div className="min-w-0">
      <dt className="flex items-center gap-2 text-xs text-slate-500">
        <Icon aria-hidden className="h-4 w-4 shrink-0 text-slate-400" />
        {label}
      </dt>
      <dd className="mt-0.5 pl-6 font-medium wrap-anywhere">{children}</dd>
    </div>
  );
}

export default function BookingDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, userId, isArtist, messages, can, terms } = loaderData;
  useToastOn(actionData, actionData?.toast);
  const busy = usePending();
  return (
    <main id="main" className="mx-auto max-w-3xl space-y-6 px-4 py-8">
      <p className="text-sm">
        <Link
          to={isArtist ? "/artist-dashboard?tab=bookings" : "/client-bookings"}
          className="text-brand-700 underline"
        >
          ← {isArtist ? "Back to your bookings" : "Back to Your Bookings"}
        </Link>
      </p>
      <Card as="section" aria-labelledby="details-title">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 id="details-title" className="text-2xl font-bold">
            Booking Details
          </h1>
          <BookingStatusBadge status={booking.status} />
        </div>
        <p className="mt-1 wrap-anywhere text-slate-600">
          {isArtist ? (
            <>Request from {booking.clientName}</>
          ) : booking.artistSlug ? (
            <>
              With{" "}
              <Link to={`/artist/${booking.artistSlug}`} className="text-brand-700 underline">
                {booking.artistName}
              </Link>
            </>
          ) : (
            <>With {booking.artistName}</>
          )}
        </p>
        {booking.status === "cancelled" && booking.cancelledBy === "artist" ? (
          <div className="mt-4 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
            <p className="font-medium">
              {isArtist
                ? "You cancelled this booking."
                : `${booking.artistName} cancelled this booking.`}
            </p>
            {booking.cancelReason ? (
              <p className="mt-1 whitespace-pre-wrap wrap-anywhere">
                {`Reason: ${booking.cancelReason}`}
              </p>
            ) : null}
          </div>
        ) : null}
        {loaderData.requestGroup ? (
          <RequestGroupNotice
            isArtist={isArtist}
            clientName={booking.clientName}
            withdrawnForId={loaderData.withdrawnFor}
            status={booking.status}
            group={loaderData.requestGroup}
          />
        ) : null}
        {booking.status === "rejected" ? (
          <div className="mt-4 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
            <p className="font-medium">
              {isArtist
                ? "You declined this request."
                : `${booking.artistName} declined this request.`}
            </p>
            {booking.declineReason ? (
              <p className="mt-1 whitespace-pre-wrap wrap-anywhere">
                {`Reason: ${booking.declineReason}`}
              </p>
            ) : null}
          </div>
        ) : null}
        {can.addToCalendar ? (
          <p className="mt-4">
            <a
              href={`/bookings/${booking.id}/calendar.ics`}
              download
              className={buttonClasses("outline", "sm")}
            >
              <CalendarPlus aria-hidden className="h-4 w-4" /> Add to calendar
            </a>
          </p>
        ) : null}
        <dl className="mt-6 grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Detail icon={CalendarDays} label="Event date">
            {formatBookingWhen(booking, { withZone: true })}
          </Detail>
          <Detail icon={Clock} label="Duration">
            {formatDuration(booking.durationHours)}
          </Detail>
          <Detail icon={MapPin} label="Venue">
            {booking.venue}
          </Detail>
          <Detail icon={Music} label="Event type">
            {booking.eventType}
          </Detail>
          <Detail icon={IndianRupee} label="Total amount">
            {formatRupees(booking.totalAmount)}
          </Detail>
        </dl>
        <div className="mt-6 rounded-lg bg-slate-50 p-4 text-sm wrap-anywhere">
          <p className="font-medium">Client</p>
          <p>{booking.clientName}</p>
          <p className="text-slate-600">{booking.clientEmail}</p>
          {loaderData.clientRecord ? (
            <p className="mt-1 text-slate-700">{clientRecordText(loaderData.clientRecord)}</p>
          ) : null}
          {loaderData.clientRecord && clientRatingText(loaderData.clientRecord) ? (
            <div className="mt-1 text-slate-700">
              <p>{clientRatingText(loaderData.clientRecord)}</p>
              {loaderData.clientRecord.ratings.latest
                .filter((r) => r.comment)
                .map((r) => (
                  <p key={r.comment} className="italic">
                    “{r.comment}” ({r.stars}/5)
                  </p>
                ))}
            </div>
          ) : null}
          {isArtist && booking.status === "completed" ? (
            <Link
              to={`/bookings/${booking.id}/rate-client`}
              className="mt-2 inline-block text-brand-700 underline"
            >
              Rate the client
            </Link>
          ) : null}
          {/* In the artist's zone, like the event's date and every time on this page. */}
          <p className="mt-1 text-slate-500">
            Booked on {formatWallClock(booking.createdAt, booking.timeZone, { withZone: true })}
          </p>
        </div>
        {booking.message ? (
          <div className="mt-4">
            <p className="text-sm font-medium">Message</p>
            <p className="mt-1 whitespace-pre-wrap wrap-anywhere text-slate-700">
              {booking.message}
            </p>
          </div>
        ) : null}
        <FormError>{actionData?.formError}</FormError>
        {can.respond ? (
          <div className="mt-6 flex flex-wrap items-start gap-3">
            {terms.open?.kind === "quote" ? null : (
              <Form method="post">
                {terms.open ? (
                  <input type="hidden" name="sha256" value={terms.open.sha256} />
                ) : null}
                <Button type="submit" name="intent" value="accept" disabled={busy}>
                  Accept Booking
                </Button>
              </Form>
            )}
            {/* A disclosure, so the optional reason is asked for also without JavaScript. */}
            <details
              className="group min-w-0 flex-1"
              open={Boolean(actionData?.fieldErrors?.reason)}
            >
              <summary className={buttonClasses("outline", "md", "cursor-pointer list-none")}>
                Decline
              </summary>
              <Form method="post" className="mt-3 space-y-3">
                <TextareaField
                  label="Reason (optional)"
                  name="reason"
                  rows={3}
                  maxLength={DECLINE_REASON_MAX}
                  defaultValue={actionData?.values?.reason}
                  error={actionData?.fieldErrors?.reason}
                  placeholder="The client sees this, for example: I'm already playing elsewhere that night."
                />
                <Button
                  type="submit"
                  name="intent"
                  value="decline"
                  variant="destructive"
                  disabled={busy}
                >
                  Decline Booking
                </Button>
              </Form>
            </details>
          </div>
        ) : null}
        {can.cancel ? (
          <Form
            method="post"
            className="mt-6"
            onSubmit={(e) => {
              if (!window.confirm("Cancel this booking?")) e.preventDefault();
            }}
          >
            {terms.cancelNow ? (
              // The same figures as "If you cancel now" below, where the button is.
              <p className="mb-2 text-sm text-slate-700">
                If you cancel now: you get back {formatPaise(terms.cancelNow.refundPaise)};{" "}
                {booking.artistName} keeps {formatPaise(terms.cancelNow.keptPaise)}.
              </p>
            ) : null}
            <Button type="submit" name="intent" value="cancel" variant="outline" disabled={busy}>
              Cancel booking
            </Button>
          </Form>
        ) : null}
        {can.artistCancel ? (
          // A disclosure, so the required reason is asked for also without JavaScript.
          <details className="mt-6" open={Boolean(actionData?.fieldErrors?.reason)}>
            <summary className={buttonClasses("outline", "md", "cursor-pointer list-none")}>
              Cancel booking
            </summary>
            <Form method="post" className="mt-3 space-y-3">
              <p className="text-sm text-slate-600">
                The client is told at once, with your reason, and offered artists who are free that
                day. Cancelling a confirmed booking counts in the cancellations shown on your
                profile.
              </p>
              <TextareaField
                label="Reason"
                name="reason"
                rows={3}
                required
                maxLength={CANCEL_REASON_MAX}
                defaultValue={actionData?.values?.reason}
                error={actionData?.fieldErrors?.reason}
                placeholder="The client sees this, for example: I'm ill and can't perform that night."
              />
              <Button
                type="submit"
                name="intent"
                value="cancel"
                variant="destructive"
                disabled={busy}
              >
                Cancel Booking
              </Button>
            </Form>
          </details>
        ) : null}
        {can.rate ? (
          <div className="mt-6 border-t border-slate-100 pt-6">
            <RatingForm bookingId={booking.id} artistName={booking.artistName} />
          </div>
        ) : null}
        {booking.ratingGiven && booking.rating ? (
          <p className="mt-6 text-sm wrap-anywhere text-slate-700">
            Rated {booking.rating} of 5{booking.review ? `: “${booking.review}”` : ""}
          </p>
        ) : null}
        {booking.ratingGiven ? (
          <VenueVisibility
            venuePublic={booking.venuePublic}
            artistName={booking.artistName}
            canChoose={can.chooseVenue}
            isArtist={isArtist}
            busy={busy}
          />
        ) : null}
      </Card>
      <BookingTermsPanel
        bookingId={booking.id}
        terms={terms}
        isArtist={isArtist}
        artistName={booking.artistName}
        clientName={booking.clientName}
        timeZone={booking.timeZone}
        canQuote={can.quote}
        canAnswer={can.answerQuote}
        values={actionData?.values}
        errors={actionData?.fieldErrors}
        busy={busy}
      />
      {loaderData.money ? (
        <MoneyPanel
          bookingId={booking.id}
          money={loaderData.money}
          isArtist={isArtist}
          status={booking.status}
          timeZone={booking.timeZone}
          busy={busy}
        />
      ) : null}
      {loaderData.problems ? (
        <ProblemNotice bookingId={booking.id} summary={loaderData.problems} />
      ) : null}
      {loaderData.substitutes ? (
        <SubstituteList
          substitutes={loaderData.substitutes.artists}
          date={formatLongDate(booking.eventDate)}
          artistName={booking.artistName}
          searchHref={loaderData.substitutes.searchHref}
        />
      ) : null}
      <MessagesPanel
        bookingId={booking.id}
        userId={userId}
        initial={messages}
        canSend={can.message}
        timeZone={booking.timeZone}
        sentToast={isArtist ? MESSAGE_SENT : undefined}
        refused={
          actionData?.values?.intent === "message" && actionData.fieldErrors?.message
            ? { error: actionData.fieldErrors.message, message: actionData.values.message ?? "" }
            : undefined
        }
      />
    </main>
  );
}

/**
 * Whether the artist's public history shows this gig's venue; the client chooses (and may change
 * it), the artist sees the choice. A gig rated before the choice existed is hidden until then.
 */
function VenueVisibility({
  venuePublic,
  artistName,
  canChoose,
  isArtist,
  busy,
}: {
  venuePublic: boolean | null;
  artistName: string;
  canChoose: boolean;
  isArtist: boolean;
  busy: boolean;
}) {
  const state = venuePublic
    ? `The venue is shown on ${isArtist ? "your" : `${artistName}'s`} public history.`
    : `The venue is hidden from ${isArtist ? "your" : `${artistName}'s`} public history: the public sees only the event type and the city.${venuePublic === null ? " The client has not chosen yet." : ""}`;
  return (
    <section aria-labelledby="venue-title" className="mt-6 border-t border-slate-100 pt-6">
      <h2 id="venue-title" className="font-semibold">
        Venue on the public history
      </h2>
      <p className="mt-1 text-sm wrap-anywhere text-slate-600">{state}</p>
      {canChoose ? (
        <Form method="post" className="mt-3 space-y-3">
          <input type="hidden" name="intent" value="venue" />
          <ShowVenueCheckbox
            id="show-venue-choice"
            artistName={artistName}
            defaultChecked={venuePublic === true}
          />
          <Button type="submit" variant="outline" size="sm" disabled={busy}>
            Save choice
          </Button>
        </Form>
      ) : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
