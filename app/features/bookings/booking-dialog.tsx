import CalendarCheck from "lucide-react/icons/calendar-check";
import X from "lucide-react/icons/x";
import { useEffect, useRef } from "react";
import { useFetcher, useLocation } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import type { FormReply } from "~/lib/form";
import { useToastOn } from "~/lib/use-toast-on";
import { bookingHref } from "./booking-link";
import { BookingRequestForm } from "./booking-request-form";
import type { QuickPick } from "./quick-picks";

type Props = {
  /** Open as soon as it appears (it is loaded on the first click). */
  openOnMount?: boolean;
  artist: { id: string; slug: string; artistName: string; hourlyRate: number | null };
  quickPicks: QuickPick[];
  blockedDates: Record<string, string>;
  today: string;
  /** The date the visitor searched for: the form starts on it. */
  startDate?: string;
};

/**
 * 'Book Performance': a link to the booking page, which JavaScript turns into a modal dialog on
 * the profile. A sent request goes on to its own page with 'Booking Request Sent!'; a refused one
 * stays in the dialog with the errors and what was typed.
 */
export function BookingDialog({
  artist,
  quickPicks,
  blockedDates,
  today,
  startDate,
  openOnMount = false,
}: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const fetcher = useFetcher<FormReply>();
  const location = useLocation();
  useToastOn(fetcher.data, fetcher.data?.toast);
  const openedAt = useRef(location.key);
  useEffect(() => {
    if (openOnMount && location.key === openedAt.current) dialog.current?.showModal();
    else dialog.current?.close();
  }, [location.key, openOnMount]);

  return (
    <>
      <a
        href={bookingHref(artist.slug, startDate)}
        className={buttonClasses("primary", "md")}
        onClick={(event) => {
          event.preventDefault();
          dialog.current?.showModal();
        }}
      >
        <CalendarCheck aria-hidden className="h-4 w-4" /> Book Performance
      </a>
      <dialog
        ref={dialog}
        aria-labelledby="book-title"
        className="m-auto w-[min(36rem,calc(100vw-2rem))] rounded-2xl p-0 shadow-xl backdrop:bg-slate-900/50"
      >
        <div className="max-h-[85vh] overflow-y-auto p-6">
          <div className="mb-4 flex items-start justify-between gap-4">
            <h2 id="book-title" className="text-xl font-semibold">
              Book {artist.artistName}
            </h2>
            <button
              type="button"
              aria-label="Close"
              className={buttonClasses("ghost", "icon")}
              onClick={() => dialog.current?.close()}
            >
              <X aria-hidden className="h-5 w-5" />
            </button>
          </div>
          <BookingRequestForm
            key={location.key}
            fetcher={fetcher}
            result={fetcher.data}
            artistId={artist.id}
            hourlyRate={artist.hourlyRate}
            quickPicks={quickPicks}
            blockedDates={blockedDates}
            today={today}
            prefill={startDate ? { eventDate: startDate } : undefined}
          />
        </div>
      </dialog>
    </>
  );
}
