import { requireUser } from "~/features/accounts/accounts.server";
import { CalendarActionSchema } from "~/features/calendars/calendars.schema";
import { resetFeed } from "~/features/calendars/feeds.server";
import {
  addImportedCalendar,
  removeImportedCalendar,
  syncImportedCalendar,
} from "~/features/calendars/imports.server";
import { attempt, notFound, parseForm, readForm } from "~/lib/form.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/calendars";

export function loader() {
  notFound();
}

const SCHEDULE = "/artist-dashboard?tab=schedule#calendars";
const FAILED = "Calendar not updated";
const failed = (description: string) =>
  ({ title: FAILED, description, variant: "destructive" }) as const;

/**
 * The calendar forms of the Schedule tab and of My Bookings: a feed's link (create or reset),
 * imported calendars (add, sync now, remove). Every answer goes back to the page with a toast,
 * with or without JavaScript.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  const parsed = parseForm(CalendarActionSchema, form);
  if (!parsed.ok) {
    const message = Object.values(parsed.reply.data.fieldErrors ?? {})[0] ?? "Please try again.";
    return redirectWithToast(SCHEDULE, failed(message), { status: 303 });
  }
  const change = parsed.data;
  const back =
    change.intent === "reset-feed" && change.kind === "client"
      ? "/client-bookings#calendar-feed"
      : SCHEDULE;
  const run = async () => {
    switch (change.intent) {
      case "reset-feed": {
        await resetFeed(context, user, change.kind);
        return redirectWithToast(
          back,
          {
            title: "Calendar link ready",
            description:
              "Any earlier link no longer works. Copy the new one into your calendar app.",
          },
          { status: 303 },
        );
      }
      case "add-calendar": {
        const result = await addImportedCalendar(context, user, { url: change.url });
        return redirectWithToast(
          back,
          result.ok
            ? { title: "Calendar added", description: `${result.busyDays} busy days read.` }
            : failed(`Calendar added, but it could not be read: ${result.error}`),
          { status: 303 },
        );
      }
      case "sync-calendar": {
        const result = await syncImportedCalendar(context, user, { calendarId: change.calendarId });
        return redirectWithToast(
          back,
          result.ok
            ? { title: "Calendar synced", description: `${result.busyDays} busy days read.` }
            : failed(result.error),
          { status: 303 },
        );
      }
      case "remove-calendar": {
        await removeImportedCalendar(context, user, { calendarId: change.calendarId });
        return redirectWithToast(
          back,
          { title: "Calendar removed", description: "Its busy days are free again." },
          { status: 303 },
        );
      }
    }
  };
  // A refusal goes back to the page too ("not found" is still the 404 page).
  return attempt(run, { redirectTo: back, toastTitle: FAILED });
}
