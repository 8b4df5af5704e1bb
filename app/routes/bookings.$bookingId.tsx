import { CalendarDays, Clock, IndianRupee, MapPin, Music } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { FormError } from "~/components/ui/field";
import { fieldErrors } from "~/features/accounts/accounts.schema";
import { requireUser } from "~/features/accounts/accounts.server";
import { safeRedirectPath } from "~/features/accounts/auth-errors";
import { BookingStatusBadge } from "~/features/bookings/booking-status-badge";
import {
  canCancelBooking,
  canMessageBooking,
  canRateBooking,
  canRespondToBooking,
} from "~/features/bookings/bookings.policy";
import { MessageSchema, RatingSchema } from "~/features/bookings/bookings.schema";
import {
  acceptBooking,
  BookingError,
  cancelBooking,
  declineBooking,
  getBookingForUser,
  rateBooking,
} from "~/features/bookings/bookings.server";
import { formatRupees } from "~/features/bookings/pricing";
import { RatingForm } from "~/features/bookings/rating-form";
import { listMessages, sendMessage } from "~/features/messages/messages.server";
import { MessagesPanel } from "~/features/messages/messages-panel";
import { formatLongDate, todayIn } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/bookings.$bookingId";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Booking Details", description: "A booking on GigLedger." }),
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  // Not a party of this booking: it does not exist, as far as this user can tell.
  const booking = await getBookingForUser(context, params.bookingId, user.id);
  if (!booking) throw data(null, { status: 404 });
  const today = todayIn(context.env.timeZone);
  return {
    booking,
    userId: user.id,
    isArtist: booking.artistUserId === user.id,
    messages: await listMessages(context, booking.id),
    can: {
      respond: canRespondToBooking(user.id, booking),
      cancel: canCancelBooking(user.id, booking, today),
      rate: canRateBooking(user.id, booking),
      message: canMessageBooking(user.id, booking),
    },
  };
}

type ActionData = {
  formError?: string;
  fieldErrors?: Record<string, string>;
  toast?: { title: string; description?: string; variant?: "destructive" };
};

const FAILURES: Record<string, string> = {
  accept: "Failed to update booking status. Please try again.",
  decline: "Failed to update booking status. Please try again.",
  cancel: "Failed to update booking status. Please try again.",
  rate: "Failed to submit rating. Please try again.",
  message: "Failed to send message. Please try again.",
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const back = safeRedirectPath(form.get("returnTo"), `/bookings/${params.bookingId}`);
  try {
    switch (intent) {
      case "accept":
        await acceptBooking(context, user.id, params.bookingId);
        return redirectWithToast(back, {
          title: "Booking Confirmed",
          description: "The client has been notified.",
        });
      case "decline":
        await declineBooking(context, user.id, params.bookingId);
        return redirectWithToast(back, {
          title: "Booking Declined",
          description: "The client has been notified.",
        });
      case "cancel":
        await cancelBooking(context, user.id, params.bookingId);
        return redirectWithToast(back, {
          title: "Booking Cancelled",
          description: "The artist has been told.",
        });
      case "rate": {
        const parsed = RatingSchema.safeParse(Object.fromEntries(form));
        if (!parsed.success) {
          return data<ActionData>(
            {
              fieldErrors: fieldErrors(parsed.error),
              toast: {
                title: "Please select a rating",
                description: "You must provide a rating before submitting.",
                variant: "destructive",
              },
            },
            { status: 400 },
          );
        }
        await rateBooking(
          context,
          user.id,
          params.bookingId,
          parsed.data.rating,
          parsed.data.review,
        );
        return redirectWithToast(safeRedirectPath(form.get("returnTo"), "/client-bookings"), {
          title: "Rating Submitted",
          description: "Thank you for rating the artist! This helps improve our platform.",
        });
      }
      case "message": {
        const parsed = MessageSchema.safeParse(Object.fromEntries(form));
        if (!parsed.success)
          return data<ActionData>({ fieldErrors: fieldErrors(parsed.error) }, { status: 400 });
        const message = await sendMessage(context, user, params.bookingId, parsed.data.message);
        return data({ message });
      }
      default:
        return data<ActionData>({ formError: "Unknown request." }, { status: 400 });
    }
  } catch (error) {
    if (error instanceof BookingError) {
      if (error.status === 404) throw data(null, { status: 404 });
      return data<ActionData>(
        {
          formError: error.message,
          toast: { title: "Error", description: error.message, variant: "destructive" },
        },
        { status: error.status },
      );
    }
    context.logger.error({ err: error, intent }, "booking action failed");
    const message = FAILURES[intent] ?? "Something went wrong. Please try again.";
    return data<ActionData>(
      {
        formError: message,
        toast: { title: "Error", description: message, variant: "destructive" },
      },
      { status: 500 },
    );
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
    <div className="flex items-start gap-3">
      <Icon aria-hidden className="mt-0.5 h-5 w-5 text-slate-400" />
      <div>
        <dt className="text-xs text-slate-500">{label}</dt>
        <dd className="font-medium">{children}</dd>
      </div>
    </div>
  );
}

