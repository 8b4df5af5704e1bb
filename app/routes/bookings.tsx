import { Link, redirect, useFetcher } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { Card } from "~/components/ui/card";
import { forgetCurrentUser, getCurrentUser } from "~/features/accounts/accounts.server";
import { canBookArtist } from "~/features/artists/artists.policy";
import { getArtistProfile } from "~/features/artists/artists.server";
import { getAvailability, getBusyDays } from "~/features/availability/availability.server";
import { BookingRequestForm } from "~/features/bookings/booking-request-form";
import { createBookingRequest } from "~/features/bookings/booking-requests.server";
import { artistTodayFor } from "~/features/bookings/booking-views.server";
import { BOOKING_REFUSALS } from "~/features/bookings/bookings.constants";
import {
  BookingRequestSchema,
  bookingFormHref,
  bookingPrefillOf,
} from "~/features/bookings/bookings.schema";
import { bookingFormDates } from "~/features/bookings/quick-picks";
import type { PublishedTerms } from "~/features/terms/published-terms";
import { publishedTermsSha256 } from "~/features/terms/published-terms.server";
import { publishedTermsLines } from "~/features/terms/terms-card";
import { addDays } from "~/lib/dates";
import type { FormReply } from "~/lib/form";
import { attempt, notFound, parseForm, readForm } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { requestOriginOf } from "~/lib/request-origin.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/bookings";

export const meta: Route.MetaFunction = ({ data: loaded }) =>
  pageMeta({
    title: loaded ? `Book ${loaded.artist.artistName}` : "Book an artist",
    description: "Send a booking request.",
  });

/** The booking form on a page of its own: where the profile's dialog leads without JavaScript. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const artistParam = params.get("artist") ?? "";
  // A NUL byte can't be in any slug or id: answered here, before a query sees it.
  if (!artistParam || artistParam.includes("\u0000")) notFound();
  const user = await getCurrentUser(request, context);
  const artist = await getArtistProfile(context, user, artistParam);
  if (!artist) notFound();
  // A signed-out visitor fills the form in first; sending it takes them to sign in (action).
  if (user && !canBookArtist(user, artist)) throw redirect(`/artist/${artist.slug}`);
  // The artist's today: dates are wall-clock dates in their zone.
  const today = await artistTodayFor(context, user, artist.id);
  const days = { artistId: artist.id, from: today, to: addDays(today, 120) };
  const [entries, busyDays] = await Promise.all([
    getAvailability(context, user, days),
    getBusyDays(context, user, days),
  ]);
  const terms: PublishedTerms = {
    depositBps: artist.depositBps,
    balanceDueDays: artist.balanceDueDays,
    policy: artist.cancellationPolicy,
  };
  return {
    artist: {
      id: artist.id,
      slug: artist.slug,
      artistName: artist.artistName,
      hourlyRate: artist.hourlyRate,
      timeZone: artist.timeZone,
      // The terms in words and their hash: the form shows the one and posts the other.
      terms: { sha256: publishedTermsSha256(terms), lines: publishedTermsLines(terms) },
    },
    ...bookingFormDates(entries, busyDays, today),
    prefill: bookingPrefillOf(params),
    signedIn: user !== null,
  };
}

const TOAST_TITLES: Record<string, string> = {
  [BOOKING_REFUSALS.dateNotAvailable]: "Date Not Available",
  [BOOKING_REFUSALS.startTimePassed]: "Date Not Available",
  [BOOKING_REFUSALS.duplicateRequest]: "Request Already Sent",
  [BOOKING_REFUSALS.rateLimited]: "Too Many Requests",
  [BOOKING_REFUSALS.termsChanged]: "Terms Changed",
};

export async function action({ request, context }: Route.ActionArgs) {
  const user = await getCurrentUser(request, context);
  const form = await readForm(request);
  const parsed = parseForm(BookingRequestSchema, form);
  if (!parsed.ok) return parsed.reply;
  if (!user) {
    // Signed out: sign in or up first, then back to this form with what was chosen in it
    // (docs/product.md, "Bookings").
    const back = bookingFormHref(parsed.data.artistId, parsed.data);
    return redirect(`/auth?reason=book&redirectTo=${encodeURIComponent(back)}`);
  }
  return attempt(
    async () => {
      const booked = await createBookingRequest(
        context,
        user,
        parsed.data,
        requestOriginOf(request, context),
      );
      // The first request made this user a client: the next look-up must see the new role.
      forgetCurrentUser(context);
      // The request's own page confirms it (also without JavaScript), with its messages.
      return redirectWithToast(`/bookings/${booked.id}`, {
        title: "Booking Request Sent!",
        description: `Your booking request for ${booked.artistName} has been submitted. You'll receive a confirmation email soon.`,
      });
    },
    {
      values: parsed.values,
      toastTitle: (problem) => TOAST_TITLES[problem.reason ?? ""] ?? "Error",
      failure: {
        message: "There was an error submitting your booking request. Please try again.",
        title: "Booking Failed",
        logger: context.logger,
        event: "booking request failed",
      },
    },
  );
}

export default function BookPage({ loaderData, actionData }: Route.ComponentProps) {
  const fetcher = useFetcher<FormReply>();
  const result = fetcher.data ?? actionData;
  useToastOn(result, result?.toast);
  const { artist } = loaderData;
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-10">
      <p className="text-sm wrap-anywhere">
        <Link to={`/artist/${artist.slug}`} className="text-brand-700 underline">
          ← Back to {artist.artistName}
        </Link>
      </p>
      <h1 className="mt-3 text-2xl font-bold wrap-anywhere">Book {artist.artistName}</h1>
      <Card className="mt-6">
        <BookingRequestForm
          fetcher={fetcher}
          result={result}
          artistId={artist.id}
          hourlyRate={artist.hourlyRate}
          timeZone={artist.timeZone}
          quickPicks={loaderData.quickPicks}
          blockedDates={loaderData.blockedDates}
          today={loaderData.today}
          prefill={loaderData.prefill}
          signedIn={loaderData.signedIn}
          terms={artist.terms}
        />
      </Card>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
