import { useCallback, useEffect, useRef } from "react";
import { Form, Link } from "react-router";
import { Button, buttonClasses } from "~/components/ui/button";
import { Field, FormError } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { Spinner } from "~/components/ui/spinner";
import { TextareaField } from "~/components/ui/textarea-field";
import {
  BALANCE_DUE_DAYS_CHOICES,
  DEFAULT_BALANCE_DUE_DAYS,
  DEFAULT_DEPOSIT_BPS,
  DEFAULT_POLICY,
  DEPOSIT_BPS_CHOICES,
  POLICY_CODES,
  policyTerms,
} from "~/features/terms/policies";
import { policySummary } from "~/features/terms/terms-text";
import type { FieldErrors } from "~/lib/form";
import { usePending } from "~/lib/use-pending";
import { EVENT_TYPES } from "~db/enums";
import { matchTimeZone, timeZoneLabel } from "./time-zones";

type TextField =
  | "artistName"
  | "genre"
  | "bio"
  | "location"
  | "experience"
  | "instruments"
  | "hourlyRate"
  | "startingPrice"
  | "instagram"
  | "youtube"
  | "facebook"
  | "timeZone"
  | "depositBps"
  | "balanceDueDays"
  | "cancellationPolicy"
  /** The ticked occasions, one per line. */
  | "occasions";

export type ArtistFormValues = Partial<Record<TextField, string>> & { isAvailable?: boolean };

/** What was typed (an action's `values`) as the form's values: the checkbox posts "on". */
export function formValuesOf(values: Record<string, string>): ArtistFormValues {
  const { isAvailable, ...text } = values;
  return { ...text, isAvailable: isAvailable === "on" };
}

type Props = {
  mode: "create" | "edit";
  values?: ArtistFormValues;
  fieldErrors?: FieldErrors;
  formError?: string;
  /**
   * Where to post what is typed, as it is typed, to keep it as this browser's draft (in cookies:
   * decision 040). Left out, nothing is kept.
   */
  keepDraftAt?: string;
  /** The zones to choose from (from the server, so both renders list the same). */
  timeZones: string[];
  /**
   * The zone selected before anyone chose one: the app's zone. Once the page runs in a browser,
   * the browser's own zone replaces it (a new profile only, and only while untouched).
   */
  defaultTimeZone: string;
  /** Genres and locations artists already use, most used first, offered as suggestions. */
  suggestions: { genres: string[]; locations: string[] };
};

/** Quiet time after the last key before the draft is kept. */
const DRAFT_DELAY_MS = 600;

