import { useEffect, useRef } from "react";
import { Form, Link } from "react-router";
import { Button, buttonClasses } from "~/components/ui/button";
import { Field, FormError } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { Spinner } from "~/components/ui/spinner";
import { TextareaField } from "~/components/ui/textarea-field";
import { toLocalInputValue } from "~/lib/dates";
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
 * What was typed, as the action sends it back. A chip field holds its first value: all of them
 * without JavaScript (one comma-separated box); with it the chips stay on the page anyway.
 */
export type SessionFormValues = Record<string, string>;

/** The 'Log New Session' form; its date and time start at "now". */
const startField = () => document.getElementById("startTime") as HTMLInputElement | null;

export function SessionForm({
  values,
  errors,
  formError,
  returnTo,
  nowInAppZone,
}: {
  values?: SessionFormValues;
  errors?: FieldErrors;
  formError?: string;
  returnTo: string;
  nowInAppZone: string;
}) {
  const creating = usePending({ intent: "create" });
  const offsetRef = useRef<HTMLInputElement>(null);
  // The server only knows the app's time zone; once in the browser, "now" is the user's own.
  useEffect(() => {
    const start = startField();
    if (!values && start && start.value === nowInAppZone)
      start.value = toLocalInputValue(new Date());
  }, [values, nowInAppZone]);

  return (
    <Form
      method="post"
      noValidate
      className="space-y-5"
      onSubmit={() => {
        const local = startField()?.value;
        if (local && offsetRef.current)
          offsetRef.current.value = String(new Date(local).getTimezoneOffset());
      }}
    >
      <input type="hidden" name="intent" value="create" />
      <input type="hidden" name="returnTo" value={returnTo} />
      <input ref={offsetRef} type="hidden" name="timezoneOffset" defaultValue="" />
      <FormError>{formError}</FormError>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <SelectField
          id="sessionType"
          label="Session Type"
          name="sessionType"
          defaultValue={values?.sessionType ?? ""}
          error={errors?.sessionType}
        >
          <option value="">Select a type</option>
          {(Object.keys(SESSION_TYPE_LABELS) as SessionType[]).map((t) => (
            <option key={t} value={t}>
              {SESSION_TYPE_LABELS[t]}
            </option>
          ))}
        </SelectField>
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
          defaultValue={values?.startTime ?? nowInAppZone}
          error={errors?.startTime}
          hint="A future date makes it a planned session others can join."
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
        <Link to={returnTo} className={buttonClasses("outline", "md")}>
          Cancel
        </Link>
        <Button type="submit" disabled={creating}>
          {creating ? (
            <>
              <Spinner /> Creating...
            </>
          ) : (
            "Create Session"
          )}
        </Button>
      </div>
    </Form>
  );
}
