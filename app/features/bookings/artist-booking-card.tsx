import CalendarDays from "lucide-react/icons/calendar-days";
import Clock from "lucide-react/icons/clock";
import Music from "lucide-react/icons/eighth-notes";
import MapPin from "lucide-react/icons/map-pin";
import { Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { BookingStatusBadge, QuotePill } from "./booking-status-badge";
import { formatBookingWhen, formatDuration } from "./booking-time";
import type { BookingView } from "./booking-views.server";

/**
 * A booking in the artist's Bookings tab: client, date and start time (the artist's own wall
 * clock, so no zone), venue, duration, type, status.
 */
export function ArtistBookingCard({ booking }: { booking: BookingView }) {
  return (
    <article
      aria-labelledby={`booking-${booking.id}`}
      className="rounded-xl border border-slate-200 p-4"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={`booking-${booking.id}`} className="font-semibold">
            {booking.clientName}
          </h3>
          <p className="truncate text-sm text-slate-600">{booking.clientEmail}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {booking.status === "pending" && booking.quoteOpen ? (
            <QuotePill forClient={false} />
          ) : null}
          <BookingStatusBadge status={booking.status} />
        </div>
      </div>
      <ul className="mt-3 grid gap-2 text-sm text-slate-700 sm:grid-cols-2">
        <li className="flex items-center gap-2">
          <CalendarDays aria-hidden className="h-4 w-4 text-slate-400" />{" "}
          {formatBookingWhen(booking)}
        </li>
        <li className="flex items-center gap-2">
          <MapPin aria-hidden className="h-4 w-4 text-slate-400" /> {booking.venue}
        </li>
        <li className="flex items-center gap-2">
          <Clock aria-hidden className="h-4 w-4 text-slate-400" />{" "}
          {formatDuration(booking.durationHours)}
        </li>
        <li className="flex items-center gap-2">
          <Music aria-hidden className="h-4 w-4 text-slate-400" /> {booking.eventType}
        </li>
      </ul>
      <Link
        to={`/bookings/${booking.id}`}
        className={buttonClasses("outline", "sm", "mt-4")}
        aria-describedby={`booking-${booking.id}`}
      >
        View Details
      </Link>
    </article>
  );
}