export function ArtistProfileForm({
  mode,
  values = {},
  fieldErrors = {},
  formError,
  keepDraftAt,
  timeZones,
  defaultTimeZone,
  suggestions,
}: Props) {
  const busy = usePending();
  const form = useRef<HTMLFormElement>(null);
  const initialZone = matchTimeZone(values.timeZone || defaultTimeZone, timeZones);

  // A new profile starts in the browser's zone (without JavaScript: the app's zone).
  const detectZone = mode === "create" && !values.timeZone;
  useEffect(() => {
    const select = form.current?.elements.namedItem("timeZone");
    if (!detectZone || !(select instanceof HTMLSelectElement)) return;
    const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const match = browserZone ? matchTimeZone(browserZone, timeZones) : undefined;
    if (match && select.value === initialZone) select.value = match;
  }, [detectZone, timeZones, initialZone]);

  // Never lose what was typed: the page draws a kept draft itself (its loader reads it).
  const draft = useDraftKeeper(keepDraftAt);

  return (
    <Form
      method="post"
      ref={form}
      onInput={(event) => draft.keepSoon(event.currentTarget)}
      onSubmit={draft.stop}
      className="space-y-6"
      noValidate
    >
      <FormError>{formError}</FormError>
      <fieldset className="space-y-4">
        <legend className="text-lg font-semibold">About you</legend>
        <Field
          label="Artist Name"
          name="artistName"
          required
          defaultValue={values.artistName}
          error={fieldErrors.artistName}
          autoComplete="nickname"
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Genre"
            name="genre"
            required
            list="genre-options"
            defaultValue={values.genre}
            error={fieldErrors.genre}
          />
          <Field
            label="Location"
            name="location"
            required
            list="location-options"
            defaultValue={values.location}
            error={fieldErrors.location}
          />
        </div>
        <datalist id="genre-options">
          {suggestions.genres.map((g) => (
            <option key={g} value={g} />
          ))}
        </datalist>
        <datalist id="location-options">
          {suggestions.locations.map((l) => (
            <option key={l} value={l} />
          ))}
        </datalist>
        <SelectField
          label="Time Zone"
          name="timeZone"
          defaultValue={initialZone}
          error={fieldErrors.timeZone}
          hint="Your sessions and bookings are in this zone's local time: what you enter is what everyone sees."
        >
          {timeZones.map((z) => (
            <option key={z} value={z}>
              {timeZoneLabel(z)}
            </option>
          ))}
        </SelectField>
        <TextareaField
          label="Bio"
          name="bio"
          required
          rows={4}
          defaultValue={values.bio}
          error={fieldErrors.bio}
          hint="What you play, where, and for whom."
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Experience"
            name="experience"
            required
            placeholder="e.g. 5 years"
            defaultValue={values.experience}
            error={fieldErrors.experience}
          />
          <Field
            label="Instruments"
            name="instruments"
            required
            placeholder="e.g. Piano, Vocals"
            defaultValue={values.instruments}
            error={fieldErrors.instruments}
            hint="Separate several with commas."
          />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Hourly Rate (₹)"
            name="hourlyRate"
            type="number"
            min={0}
            step={0.01}
            inputMode="decimal"
            defaultValue={values.hourlyRate}
            error={fieldErrors.hourlyRate}
            hint="Optional. Without it, booking estimates use ₹150 per hour."
          />
          <Field
            label="Starting price (₹)"
            name="startingPrice"
            type="number"
            min={1}
            step={0.01}
            inputMode="decimal"
            defaultValue={values.startingPrice}
            error={fieldErrors.startingPrice}
            hint="Optional, if you quote each booking instead of an hourly rate: the least a booking with you costs, shown as “From ₹…” on your card."
          />
        </div>
        <OccasionChoices ticked={values.occasions} error={fieldErrors.occasions} />
      </fieldset>
      <fieldset className="space-y-4">
        <legend className="text-lg font-semibold">Social links (optional)</legend>
        <Field
          label="Instagram"
          name="instagram"
          type="url"
          placeholder="https://instagram.com/you"
          defaultValue={values.instagram}
          error={fieldErrors.instagram}
        />
        <Field
          label="YouTube"
          name="youtube"
          type="url"
          placeholder="https://youtube.com/@you"
          defaultValue={values.youtube}
          error={fieldErrors.youtube}
        />
        <Field
          label="Facebook"
          name="facebook"
          type="url"
          placeholder="https://facebook.com/you"
          defaultValue={values.facebook}
          error={fieldErrors.facebook}
        />
      </fieldset>
      <BookingTermsFields values={values} fieldErrors={fieldErrors} />
      {mode === "edit" ? (
        <label className="flex items-center gap-3 text-sm font-medium">
          <input
            type="checkbox"
            name="isAvailable"
            defaultChecked={values.isAvailable}
            className="h-5 w-5 rounded border-slate-300 accent-brand-600"
          />
          Available for bookings (shows the 'Available' badge in discovery)
        </label>
      ) : null}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
        <Link
          to={mode === "create" ? "/" : "/artist-dashboard"}
          className={buttonClasses("outline", "md")}
        >
          Back
        </Link>
        <Button type="submit" disabled={busy}>
          {busy ? (
            <>
              <Spinner /> {mode === "create" ? "Creating Profile..." : "Saving..."}
            </>
          ) : mode === "create" ? (
            "Create Profile"
          ) : (
            "Save Profile"
          )}
        </Button>
      </div>
    </Form>
  );
}

/** Each policy in one line, beside its radio; the full tables are under "How each policy works". */
const POLICY_GISTS: Record<(typeof POLICY_CODES)[number], string> = {
  flexible: "Nothing to pay until 7 days before; then 25%, and 50% in the last 48 hours.",
  moderate: "10% until 30 days before, then 30% and 50%, and the full total in the last 7 days.",
  strict: "30% from the start, 50% in the last 60 days, the full total in the last 30 days.",
};

const depositLabel = (bps: number) => (bps === 0 ? "No deposit" : `${bps / 100}%`);
const balanceDueLabel = (days: number) =>
  days === 0 ? "On the day of the event" : `${days} days before`;

