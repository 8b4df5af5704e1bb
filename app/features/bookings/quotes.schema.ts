import { z } from "zod";
import { isPolicyCode } from "~/features/terms/policies";
import { isIsoDate } from "~/lib/dates";
import { parseRupees } from "~/lib/money";
import { DURATION_MAX, DURATION_MIN } from "./pricing";

// The quote composer's and the client's answers' forms (docs/product.md, "Quotes and agreements").
// Money arrives as rupees typed by a person and leaves as integer paise.

export const QUOTE_LINES_MAX = 10;
export const QUOTE_LABEL_MAX = 80;
export const QUOTE_INCLUDED_MAX = 12;
export const QUOTE_INCLUDED_ITEM_MAX = 120;
export const QUOTE_NOTES_MAX = 1000;
export const QUOTE_EXPIRY_DAYS = [1, 2, 3, 5, 7, 10, 14] as const;
export const QUOTE_TOTAL_MIN_PAISE = 10_000;
export const QUOTE_TOTAL_MAX_PAISE = 2_500_000_000;
export const CHANGE_MESSAGE_MAX = 2000;

const LINE_ERROR = "Each line needs a label and an amount.";

/** The line rows of the composer (`lineLabel0`, `lineAmount0`, …): empty rows are left out. */
function linesOf(form: FormData) {
  const lines: { label: string; amountPaise: number }[] = [];
  for (let i = 0; i < QUOTE_LINES_MAX; i++) {
    const label = String(form.get(`lineLabel${i}`) ?? "").trim();
    const amountText = String(form.get(`lineAmount${i}`) ?? "").trim();
    if (!label && !amountText) continue;
    const amountPaise = parseRupees(amountText);
    if (!label || label.length > QUOTE_LABEL_MAX || amountPaise === null || amountPaise <= 0)
      return {
        error:
          label.length > QUOTE_LABEL_MAX
            ? `Keep each label to ${QUOTE_LABEL_MAX} characters.`
            : LINE_ERROR,
      };
    lines.push({ label, amountPaise });
  }
  if (lines.length === 0) return { error: LINE_ERROR };
  return { lines };
}

const DepositPercent = z.coerce
  .number({ message: "Choose a deposit between 10% and 100%." })
  .int("Choose a deposit between 10% and 100%.")
  .refine(
    (v) => v === 0 || (v >= 10 && v <= 100 && v % 5 === 0),
    "Choose a deposit between 10% and 100%.",
  );

const BalanceDueDays = z.coerce
  .number({ message: "Choose when the balance is due." })
  .refine((v) => [0, 3, 7, 14, 28].includes(v), "Choose when the balance is due.");

const Policy = z.string().refine(isPolicyCode, "Choose a cancellation policy.");

const QuoteFieldsSchema = z.object({
  eventDate: z.string().trim().refine(isIsoDate, "Please choose a valid date"),
  startTime: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : null))
    .pipe(
      z
        .string()
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Please enter a valid start time")
        .nullable(),
    ),
  durationHours: z.coerce
    .number({ message: "Duration is required" })
    .min(DURATION_MIN, "Duration must be at least 0.5 hours")
    .max(DURATION_MAX, "Duration can be at most 12 hours")
    .refine((v) => Number.isInteger(v * 2), "Duration must be in half-hour steps"),
  depositPercent: DepositPercent,
  balanceDueDays: BalanceDueDays,
  policy: Policy,
  included: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? "")
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean),
    )
    .refine(
      (items) => items.length <= QUOTE_INCLUDED_MAX,
      `List at most ${QUOTE_INCLUDED_MAX} things that are included, one a line.`,
    )
    .refine(
      (items) => items.every((item) => item.length <= QUOTE_INCLUDED_ITEM_MAX),
      `Keep each included item to ${QUOTE_INCLUDED_ITEM_MAX} characters.`,
    ),
  notes: z
    .string()
    .trim()
    .max(QUOTE_NOTES_MAX, `Notes can be at most ${QUOTE_NOTES_MAX} characters.`)
    .optional()
    .transform((v) => (v ? v : null)),
  expiresInDays: z.coerce
    .number({ message: "Choose when the quote expires." })
    .refine(
      (v) => (QUOTE_EXPIRY_DAYS as readonly number[]).includes(v),
      "Choose when the quote expires (1 to 14 days).",
    ),
});

