import { data, Link, redirect, useFetcher } from "react-router";
import { fieldErrors } from "~/features/accounts/accounts.schema";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import { getArtistProfile } from "~/features/artists/artists.server";
import { getAvailability } from "~/features/availability/availability.server";
import {
  type BookingFormResult,
  BookingRequestForm,
  bookingToast,
} from "~/features/bookings/booking-request-form";
import { BookingRequestSchema } from "~/features/bookings/bookings.schema";
import { BookingError, createBookingRequest } from "~/features/bookings/bookings.server";
import { quickPickDates } from "~/features/bookings/quick-picks";
import { addDays, todayIn } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
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
  const url = new URL(request.url);
  const artistParam = url.searchParams.get("artist") ?? "";
  const artist = artistParam ? await getArtistProfile(context.db, artistParam) : null;
  if (!artist) throw data(null, { status: 404 });
  const user = await getCurrentUser(request, context);
  if (!user)
    throw redirect(`/auth?reason=book&redirectTo=${encodeURIComponent(`/artist/${artist.slug}`)}`);
  if (user.id === artist.userId) throw redirect(`/artist/${artist.slug}`);
  const today = todayIn(context.env.timeZone);
  const entries = await getAvailability(context.db, artist.id, today, addDays(today, 120));
  return {
    artist: {
      id: artist.id,
      slug: artist.slug,
      artistName: artist.artistName,
      hourlyRate: artist.hourlyRate,
    },
    quickPicks: quickPickDates(entries, today),
    blockedDates: Object.fromEntries(
      entries.filter((e) => e.status !== "available").map((e) => [e.date, e.status]),
    ),
    today,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await getCurrentUser(request, context);
  if (!user) {
    return data<BookingFormResult>(
      { formErrorTitle: "Authentication Required", formError: "Please sign in to book an artist." },
      { status: 401 },
    );
  }
  const parsed = BookingRequestSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success)
    return data<BookingFormResult>({ fieldErrors: fieldErrors(parsed.error) }, { status: 400 });
  try {
    const { artistName } = await createBookingRequest(context, user, parsed.data);
    const artist = await getArtistProfile(context.db, parsed.data.artistId);
    return redirectWithToast(`/artist/${artist?.slug ?? parsed.data.artistId}`, {
      title: "Booking Request Sent!",
      description: `Your booking request for ${artistName} has been submitted. You'll receive a confirmation email soon.`,
    });
  } catch (error) {
    if (error instanceof BookingError) {
      return data<BookingFormResult>(
        { formErrorTitle: error.title, formError: error.message },
        { status: error.status },
      );
    }
    context.logger.error({ err: error }, "booking request failed");
    return data<BookingFormResult>(
      {
        formErrorTitle: "Booking Failed",
        formError: "There was an error submitting your booking request. Please try again.",
      },
      { status: 500 },
    );
  }
}

export default function BookPage({ loaderData, actionData }: Route.ComponentProps) {
  const fetcher = useFetcher<BookingFormResult>();
  const result = fetcher.data ?? (actionData as BookingFormResult | undefined);
  useToastOn(result, bookingToast(result));
  const { artist } = loaderData;
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-10">
      <p className="text-sm">
        <Link to={`/artist/${artist.slug}`} className="text-brand-700 underline">
          ← Back to {artist.artistName}
        </Link>
      </p>
      <h1 className="mt-3 text-2xl font-bold">Book {artist.artistName}</h1>
      <div className="mt-6 rounded-2xl border border-slate-200 bg-white p-6">
        <BookingRequestForm
          fetcher={fetcher}
          result={result}
          artistId={artist.id}
          hourlyRate={artist.hourlyRate}
          quickPicks={loaderData.quickPicks}
          blockedDates={loaderData.blockedDates}
          today={loaderData.today}
        />
      </div>
    </main>
  );
}
