import { getCurrentUser } from "~/features/accounts/accounts.server";
import { bookingIcs } from "~/features/calendars/feeds.server";
import { notFound } from "~/lib/form.server";
import type { Route } from "./+types/bookings.$bookingId.ics";

/** 'Add to calendar': the booking as a single-event .ics file, for its two parties only. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await getCurrentUser(request, context);
  const body = await bookingIcs(context, user, params.bookingId);
  if (body === null) notFound();
  return new Response(body, {
    headers: {
      "content-type": "text/calendar; charset=utf-8",
      "content-disposition": 'attachment; filename="gigledger-booking.ics"',
      "cache-control": "private, no-store",
    },
  });
}