export default function BookingDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { booking, userId, isArtist, messages, can } = loaderData;
  const result = actionData as ActionData | undefined;
  useToastOn(result, result?.toast);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
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
      <section
        aria-labelledby="details-title"
        className="rounded-2xl border border-slate-200 bg-white p-6"
      >
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 id="details-title" className="text-2xl font-bold">
            Booking Details
          </h1>
          <BookingStatusBadge status={booking.status} />
        </div>
        <p className="mt-1 text-slate-600">
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
        <dl className="mt-6 grid gap-4 sm:grid-cols-2">
          <Detail icon={CalendarDays} label="Event date">
            {formatLongDate(booking.eventDate)}
            {booking.startTime ? ` at ${booking.startTime}` : ""}
          </Detail>
          <Detail icon={Clock} label="Duration">
            {booking.durationHours} hours
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
        <div className="mt-6 rounded-lg bg-slate-50 p-4 text-sm">
          <p className="font-medium">Client</p>
          <p>{booking.clientName}</p>
          <p className="text-slate-600">{booking.clientEmail}</p>
          <p className="mt-1 text-slate-500">
            Booked on {formatLongDate(booking.createdAt.toISOString().slice(0, 10))}
          </p>
        </div>
        {booking.message ? (
          <div className="mt-4">
            <p className="text-sm font-medium">Message</p>
            <p className="mt-1 whitespace-pre-wrap text-slate-700">{booking.message}</p>
          </div>
        ) : null}
        <FormError>{result?.formError}</FormError>
        {can.respond ? (
          <Form method="post" className="mt-6 flex flex-wrap gap-3">
            <Button type="submit" name="intent" value="accept" disabled={busy}>
              Accept Booking
            </Button>
            <Button type="submit" name="intent" value="decline" variant="outline" disabled={busy}>
              Decline
            </Button>
          </Form>
        ) : null}
        {can.cancel ? (
          <Form
            method="post"
            className="mt-6"
            onSubmit={(e) => {
              if (!window.confirm("Cancel this booking?")) e.preventDefault();
            }}
          >
            <Button type="submit" name="intent" value="cancel" variant="outline" disabled={busy}>
              Cancel booking
            </Button>
          </Form>
        ) : null}
        {can.rate ? (
          <div className="mt-6 border-t border-slate-100 pt-6">
            <RatingForm bookingId={booking.id} artistName={booking.artistName} />
          </div>
        ) : null}
        {booking.ratingGiven && booking.rating ? (
          <p className="mt-6 text-sm text-slate-700">
            Rated {booking.rating} of 5{booking.review ? `: “${booking.review}”` : ""}
          </p>
        ) : null}
      </section>
      <MessagesPanel
        bookingId={booking.id}
        userId={userId}
        initial={messages}
        canSend={can.message}
        sentToast={
          isArtist
            ? { title: "Message Sent", description: "Your message has been sent to the client." }
            : undefined
        }
      />
    </main>
  );
}
