import { Form } from "react-router";
import { Button, buttonClasses } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { SelectField } from "~/components/ui/select-field";
import { TextareaField } from "~/components/ui/textarea-field";
import { paiseToRupeesText } from "~/lib/money";
import type { QuoteDraft } from "./quote-draft";
import {
  QUOTE_EXPIRY_DAYS,
  QUOTE_INCLUDED_MAX,
  QUOTE_LABEL_MAX,
  QUOTE_LINES_MAX,
  QUOTE_NOTES_MAX,
} from "./quotes.schema";

type Props = {
  draft: QuoteDraft;
  /** "Send Quote" for a request, "Revise Quote" over an open one, "Propose a Change" once agreed. */
  title: string;
  /** What was typed, after a refused submission (also without JavaScript). */
  values?: Record<string, string>;
  errors?: Record<string, string>;
  busy: boolean;
};

const DEPOSITS = [0, ...Array.from({ length: 19 }, (_, i) => 10 + i * 5)];
const DUE_DAYS: [number, string][] = [
  [0, "On the day of the event"],
  [3, "3 days before"],
  [7, "7 days before"],
  [14, "14 days before"],
  [28, "28 days before"],
];
const POLICIES: [string, string][] = [
  ["flexible", "Flexible: free 7+ days ahead, 25% from 7 days, 50% from 48 hours"],
  ["moderate", "Moderate: 10% 30+ days ahead, 30% from 30 days, 50% from 14, in full from 7"],
  ["strict", "Strict: 30% 60+ days ahead, 50% from 60 days, in full from 30 days"],
];

/**
 * The artist's quote: up to ten priced lines, the deposit, when the balance is due, the
 * cancellation policy, what is included, and how long it stays open. Also the form for proposing a
 * change (date, start, length) to an agreed booking. Works without JavaScript.
 */
export function QuoteComposer({ draft, title, values, errors = {}, busy }: Props) {
  const typed = values?.intent === "quote" ? values : undefined;
  const rows = Math.min(
    QUOTE_LINES_MAX,
    Math.max(3, draft.lines.length + 1, countTypedLines(typed)),
  );
  const value = (name: string, fallback: string) => typed?.[name] ?? fallback;
  const hasErrors = typed !== undefined && Object.keys(errors).length > 0;
  return (
    <details className="mt-6" open={hasErrors}>
      <summary className={buttonClasses("outline", "md", "cursor-pointer list-none")}>
        {title}
      </summary>
      <Form method="post" className="mt-4 space-y-5">
        <input type="hidden" name="intent" value="quote" />
        <fieldset className="space-y-3">
          <legend className="text-sm font-semibold">The performance</legend>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            <Field
              label="Date"
              name="eventDate"
              type="date"
              required
              defaultValue={value("eventDate", draft.eventDate)}
              error={errors.eventDate}
            />
            <Field
              label="Start time (optional)"
              name="startTime"
              type="time"
              defaultValue={value("startTime", draft.startTime)}
              error={errors.startTime}
            />
            <Field
              label="Length (hours)"
              name="durationHours"
              type="number"
              min={0.5}
              max={12}
              step={0.5}
              required
              defaultValue={value("durationHours", String(draft.durationHours))}
              error={errors.durationHours}
            />
          </div>
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold">Price, line by line</legend>
          <p className="text-sm text-slate-600">
            For example "3 sets of 45 minutes", "Sound system", "Travel". Amounts in rupees; the
            total is their sum. Leave a row empty to skip it.
          </p>
          {errors.lines ? (
            <p className="text-sm text-red-700" role="alert">
              {errors.lines}
            </p>
          ) : null}
          <ol className="space-y-2">
            {Array.from({ length: rows }, (_, i) => {
              const line = draft.lines[i];
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions, not items
                <li key={i} className="grid grid-cols-[1fr_8rem] gap-2">
                  <label className="sr-only" htmlFor={`line-label-${i}`}>
                    Line {i + 1}: what
                  </label>
                  <input
                    id={`line-label-${i}`}
                    name={`lineLabel${i}`}
                    maxLength={QUOTE_LABEL_MAX}
                    defaultValue={value(`lineLabel${i}`, line?.label ?? "")}
                    placeholder={i === 0 ? "Performance" : ""}
                    className="min-w-0 rounded-md border border-slate-300 px-3 py-2 text-sm"
                  />
                  <label className="sr-only" htmlFor={`line-amount-${i}`}>
                    Line {i + 1}: amount in rupees
                  </label>
                  <input
                    id={`line-amount-${i}`}
                    name={`lineAmount${i}`}
                    inputMode="decimal"
                    defaultValue={value(
                      `lineAmount${i}`,
                      line ? paiseToRupeesText(line.amountPaise) : "",
                    )}
                    placeholder="₹"
                    className="min-w-0 rounded-md border border-slate-300 px-3 py-2 text-right text-sm"
                  />
                </li>
              );
            })}
          </ol>
        </fieldset>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <SelectField
            label="Deposit"
            name="depositPercent"
            defaultValue={value("depositPercent", String(draft.depositPercent))}
            error={errors.depositPercent}
          >
            {DEPOSITS.map((p) => (
              <option key={p} value={p}>
                {p === 0 ? "No deposit" : `${p}%`}
              </option>
            ))}
          </SelectField>
          <SelectField
            label="Balance due"
            name="balanceDueDays"
            defaultValue={value("balanceDueDays", String(draft.balanceDueDays))}
            error={errors.balanceDueDays}
          >
            {DUE_DAYS.map(([days, label]) => (
              <option key={days} value={days}>
                {label}
              </option>
            ))}
          </SelectField>
        </div>
        <SelectField
          label="Cancellation policy"
          name="policy"
          defaultValue={value("policy", draft.policy)}
          error={errors.policy}
        >
          {POLICIES.map(([code, label]) => (
            <option key={code} value={code}>
              {label}
            </option>
          ))}
        </SelectField>
        <TextareaField
          label={`What is included (one a line, at most ${QUOTE_INCLUDED_MAX})`}
          name="included"
          rows={3}
          defaultValue={value("included", draft.included.join("\n"))}
          error={errors.included}
          placeholder={"Two 60-minute sets\nOwn sound system for 150 guests"}
        />
        <TextareaField
          label="Notes (optional)"
          name="notes"
          rows={2}
          maxLength={QUOTE_NOTES_MAX}
          defaultValue={value("notes", draft.notes)}
          error={errors.notes}
        />
        <SelectField
          label="The quote stays open for"
          name="expiresInDays"
          defaultValue={value("expiresInDays", "7")}
          error={errors.expiresInDays}
        >
          {QUOTE_EXPIRY_DAYS.map((d) => (
            <option key={d} value={d}>
              {d === 1 ? "1 day" : `${d} days`}
            </option>
          ))}
        </SelectField>
        <p className="text-sm text-slate-600">
          Sending it is your offer: once the client accepts it, it becomes the booking's signed
          agreement. Every version is kept.
        </p>
        <Button type="submit" disabled={busy}>
          {title}
        </Button>
      </Form>
    </details>
  );
}

function countTypedLines(typed: Record<string, string> | undefined) {
  if (!typed) return 0;
  let last = 0;
  for (let i = 0; i < QUOTE_LINES_MAX; i++) {
    if (typed[`lineLabel${i}`] || typed[`lineAmount${i}`]) last = i + 1;
  }
  return last;
}
