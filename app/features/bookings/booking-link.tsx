import CalendarCheck from "lucide-react/icons/calendar-check";
import { lazy, type ReactNode, Suspense, useState } from "react";
import { buttonClasses } from "~/components/ui/button";
import type { BookingDialogProps } from "./booking-dialog";

// The booking form is loaded only when a signed-in visitor asks for it: visitors who just read
// the profile download none of it.
const BookingDialog = lazy(() =>
  import("./booking-dialog").then((m) => ({ default: m.BookingDialog })),
);

/** The booking page for the artist, starting on `date` when there is one. */
export function bookingHref(slug: string, date?: string) {
  const params = new URLSearchParams({ artist: slug });
  if (date) params.set("date", date);
  return `/bookings?${params}`;
}

/**
 * 'Book Performance' in the profile's server markup (decision 022): a link to the booking page,
 * which the profile's `book` action (`useBookingDialog`) turns into the booking dialog.
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

/**
 * The booking dialog behind `BookingLink`: loaded at the first "Book Performance", opened at each.
 * `book` is the action; `dialog` goes anywhere in the page (it is modal).
 */
export function useBookingDialog(props: Omit<BookingDialogProps, "asked"> | null): {
  book: () => void;
  dialog: ReactNode;
} {
  const [asked, setAsked] = useState(0);
  return {
    book: () => setAsked((n) => n + 1),
    dialog:
      props && asked > 0 ? (
        <Suspense fallback={null}>
          <BookingDialog {...props} asked={asked} />
        </Suspense>
      ) : null,
  };
}
