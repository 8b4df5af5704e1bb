import CalendarCheck from "lucide-react/icons/calendar-check";
import { lazy, Suspense, useState } from "react";
import { buttonClasses } from "~/components/ui/button";
import type { QuickPick } from "./quick-picks";

// The booking form is loaded only when a signed-in visitor asks for it: visitors who just read
// the profile download none of it.
const BookingDialog = lazy(() =>
  import("./booking-dialog").then((m) => ({ default: m.BookingDialog })),
);

type Props = {
  artist: { id: string; slug: string; artistName: string; hourlyRate: number | null };
  quickPicks: QuickPick[];
  blockedDates: Record<string, string>;
  today: string;
  /** The date the visitor searched for: the form starts on it. */
  startDate?: string;
};

/** The booking page for the artist, starting on `date` when there is one. */
export function bookingHref(slug: string, date?: string) {
  const params = new URLSearchParams({ artist: slug });
  if (date) params.set("date", date);
  return `/bookings?${params}`;
}

/** 'Book Performance': a link to the booking page until JavaScript opens the dialog instead. */
export function BookingLink(props: Props) {
  const [wanted, setWanted] = useState(false);
  const link = (
    <a
      href={bookingHref(props.artist.slug, props.startDate)}
      className={buttonClasses("primary", "md")}
      onClick={(event) => {
        event.preventDefault();
        setWanted(true);
      }}
      onPointerEnter={() => void import("./booking-dialog")}
    >
      <CalendarCheck aria-hidden className="h-4 w-4" /> Book Performance
    </a>
  );
  if (!wanted) return link;
  return (
    <Suspense fallback={link}>
      <BookingDialog {...props} openOnMount />
    </Suspense>
  );
}
