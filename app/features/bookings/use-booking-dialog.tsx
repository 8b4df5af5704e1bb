import { lazy, type ReactNode, Suspense, useState } from "react";
import { withWholeStylesheet } from "~/lib/page-styles";
import type { BookingDialogProps } from "./booking-dialog";

// The booking form is loaded only when a signed-in visitor asks for it: visitors who just read
// the profile download none of it.
const BookingDialog = lazy(() =>
  withWholeStylesheet(import("./booking-dialog")).then((m) => ({ default: m.BookingDialog })),
);

/**
 * The booking dialog behind `BookingLink` (booking-link.tsx): loaded at the first "Book
 * Performance", opened at each. `book` is the action; `dialog` goes anywhere in the page (it is
 * modal).
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
