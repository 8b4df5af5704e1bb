import CalendarCheck from "lucide-react/icons/calendar-check";
import { buttonClasses } from "~/components/ui/button";

/** The booking page for the artist, starting on `date` when there is one. */
export function bookingHref(slug: string, date?: string) {
  const params = new URLSearchParams({ artist: slug });
  if (date) params.set("date", date);
  return `/bookings?${params}`;
}

/**
 * 'Book Performance' in the profile's server markup (decision 022): a link to the booking page,
 * which the profile's `book` action (`useBookingDialog`, use-booking-dialog.tsx) turns into the
 * booking dialog.
 */
export function BookingLink({ slug, startDate }: { slug: string; startDate?: string }) {
  return (
    <a
      href={bookingHref(slug, startDate)}
      data-action="book"
      className={buttonClasses("primary", "md")}
    >
      <CalendarCheck aria-hidden className="h-4 w-4" /> Book Performance
    </a>
  );
}
