import { useRef, useState } from "react";
import { type FetcherWithComponents, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, FormError } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { Spinner } from "~/components/ui/spinner";
import { TextareaField } from "~/components/ui/textarea-field";
import { isIsoDate, zoneAbbreviation, zonedDateTimeToUtc } from "~/lib/dates";
import type { FormReply } from "~/lib/form";
import { fieldText, useEarlyInput } from "~/lib/use-early-input";
import { usePending } from "~/lib/use-pending";
import { BOOKING_REFUSALS } from "./bookings.constants";
import {
  DEFAULT_EVENT_TYPE,
  DURATION_MAX,
  DURATION_MIN,
  EVENT_TYPES,
  estimateTotal,
  formatRupees,
} from "./pricing";
import type { QuickPick } from "./quick-picks";

/** The artist's published terms, prepared on the server: the form shows the words, posts the hash. */
export type RequestTerms = { sha256: string; lines: string[] };

type Props = {
  fetcher: FetcherWithComponents<FormReply>;
  /** The fetcher's answer, or the action's after a submission without JavaScript. */
  result: FormReply | undefined;
  artistId: string;
  hourlyRate: number | null;
  /** The artist's zone: the date and start time are wall-clock values there. */
  timeZone: string;
  quickPicks: QuickPick[];
  /** Date → status for dates that are not available, to warn before sending. */
  blockedDates: Record<string, string>;
  today: string;
  /** Values to start from (a substitute's request carries the cancelled booking's). */
  prefill?: Record<string, string>;
  /** False for a signed-out visitor: sending takes them to sign in first, with what they chose. */
  signedIn?: boolean;
  /** The terms the request offers to book on (the server refuses it if they changed since). */
  terms: RequestTerms;
};

/**
 * The booking request form: posts to /bookings, also without JavaScript (then the action's
 * answer refills what was typed). Dates the artist has marked booked or unavailable are flagged
 * before sending; the server checks again.
 */
export function BookingRequestForm({
  fetcher,
  result,
  artistId,
  hourlyRate,
  timeZone,
  quickPicks,
  blockedDates,
  today,
  prefill,
  signedIn = true,
  terms,
}: Props) {
  const typed = result?.values ?? prefill;
  const [date, setDate] = useState(typed?.eventDate ?? "");
  const [hours, setHours] = useState(typed?.durationHours ?? "2");
  const form = useRef<HTMLFormElement>(null);
  useEarlyInput(form, (typedEarly) => {
    setDate(fieldText(typedEarly, "eventDate"));
    setHours(fieldText(typedEarly, "durationHours"));
  });
  const busy = usePending({ fetcher });
  // The zone's name on the chosen date (EST or EDT), today's before one is chosen.
  const zone = zoneAbbreviation(
    timeZone,
    zonedDateTimeToUtc(isIsoDate(date) ? date : today, "12:00", timeZone),
  );
  const blocked = date ? blockedDates[date] : undefined;
  const estimate =
    Number(hours) >= DURATION_MIN && Number(hours) <= DURATION_MAX
      ? estimateTotal(Number(hours), hourlyRate)
      : null;

  return (
    <fetcher.Form
      ref={form}
      method="post"
      // The artist in the URL too: without JavaScript a refused request re-renders this form.
      action={`/bookings?artist=${artistId}`}
      className="space-y-4"
      noValidate
    >
      <input type="hidden" name="artistId" value={artistId} />
      <input type="hidden" name="termsSha256" value={terms.sha256} />
      <FormError>
        {result?.formError}
        {result?.reason === BOOKING_REFUSALS.duplicateRequest &&
        result.fieldErrors?.pendingBookingId ? (
          <>
            {" "}
            <Link
              to={`/bookings/${result.fieldErrors.pendingBookingId}`}
              className="font-medium underline"
            >
              View your request
            </Link>
          </>
        ) : null}
      </FormError>
      <Field
        label="Event Date"
        name="eventDate"
        type="date"
        min={today}
        required
        value={date}
        onChange={(e) => setDate(e.target.value)}
        error={
          result?.fieldErrors?.eventDate ??
          (blocked ? `This date is ${blocked}. Please choose an available date.` : undefined)
        }
      />
      {quickPicks.length > 0 ? (
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-800">Available dates</legend>
          <div className="flex flex-wrap gap-2">
            {quickPicks.map((pick) => (
              <button
                key={pick.date}
                type="button"
                aria-pressed={date === pick.date}
                onClick={() => setDate(pick.date)}
                className={`rounded-full border px-3 py-1 text-sm ${
                  date === pick.date
                    ? "border-brand-600 bg-brand-600 text-white"
                    : "border-emerald-300 bg-emerald-50 text-emerald-900 hover:bg-emerald-100"
                }`}
              >
                {pick.label}
              </button>
            ))}
          </div>
        </fieldset>
      ) : null}
      {/* Bottom-aligned: the start time's longer label may take two lines beside the duration. */}
      <div className="grid grid-cols-1 items-end gap-4 sm:grid-cols-2">
        <Field
          label={`Start Time (optional, artist's time, ${zone})`}
          name="startTime"
          type="time"
          defaultValue={typed?.startTime}
          error={result?.fieldErrors?.startTime}
        />
        <Field
          label="Duration (hours)"
          name="durationHours"
          type="number"
          min={DURATION_MIN}
          max={DURATION_MAX}
          step={0.5}
          required
          value={hours}
          onChange={(e) => setHours(e.target.value)}
          error={result?.fieldErrors?.durationHours}
        />
      </div>
      <Field
        label="Venue"
        name="venue"
        required
        autoComplete="off"
        defaultValue={typed?.venue}
        error={result?.fieldErrors?.venue}
      />
      <SelectField
        id="eventType"
        label="Event Type"
        name="eventType"
        defaultValue={typed?.eventType ?? DEFAULT_EVENT_TYPE}
        error={result?.fieldErrors?.eventType}
      >
        {EVENT_TYPES.map((t) => (
          <option key={t}>{t}</option>
        ))}
      </SelectField>
      <TextareaField
        label="Additional Details (optional)"
        name="message"
        rows={3}
        defaultValue={typed?.message}
        error={result?.fieldErrors?.message}
      />
      <div className="rounded-lg bg-slate-50 p-3 text-sm">
        <p className="font-medium">
          Estimated cost: <output>{estimate === null ? "—" : formatRupees(estimate)}</output>
        </p>
        <p className="text-slate-600">
          {hourlyRate === null ? "₹150 per hour" : `${formatRupees(hourlyRate)} per hour`}. The
          final price may vary.
        </p>
      </div>
      <section
        aria-labelledby="request-terms-title"
        className="rounded-lg border border-slate-200 p-3 text-sm"
      >
        <h3 id="request-terms-title" className="font-semibold">
          Booking terms
        </h3>
        <p className="text-slate-600">By sending this request you offer to book on these terms.</p>
        <ul className="mt-2 list-disc space-y-0.5 pl-5 text-slate-700">
          {terms.lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </section>
      {signedIn ? null : (
        <p className="text-sm text-slate-600">
          Next you sign in, or create an account: the date, start time, hours, venue and event type
          you chose here come with you.
        </p>
      )}
      <Button type="submit" className="w-full" disabled={busy}>
        {busy ? (
          <>
            <Spinner /> Sending...
          </>
        ) : (
          "Send Booking Request"
        )}
      </Button>
    </fetcher.Form>
  );
}