/** The terms every booking request is an offer on: deposit, balance due and cancellation policy. */
function BookingTermsFields({
  values,
  fieldErrors,
}: {
  values: ArtistFormValues;
  fieldErrors: FieldErrors;
}) {
  const policy = POLICY_CODES.find((p) => p === values.cancellationPolicy) ?? DEFAULT_POLICY;
  // Lines common to every policy: cooling-off and the artist cancelling.
  const commonLines = policySummary(policyTerms(DEFAULT_POLICY)).slice(-2);
  const policyError = fieldErrors.cancellationPolicy;
  return (
    <fieldset className="space-y-4">
      <legend className="text-lg font-semibold">Booking terms</legend>
      <p className="text-sm text-slate-600">
        Clients see these on your profile and on the request form: every booking request is an offer
        on them. You can still agree different terms for one booking.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Deposit"
          name="depositBps"
          defaultValue={values.depositBps ?? String(DEFAULT_DEPOSIT_BPS)}
          error={fieldErrors.depositBps}
          hint="Paid when the booking is agreed."
        >
          {DEPOSIT_BPS_CHOICES.map((bps) => (
            <option key={bps} value={bps}>
              {depositLabel(bps)}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Balance due"
          name="balanceDueDays"
          defaultValue={values.balanceDueDays ?? String(DEFAULT_BALANCE_DUE_DAYS)}
          error={fieldErrors.balanceDueDays}
          hint="The rest of the total."
        >
          {BALANCE_DUE_DAYS_CHOICES.map((days) => (
            <option key={days} value={days}>
              {balanceDueLabel(days)}
            </option>
          ))}
        </SelectField>
      </div>
      <fieldset aria-describedby={policyError ? "cancellation-policy-error" : undefined}>
        <legend className="mb-1 text-sm font-medium text-slate-800">Cancellation policy</legend>
        <p className="mb-2 text-sm text-slate-500">
          What a client pays if they cancel, as a share of the total.
        </p>
        <div className="grid gap-2">
          {POLICY_CODES.map((code) => (
            <label
              key={code}
              className="flex cursor-pointer items-start gap-3 rounded-lg border border-slate-200 p-3 has-checked:border-brand-600 has-checked:bg-brand-50"
            >
              <input
                type="radio"
                name="cancellationPolicy"
                value={code}
                defaultChecked={policy === code}
                className="mt-1 accent-brand-600"
              />
              <span>
                <span className="block text-sm font-medium">{policyTerms(code).policyName}</span>
                <span className="block text-sm text-slate-600">{POLICY_GISTS[code]}</span>
              </span>
            </label>
          ))}
        </div>
        {policyError ? (
          <p id="cancellation-policy-error" className="mt-1 text-sm text-red-600">
            {policyError}
          </p>
        ) : null}
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-medium text-brand-700">
            How each policy works
          </summary>
          <div className="mt-2 space-y-3 text-slate-700">
            {POLICY_CODES.map((code) => {
              const terms = policyTerms(code);
              return (
                <div key={code}>
                  <p className="font-medium">{terms.policyName}</p>
                  <ul className="list-disc space-y-0.5 pl-5">
                    {policySummary(terms)
                      .slice(0, -2)
                      .map((line) => (
                        <li key={line}>{line}</li>
                      ))}
                  </ul>
                </div>
              );
            })}
            <div>
              <p className="font-medium">With every policy</p>
              <ul className="list-disc space-y-0.5 pl-5">
                {commonLines.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </div>
          </div>
        </details>
      </fieldset>
    </fieldset>
  );
}

/**
 * "Occasions you play": the booking form's event types as checkboxes, found by clients through
 * discovery's occasion filter. The hidden empty value makes "none ticked" a choice, not an omission.
 */
function OccasionChoices({ ticked = "", error }: { ticked?: string; error?: string }) {
  const chosen = new Set(ticked.split("\n"));
  return (
    <fieldset aria-describedby={error ? "occasions-error" : "occasions-hint"}>
      <legend className="mb-1 block text-sm font-medium">Occasions you play</legend>
      <p id="occasions-hint" className="mb-2 text-xs text-slate-600">
        Clients planning one of these find you with the occasion filter.
      </p>
      <input type="hidden" name="occasions" value="" />
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        {EVENT_TYPES.map((occasion) => (
          <label key={occasion} className="flex items-center gap-3 text-sm">
            <input
              type="checkbox"
              name="occasions"
              value={occasion}
              defaultChecked={chosen.has(occasion)}
              className="h-5 w-5 rounded border-slate-300 accent-brand-600"
            />
            {occasion}
          </label>
        ))}
      </div>
      {error ? (
        <p id="occasions-error" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * Posts the form as typed to `url` once typing pauses. A plain fetch, not a React Router fetcher:
 * a fetcher's answer makes the router load the page's data again, and a load that runs as the
 * form is sent takes the one-time message meant for the page it leads to (decision 074).
 * Sending the form stops a draft waiting or on its way: the profile now exists.
 */
function useDraftKeeper(url: string | undefined) {
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const inFlight = useRef<AbortController>(undefined);
  const stop = useCallback(() => {
    clearTimeout(timer.current);
    inFlight.current?.abort();
  }, []);
  useEffect(() => stop, [stop]);
  const keepSoon = (form: HTMLFormElement) => {
    if (!url) return;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      // A draft that does not arrive is only a draft: the next pause in typing sends it again.
      fetch(url, { method: "POST", body: new FormData(form), signal: controller.signal }).catch(
        () => {},
      );
    }, DRAFT_DELAY_MS);
  };
  return { keepSoon, stop };
}
