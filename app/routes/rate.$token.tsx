import { data, Link, redirect } from "react-router";
import { ErrorPage } from "~/components/layout/error-page";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { buttonClasses } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FormError } from "~/components/ui/field";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import { getRatingByLink, rateBookingByLink } from "~/features/bookings/booking-ratings.server";
import { formatBookingWhen, formatDuration } from "~/features/bookings/booking-time";
import { RATING_LINK_EXPIRED, RATING_LINK_INVALID } from "~/features/bookings/bookings.constants";
import { RatingSchema } from "~/features/bookings/bookings.schema";
import { RatingForm } from "~/features/bookings/rating-form";
import { attempt, parseForm, readForm } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/rate.$token";

// The one-click rating page of a rating mail's link (docs/product.md, "Ratings"; decision 044):
// it works signed out, for the booking's client only, once; an old link asks to sign in.

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Rate your booking", description: "Rate a booking on GigLedger." }),
  { name: "robots", content: "noindex" },
  // The token is in the address: no other site hears of it. Same-origin, not no-referrer: a form
  // posted without JavaScript would then carry "Origin: null" and be refused as cross-origin.
  { name: "referrer", content: "same-origin" },
];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const link = await getRatingByLink(context, params.token);
  if (link.state === "invalid") return data({ state: "invalid" as const }, { status: 404 });
  if (link.state === "expired") {
    const bookingPage = `/bookings/${link.bookingId}`;
    // Signed in already: the booking's page rates it (for its client; anyone else gets 404).
    if (await getCurrentUser(request, context)) throw redirect(bookingPage);
    return data(
      { state: "expired" as const, signIn: `/auth?redirectTo=${encodeURIComponent(bookingPage)}` },
      { status: 410 },
    );
  }
  return { state: link.state, booking: link.booking };
}

/** Shown when a rating is sent without stars (as on the booking page). */
const RATING_MISSING = {
  title: "Please select a rating",
  description: "You must provide a rating before submitting.",
  variant: "destructive",
} as const;

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const parsed = parseForm(RatingSchema, form, RATING_MISSING);
  if (!parsed.ok) return parsed.reply;
  return attempt(
    async () => {
      await rateBookingByLink(context, { token: params.token, ...parsed.data });
      return redirectWithToast(`/rate/${params.token}`, {
        title: "Rating Submitted",
        description: "Thank you for rating the artist! This helps improve our platform.",
      });
    },
    {
      values: parsed.values,
      toastTitle: "Error",
      notFound: "reply",
      failure: {
        message: "Failed to submit rating. Please try again.",
        logger: context.logger,
        event: "rating from a link failed",
      },
    },
  );
}

export default function RateBooking({ loaderData, actionData, params }: Route.ComponentProps) {
  useToastOn(actionData, actionData?.toast);
  if (loaderData.state === "invalid")
    return (
      <ErrorPage
        heading="Invalid Link"
        message={RATING_LINK_INVALID}
        actions={
          <Link to="/client-bookings" className={buttonClasses("primary", "md")}>
            Your Bookings
          </Link>
        }
      />
    );
  if (loaderData.state === "expired")
    return (
      <ErrorPage
        heading="Link Expired"
        message={RATING_LINK_EXPIRED}
        actions={
          <Link to={loaderData.signIn} className={buttonClasses("primary", "md")}>
            Sign In
          </Link>
        }
      />
    );
  const { booking } = loaderData;
  return (
    <main id="main" className="mx-auto max-w-xl space-y-6 px-4 py-8">
      <Card as="section" aria-labelledby="rate-title">
        <h1 id="rate-title" className="text-2xl font-bold wrap-anywhere">
          {loaderData.state === "rated" ? "Thank you" : `Rate ${booking.artistName}`}
        </h1>
        <dl className="mt-4 grid grid-cols-1 gap-3 text-sm sm:grid-cols-2">
          <div className="min-w-0">
            <dt className="text-slate-500">Event</dt>
            <dd className="font-medium wrap-anywhere">
              {`${booking.eventType} at ${booking.venue}`}
            </dd>
          </div>
          <div className="min-w-0">
            <dt className="text-slate-500">When</dt>
            <dd className="font-medium wrap-anywhere">
              {`${formatBookingWhen(booking, { withZone: true })}, ${formatDuration(booking.durationHours)}`}
            </dd>
          </div>
        </dl>
        {loaderData.state === "rated" ? (
          <div className="mt-6 space-y-3 text-slate-700">
            <p className="wrap-anywhere">
              {`You rated ${booking.artistName} ${booking.rating} of 5${booking.review ? `: “${booking.review}”` : "."}`}
            </p>
            <p>
              <Link to={`/bookings/${booking.id}`} className="text-brand-700 underline">
                See the booking
              </Link>
            </p>
          </div>
        ) : (
          <div className="mt-6 border-t border-slate-100 pt-6">
            <FormError>{actionData?.formError}</FormError>
            <RatingForm
              bookingId={booking.id}
              artistName={booking.artistName}
              action={`/rate/${params.token}`}
            />
          </div>
        )}
      </Card>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
