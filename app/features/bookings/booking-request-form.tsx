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

/** An artist the request goes to. */
export type RequestArtist = {
  id: string;
  artistName: string;
  hourlyRate: number | null;
  /** The artist's zone: the date and start time are wall-clock values there. */
  timeZone: string;
  /** The terms the request offers to book on (the server refuses it if they changed since). */
  terms: RequestTerms;
};

type Props = {
  fetcher: FetcherWithComponents<FormReply>;
  /** The fetcher's answer, or the action's after a submission without JavaScript. */
  result: FormReply | undefined;
  /** One artist, or up to three for one request sent to each of them (decision 060). */
  artists: RequestArtist[];
  quickPicks: QuickPick[];
  /** Date → status for dates that are not available, to warn before sending. */
  blockedDates: Record<string, string>;
  today: string;
  /** Values to start from (a substitute's request carries the cancelled booking's). */
  prefill?: Record<string, string>;
  /** False for a signed-out visitor: sending takes them to sign in first, with what they chose. */
  signedIn?: boolean;
};

/**
 * The booking request form: posts to /bookings, also without JavaScript (then the action's
 * answer refills what was typed). Dates the artist has marked booked or unavailable are flagged
 * before sending; the server checks again.
 */
export function BookingRequestForm({
  fetcher,
  result,
  artists,
  quickPicks,
  blockedDates,
  today,
  prefill,
  signedIn = true,
}: Props) {
  const several = artists.length > 1;
  // Artists in one zone share its name in the start time's label; else each reads it as theirs.
  const timeZone = artists[0]?.timeZone ?? "UTC";
  const oneZone = artists.every((a) => a.timeZone === timeZone);
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
  const hoursValid = Number(hours) >= DURATION_MIN && Number(hours) <= DURATION_MAX;
  const estimateOf = (a: RequestArtist) =>
    hoursValid ? formatRupees(estimateTotal(Number(hours), a.hourlyRate)) : "—";
  const rateOf = (a: RequestArtist) =>
    a.hourlyRate === null ? "₹150 per hour" : `${formatRupees(a.hourlyRate)} per hour`;

  return (
    <fetcher.Form
      ref={form}
      method="post"
      // The artists in the URL too: without JavaScript a refused request re-renders this form.
      action={`/bookings?${artists.map((a) => `artist=${a.id}`).join("&")}`}
      className="space-y-4"
      noValidate
    >
      {artists.map((a) => (
        <span key={a.id} hidden>
          <input type="hidden" name={several ? "artistIds" : "artistId"} value={a.id} />
          <input type="hidden" name="termsSha256" value={a.terms.sha256} />
        </span>
      ))}
      <FormError>{result?.fieldErrors?.artistIds ?? result?.fieldErrors?.termsSha256}</FormError>
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
          label={
            oneZone
              ? `Start Time (optional, ${several ? "artists'" : "artist's"} time, ${zone})`
              : "Start Time (optional, each artist's local time)"
          }
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
      {several ? (
        <div className="rounded-lg bg-slate-50 p-3 text-sm">
          <p className="font-medium">Estimated cost</p>
          <ul className="mt-1 space-y-0.5">
            {artists.map((a) => (
              <li key={a.id} className="wrap-anywhere">
                {a.artistName}: <output>{estimateOf(a)}</output>{" "}
                <span className="text-slate-600">({rateOf(a)})</span>
              </li>
            ))}
          </ul>
          <p className="mt-1 text-slate-600">
            Each artist answers on their own. When you agree with one, the other requests are
            withdrawn and those artists told.
          </p>
        </div>
      ) : (
        <div className="rounded-lg bg-slate-50 p-3 text-sm">
          <p className="font-medium">
            Estimated cost: <output>{artists[0] ? estimateOf(artists[0]) : "—"}</output>
          </p>
          <p className="text-slate-600">
            {artists[0] ? rateOf(artists[0]) : null}. The final price may vary.
          </p>
        </div>
      )}
      {artists.map((a) => (
        <section
          key={a.id}
          aria-labelledby={`request-terms-${a.id}`}
          className="rounded-lg border border-slate-200 p-3 text-sm"
        >
          <h3 id={`request-terms-${a.id}`} className="font-semibold wrap-anywhere">
            {several ? `${a.artistName}'s booking terms` : "Booking terms"}
          </h3>
          <p className="text-slate-600">
            {`By sending this request you offer to book${several ? ` ${a.artistName}` : ""} on these terms.`}
          </p>
          <ul className="mt-2 list-disc space-y-0.5 pl-5 text-slate-700">
            {a.terms.lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
      ))}
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
        ) : several ? (
          `Send Request to ${artists.length} Artists`
        ) : (
          "Send Booking Request"
        )}
      </Button>
    </fetcher.Form>
  );
}
