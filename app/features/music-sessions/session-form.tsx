import { Form, Link } from "react-router";
import { Button, buttonClasses } from "~/components/ui/button";
import { Field, FormError } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { Spinner } from "~/components/ui/spinner";
import { TextareaField } from "~/components/ui/textarea-field";
import type { FieldErrors } from "~/lib/form";
import { usePending } from "~/lib/use-pending";
import { ChipInput } from "./chip-input";
import { chipsFromForm } from "./chips";
import {
  MAX_DURATION_MINUTES,
  SESSION_TYPE_LABELS,
  type SessionType,
} from "./music-sessions.schema";

/**
 * What was typed, as the action sends it back (or, when editing, what is stored). A chip field
 * holds its first value: all of them without JavaScript (one comma-separated box); with it the
 * chips stay on the page anyway.
 */
export type SessionFormValues = Record<string, string>;

const LOCKED_HINT = "Locked: this session has been verified.";

/**
 * The 'Log New Session' form, and the same form to edit a session. The date and time are a
 * wall-clock time in the artist's time zone (named under the field), whatever the browser's
 * zone; a new session starts at "now" on the artist's clock. When the session has been verified,
 * its type, date and time, duration and venue are shown read-only and sent unchanged.
 */
export function SessionForm({
  mode,
  values,
  errors,
  formError,
  returnTo,
  cancelHref,
  action,
  now,
  timeZone,
  zoneName,
  scheduleLocked = false,
}: {
  mode: "create" | "edit";
  values?: SessionFormValues;
  errors?: FieldErrors;
  formError?: string;
  returnTo: string;
  cancelHref: string;
  /** Where the form posts (the page's own address when left out). */
  action?: string;
  /** The default start (create): now on the artist's clock, as a datetime-local value. */
  now?: string;
  timeZone: string;
  /** The zone's short name, e.g. "IST". */
  zoneName: string;
  scheduleLocked?: boolean;
}) {
  const intent = mode === "create" ? "create" : "update";
  const busy = usePending({ intent });
  const locked = mode === "edit" && scheduleLocked;
  const typeValue = values?.sessionType ?? "";
  const zoneHint = `In your time zone, ${timeZone} (${zoneName}).`;

  return (
    <Form method="post" action={action} noValidate className="space-y-5">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <FormError>{formError}</FormError>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {locked ? (
          <>
            <input type="hidden" name="sessionType" value={typeValue} />
            <Field
              id="sessionType"
              label="Session Type"
              readOnly
              value={SESSION_TYPE_LABELS[typeValue as SessionType] ?? typeValue}
              hint={LOCKED_HINT}
              error={errors?.sessionType}
            />
          </>
        ) : (
          <SelectField
            id="sessionType"
            label="Session Type"
            name="sessionType"
            defaultValue={typeValue}
            error={errors?.sessionType}
          >
            <option value="">Select a type</option>
            {(Object.keys(SESSION_TYPE_LABELS) as SessionType[]).map((t) => (
              <option key={t} value={t}>
                {SESSION_TYPE_LABELS[t]}
              </option>
            ))}
          </SelectField>
        )}
        <Field
          label="Title"
          name="title"
          defaultValue={values?.title}
          error={errors?.title}
          placeholder="Friday set at Blue Note"
          maxLength={120}
        />
      </div>
      <TextareaField
        label="Description"
        name="description"
        defaultValue={values?.description}
        error={errors?.description}
        placeholder="What did you play? Who was there?"
        maxLength={2000}
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field
          label="Venue"
          name="venue"
          defaultValue={values?.venue}
          error={errors?.venue}
          maxLength={120}
          readOnly={locked}
          hint={locked ? LOCKED_HINT : undefined}
        />
        <Field
          label="Location"
          name="location"
          defaultValue={values?.location}
          error={errors?.location}
          maxLength={120}
        />
      </div>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field
          id="startTime"
          label="Date and Time"
          name="startTime"
          type="datetime-local"
          defaultValue={values?.startTime ?? now}
          error={errors?.startTime}
          readOnly={locked}
          hint={
            locked
              ? `${LOCKED_HINT} ${zoneHint}`
              : `${zoneHint} A future date makes it a planned session others can join.`
          }
        />
        <Field
          label="Duration (minutes)"
          name="durationMinutes"
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_DURATION_MINUTES}
          step={1}
          defaultValue={values?.durationMinutes ?? "60"}
          error={errors?.durationMinutes}
          readOnly={locked}
          hint={locked ? LOCKED_HINT : undefined}
        />
      </div>
      <ChipInput
        name="instruments"
        label="Instruments"
        placeholder="e.g. Guitar"
        initial={chipsFromForm([values?.instruments ?? ""])}
      />
      <ChipInput
        name="genres"
        label="Genres"
        placeholder="e.g. Jazz"
        initial={chipsFromForm([values?.genres ?? ""])}
      />
      <ChipInput
        name="tags"
        label="Tags"
        placeholder="e.g. live"
        initial={chipsFromForm([values?.tags ?? ""])}
      />
      <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:justify-end">
        <Link to={cancelHref} className={buttonClasses("outline", "md")}>
          Cancel
        </Link>
        <Button type="submit" disabled={busy}>
          {busy ? (
            <>
              <Spinner /> {mode === "create" ? "Creating..." : "Saving..."}
            </>
          ) : mode === "create" ? (
            "Create Session"
          ) : (
            "Save Changes"
          )}
        </Button>
      </div>
    </Form>
  );
}
