import X from "lucide-react/icons/x";
import { useEffect, useRef } from "react";
import { useFetcher, useLocation } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import type { FormReply } from "~/lib/form";
import { useToastOn } from "~/lib/use-toast-on";
import { BookingRequestForm, type RequestTerms } from "./booking-request-form";
import type { QuickPick } from "./quick-picks";

export type BookingDialogProps = {
  /** How many times "Book Performance" was used: each use opens the dialog. */
  asked: number;
  artist: {
    id: string;
    slug: string;
    artistName: string;
    hourlyRate: number | null;
    timeZone: string;
    /** The artist's published terms, in words and as their hash (prepared by the loader). */
    terms: RequestTerms;
  };
  quickPicks: QuickPick[];
  blockedDates: Record<string, string>;
  today: string;
  /** The date the visitor searched for or picked in the calendar: the form starts on it. */
  startDate?: string;
  /** False for a signed-out visitor (see BookingRequestForm). */
  signedIn: boolean;
};

/**
 * The booking form in a modal dialog on the profile (opened through `useBookingDialog`). A sent
 * request goes on to its own page with 'Booking Request Sent!'; a refused one stays in the dialog
 * with the errors and what was typed, also when it is closed and opened again.
 */
export function BookingDialog({
  artist,
  quickPicks,
  blockedDates,
  today,
  startDate,
  signedIn,
  asked,
}: BookingDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const fetcher = useFetcher<FormReply>();
  const location = useLocation();
  useToastOn(fetcher.data, fetcher.data?.toast);
  useEffect(() => {
    if (asked > 0) dialog.current?.showModal();
  }, [asked]);
  // Another page (the sent request's, say) closes it.
  const shownAt = useRef(location.key);
  useEffect(() => {
    if (location.key !== shownAt.current) dialog.current?.close();
    shownAt.current = location.key;
  }, [location.key]);

  return (
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
          // A new page, or a new day picked in the profile's calendar, starts the form afresh.
          key={`${location.key}:${startDate ?? ""}`}
          fetcher={fetcher}
          result={fetcher.data}
          artists={[artist]}
          quickPicks={quickPicks}
          blockedDates={blockedDates}
          today={today}
          prefill={startDate ? { eventDate: startDate } : undefined}
          signedIn={signedIn}
        />
      </div>
    </dialog>
  );
}
