import RefreshCw from "lucide-react/icons/refresh-cw";
import Trash2 from "lucide-react/icons/trash-2";
import { Form } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { inputClasses } from "~/components/ui/input-classes";
import { formatWallClock } from "~/lib/dates";
import { MAX_CALENDARS_PER_ARTIST } from "./calendars.constants";
import type { ImportedCalendar } from "./imports.server";

/**
 * 'Your other calendars': the artist's imported calendars, each with when it was last read (or
 * why it could not be), 'Sync now' and 'Remove', and the form to add one. Only busy days are
 * taken from them; nothing else is kept or shown.
 */
export function ImportedCalendars({
  calendars,
  timeZone,
}: {
  calendars: ImportedCalendar[];
  timeZone: string;
}) {
  return (
    <section aria-labelledby="imported-title" id="calendars" className="space-y-3">
      <h3 id="imported-title" className="font-medium">
        Your other calendars
      </h3>
      <p className="text-sm text-slate-600">
        Add the secret iCal address of your Google, Apple or Outlook calendar. Days you are busy
        there can't be requested here and leave you out of date searches. GigLedger reads them every
        15 minutes and keeps only which days are busy, never what the events are.
      </p>
      {calendars.length > 0 ? (
        <ul className="space-y-2">
          {calendars.map((c) => (
            <li key={c.id} className="rounded-xl border border-slate-200 p-3 text-sm">
              <p className="font-medium wrap-anywhere">{c.host}</p>
              {c.lastError ? (
                <p className="mt-1 text-red-700 wrap-anywhere" role="status">
                  {c.lastError}
                  {c.stoppedAt
                    ? " Its busy days from the last good read still count. Press 'Sync now' to read it again once it is fixed, or remove it."
                    : null}
                </p>
              ) : null}
              <p className="mt-1 text-slate-600">
                {c.lastSyncedAt
                  ? `Last synced ${formatWallClock(c.lastSyncedAt, timeZone, { withZone: true })} · ${c.busyDays} busy ${c.busyDays === 1 ? "day" : "days"}`
                  : "Not synced yet"}
              </p>
              <div className="mt-2 flex flex-wrap gap-2">
                <Form method="post" action="/calendars">
                  <input type="hidden" name="intent" value="sync-calendar" />
                  <input type="hidden" name="calendarId" value={c.id} />
                  <button
                    type="submit"
                    className={buttonClasses("outline", "sm")}
                    aria-label={`Sync now: ${c.host}`}
                  >
                    <RefreshCw aria-hidden className="h-4 w-4" /> Sync now
                  </button>
                </Form>
                <Form method="post" action="/calendars">
                  <input type="hidden" name="intent" value="remove-calendar" />
                  <input type="hidden" name="calendarId" value={c.id} />
                  <button
                    type="submit"
                    className={buttonClasses("ghost", "sm")}
                    aria-label={`Remove ${c.host}`}
                  >
                    <Trash2 aria-hidden className="h-4 w-4" /> Remove
                  </button>
                </Form>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {calendars.length < MAX_CALENDARS_PER_ARTIST ? (
        <Form method="post" action="/calendars" className="space-y-2">
          <input type="hidden" name="intent" value="add-calendar" />
          <label htmlFor="calendar-url" className="block text-sm font-medium">
            Calendar address (iCal)
          </label>
          <div className="flex min-w-0 gap-2">
            <input
              id="calendar-url"
              name="url"
              type="url"
              required
              placeholder="https://calendar.google.com/calendar/ical/…/basic.ics"
              className={`${inputClasses} min-w-0 flex-1`}
            />
            <button type="submit" className={buttonClasses("primary", "md", "shrink-0")}>
              Add
            </button>
          </div>
        </Form>
      ) : null}
    </section>
  );
}
