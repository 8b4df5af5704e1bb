import { z } from "zod";
import { SESSION_TYPES } from "~db/enums";
import { chipsFromForm } from "./chips";

export { SESSION_FILTERS, SESSION_TYPE_LABELS, type SessionType } from "./session-types";

export const MAX_DURATION_MINUTES = 100_000;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Please use at most ${max} characters`)
    .transform((v) => v || null);

/** "2026-11-21T19:30" as typed in a datetime-local field. */
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

export const SessionFormSchema = z.object({
  sessionType: z.enum(SESSION_TYPES, "Session type is required"),
  title: z
    .string()
    .trim()
    .min(1, "Title is required")
    .max(120, "Please use at most 120 characters"),
  description: optionalText(2000),
  venue: optionalText(120),
  location: optionalText(120),
  startTime: z.string().regex(LOCAL_DATE_TIME, "Please enter a valid date and time"),
  /** Minutes the browser's clock is behind UTC (Date#getTimezoneOffset); empty without JavaScript. */
  timezoneOffset: z
    .string()
    .regex(/^-?\d{1,4}$/)
    .transform(Number)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  durationMinutes: z.coerce
    .number("Duration must be a number of minutes")
    .int("Duration must be a whole number of minutes")
    .min(1, "Duration must be at least 1 minute")
    .max(MAX_DURATION_MINUTES, `Duration can be at most ${MAX_DURATION_MINUTES} minutes`),
  instruments: z.array(z.string()).transform(chipsFromForm),
  genres: z.array(z.string()).transform(chipsFromForm),
  tags: z.array(z.string()).transform(chipsFromForm),
});
export type SessionForm = z.infer<typeof SessionFormSchema>;

/** The form's fields as the schema expects them (chip fields may repeat). */
export function sessionFormInput(form: FormData) {
  const text = (name: string) => String(form.get(name) ?? "");
  return {
    sessionType: text("sessionType"),
    title: text("title"),
    description: text("description"),
    venue: text("venue"),
    location: text("location"),
    startTime: text("startTime"),
    timezoneOffset: text("timezoneOffset"),
    durationMinutes: text("durationMinutes"),
    instruments: form.getAll("instruments").map(String),
    genres: form.getAll("genres").map(String),
    tags: form.getAll("tags").map(String),
  };
}

export const SessionListQuerySchema = z.object({
  q: z.string().trim().max(100).catch(""),
  type: z.enum(SESSION_TYPES).or(z.literal("")).catch(""),
});
export type SessionListQuery = z.infer<typeof SessionListQuerySchema>;

/** The list's search and filter live in the page URL as `sq` and `stype` (works without JS). */
export function sessionListQueryOf(url: URL): SessionListQuery {
  return SessionListQuerySchema.parse({
    q: url.searchParams.get("sq") ?? "",
    type: url.searchParams.get("stype") ?? "",
  });
}