export type QuoteInput = z.infer<typeof QuoteFieldsSchema> & {
  lines: { label: string; amountPaise: number }[];
};

/** The composer's form, or the field errors to show beside it. */
export function parseQuoteForm(
  form: FormData,
): { ok: true; data: QuoteInput } | { ok: false; fieldErrors: Record<string, string> } {
  for (const [key, value] of form) {
    if (typeof value === "string" && value.includes("\u0000"))
      return {
        ok: false,
        fieldErrors: {
          [key.startsWith("line") ? "lines" : key]:
            "This field contains a character we can't accept. Please retype it.",
        },
      };
  }
  // A field sent twice, or a line past the composer's last row, is refused, not half read.
  const keys = [...form.keys()];
  const repeated = keys.find((key, i) => keys.indexOf(key) !== i);
  if (repeated)
    return {
      ok: false,
      fieldErrors: { [repeated.startsWith("line") ? "lines" : repeated]: "Send each field once." },
    };
  const beyond = keys.some((key) => {
    const row = /^line(?:Label|Amount)(\d+)$/.exec(key)?.[1];
    return row !== undefined && Number(row) >= QUOTE_LINES_MAX && String(form.get(key)).trim();
  });
  if (beyond)
    return { ok: false, fieldErrors: { lines: `A quote has at most ${QUOTE_LINES_MAX} lines.` } };
  const values: Record<string, string> = {};
  for (const key of Object.keys(QuoteFieldsSchema.shape)) {
    const value = form.get(key);
    if (typeof value === "string") values[key] = value;
  }
  const fields = QuoteFieldsSchema.safeParse(values);
  const lines = linesOf(form);
  const fieldErrors: Record<string, string> = {};
  if (!fields.success) {
    for (const issue of fields.error.issues) {
      const key = String(issue.path[0] ?? "form");
      fieldErrors[key] ??= issue.message;
    }
  }
  if ("error" in lines && lines.error) fieldErrors.lines = lines.error;
  if (!fields.success || !("lines" in lines) || !lines.lines) return { ok: false, fieldErrors };
  const total = lines.lines.reduce((sum, line) => sum + line.amountPaise, 0);
  if (total < QUOTE_TOTAL_MIN_PAISE || total > QUOTE_TOTAL_MAX_PAISE) {
    return {
      ok: false,
      fieldErrors: { lines: "The total must be between ₹100.00 and ₹25,00,00,000.00." },
    };
  }
  return { ok: true, data: { ...fields.data, lines: lines.lines } };
}

/** The client's "Ask for Changes": a message and, optionally, what they would like instead. */
export const ChangeRequestSchema = z.object({
  message: z
    .string()
    .trim()
    .min(1, "Tell the artist what you would like changed.")
    .max(CHANGE_MESSAGE_MAX, `Keep the message to ${CHANGE_MESSAGE_MAX} characters or fewer.`),
  wishedTotal: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v?.trim()) return null;
      const paise = parseRupees(v);
      if (paise === null || paise <= 0 || paise > QUOTE_TOTAL_MAX_PAISE) {
        ctx.addIssue({ code: "custom", message: "Enter the total you have in mind in rupees." });
        return z.NEVER;
      }
      return paise;
    }),
  wishedDepositPercent: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return null;
      // Whole percents only: Number() would also read "0x14", "2e1" and " " as numbers.
      const percent = /^\d{1,3}$/.test(v) ? Number(v) : Number.NaN;
      if (!(percent === 0 || (percent >= 10 && percent <= 100 && percent % 5 === 0))) {
        ctx.addIssue({ code: "custom", message: "Choose a deposit between 10% and 100%." });
        return z.NEVER;
      }
      return percent;
    }),
  wishedPolicy: z
    .string()
    .optional()
    .transform((v) => (v ? v : null))
    .pipe(Policy.nullable()),
});
export type ChangeRequest = z.infer<typeof ChangeRequestSchema>;

/** Accepting the open quote: the hash the page showed. */
export const AcceptQuoteSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "The quote changed while you were reading it."),
});
