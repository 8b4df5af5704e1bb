import CalendarDays from "lucide-react/icons/calendar-days";
import Clock from "lucide-react/icons/clock";
import Music from "lucide-react/icons/eighth-notes";
import MapPin from "lucide-react/icons/map-pin";
import Star from "lucide-react/icons/star";
import { Link } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { buttonClasses } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Pill } from "~/components/ui/pill";
import { requireUser } from "~/features/accounts/accounts.server";
import { BookingStatusBadge, QuotePill } from "~/features/bookings/booking-status-badge";
import { formatBookingWhen, formatDuration } from "~/features/bookings/booking-time";
import { listClientBookings } from "~/features/bookings/booking-views.server";
import { canRateBooking } from "~/features/bookings/bookings.policy";
import { formatRupees } from "~/features/bookings/pricing";
import { RatingForm } from "~/features/bookings/rating-form";
import { CalendarFeedLink } from "~/features/calendars/calendar-feed-link";
import { getFeedUrl } from "~/features/calendars/feeds.server";
import { formatLongDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/client-bookings";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Your Bookings", description: "Your booking requests on GigLedger." }),
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const [bookings, feedUrl] = await Promise.all([
    listClientBookings(context, user),
    getFeedUrl(context, user, "client"),
  ]);
  const toRate = bookings
    .filter((b) => canRateBooking(user, b) && b.artistProfileId)
    .sort((a, b) => b.eventDate.localeCompare(a.eventDate));
  return { bookings, toRate, feedUrl };
}

export default function ClientBookings({ loaderData }: Route.ComponentProps) {
  const { bookings, toRate, feedUrl } = loaderData;
  return (
    <main id="main" className="mx-auto max-w-4xl space-y-8 px-4 py-10">
      <h1 className="text-3xl font-bold">Your Bookings</h1>

      {toRate.length > 0 ? (
        <section
          aria-labelledby="rate-title"
          className="rounded-2xl border border-amber-200 bg-amber-50 p-6"
        >
          <h2 id="rate-title" className="flex items-center gap-2 text-lg font-semibold">
            <Star aria-hidden className="h-5 w-5 fill-accent-500 text-accent-500" /> Rate Your
            Recent Experiences
          </h2>
          <ul className="mt-4 space-y-6">
            {toRate.map((b) => (
              <li key={b.id} className="rounded-xl bg-white p-4">
                <p className="font-medium wrap-anywhere">
                  {b.artistName} · {formatLongDate(b.eventDate)}
                </p>
                <p className="text-sm wrap-anywhere text-slate-600">
                  {b.eventType} at {b.venue}
                </p>
                <div className="mt-3">
                  <RatingForm bookingId={b.id} artistName={b.artistName} />
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="all-title">
        <h2 id="all-title" className="text-xl font-semibold">
          All Bookings
        </h2>
        {bookings.length === 0 ? (
          <div className="mt-4 rounded-2xl border border-dashed border-slate-300 p-10 text-center">
            <p className="font-semibold">No bookings yet</p>
            <p className="mt-1 text-slate-600">
              Start exploring artists and make your first booking!
            </p>
            <Link to="/artist-discovery" className={buttonClasses("primary", "md", "mt-4")}>
              Discover Artists
            </Link>
          </div>
        ) : (
          <ul className="mt-4 space-y-4">
            {bookings.map((b) => (
              <li key={b.id}>
                <Card as="article" padding="md" aria-labelledby={`booking-${b.id}`}>
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <h3
                      id={`booking-${b.id}`}
                      className="min-w-0 text-lg font-semibold wrap-anywhere"
                    >
                      {b.artistName}
                    </h3>
                    <div className="flex items-center gap-2">
                      {b.status === "completed" && b.ratingGiven ? (
                        <Pill tone="warning" className="font-semibold">
                          Rated
                        </Pill>
                      ) : null}
                      {b.status === "pending" && b.quoteOpen ? <QuotePill forClient /> : null}
                      <BookingStatusBadge status={b.status} />
                    </div>
                  </div>
                  <p className="mt-1 text-lg font-semibold">{formatRupees(b.totalAmount)}</p>
                  <ul className="mt-3 grid grid-cols-1 gap-2 text-sm text-slate-700 sm:grid-cols-2">
                    <li className="flex items-center gap-2">
                      <CalendarDays aria-hidden className="h-4 w-4 shrink-0 text-slate-400" />{" "}
                      {formatBookingWhen(b, { withZone: true })}
                    </li>
                    <li className="flex items-center gap-2">
                      <Clock aria-hidden className="h-4 w-4 shrink-0 text-slate-400" />{" "}
                      {formatDuration(b.durationHours)}
                    </li>
                    <li className="flex items-center gap-2">
                      <MapPin aria-hidden className="h-4 w-4 shrink-0 text-slate-400" />{" "}
                      <span className="min-w-0 wrap-anywhere">{b.venue}</span>
                    </li>
                    <li className="flex items-center gap-2">
                      <Music aria-hidden className="h-4 w-4 shrink-0 text-slate-400" />{" "}
                      {b.eventType}
                    </li>
                  </ul>
                  {b.message ? (
                    <p className="mt-3 text-sm wrap-anywhere text-slate-600">“{b.message}”</p>
                  ) : null}
                  {b.status === "rejected" && b.declineReason ? (
                    <p className="mt-3 text-sm wrap-anywhere text-slate-700">
                      Reason for declining: {b.declineReason}
                    </p>
                  ) : null}
                  <Link to={`/bookings/${b.id}`} className={buttonClasses("outline", "sm", "mt-4")}>
                    Details &amp; messages
                  </Link>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Card as="section">
        <CalendarFeedLink kind="client" url={feedUrl} />
      </Card>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
