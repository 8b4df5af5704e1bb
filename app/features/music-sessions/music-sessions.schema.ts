import { z } from "zod";
import { isIsoDate } from "~/lib/dates";
import { SESSION_TYPES } from "~db/enums";
import { chipsFromForm } from "./chips";

export { SESSION_FILTERS, SESSION_TYPE_LABELS, type SessionType } from "./session-types";

export const MAX_DURATION_MINUTES = 100_000;

/** A missing field reads as empty, the way a browser sends an empty input. */
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Please use at most ${max} characters`)
    .optional()
    .transform((v) => v || null);

/** A chip field: one value, several (one per chip) or none. */
const chips = z
  .preprocess(
    (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
    z.array(z.string("Please use text only")),
  )
  .transform(chipsFromForm);

/** "2026-11-21T19:30" as typed in a datetime-local field. */
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const FIRST_YEAR = 1900;
const LAST_YEAR = 9998;

/**
 * A real date and time: 2026-13-01 or 25:00 are refused here rather than by the database, and
 * the year stays where every time zone can still convert it.
 */
function isLocalDateTime(value: string): boolean {
  const m = LOCAL_DATE_TIME.exec(value);
  if (!m) return false;
  const [, date = "", hour, minute, second = "0"] = m;
  const year = Number(date.slice(0, 4));
  return (
    isIsoDate(date) &&
    year >= FIRST_YEAR &&
    year <= LAST_YEAR &&
    Number(hour) <= 23 &&
    Number(minute) <= 59 &&
    Number(second) <= 59
  );
}

export const SessionFormSchema = z.object({
  sessionType: z.enum(SESSION_TYPES, "Session type is required"),
  title: z
    .string("Title is required")
    .trim()
    .min(1, "Title is required")
    .max(120, "Please use at most 120 characters"),
  description: optionalText(2000),
  venue: optionalText(120),
  location: optionalText(120),
  /** A wall-clock time in the artist's time zone, whatever the browser's zone. */
  startTime: z
    .string("Please enter a valid date and time")
    .refine(isLocalDateTime, "Please enter a valid date and time"),
  durationMinutes: z.coerce
    .number("Duration must be a number of minutes")
    .int("Duration must be a whole number of minutes")
    .min(1, "Duration must be at least 1 minute")
    .max(MAX_DURATION_MINUTES, `Duration can be at most ${MAX_DURATION_MINUTES} minutes`),
  instruments: chips,
  genres: chips,
  tags: chips,
});
export type SessionForm = z.infer<typeof SessionFormSchema>;

/**
 * Editing a session sends the whole form again. Once anyone has verified the session, its type,
 * date and time, duration and venue are sent unchanged (the form shows them read-only) and the
 * server refuses any change to them.
 */
export const EditSessionSchema = SessionFormSchema;

/** Deleting a session: where to go afterwards (checked with safeRedirectPath). */
export const DeleteSessionSchema = z.object({ returnTo: z.string().optional() });

/** A joined collaborator's answer after the start: "Confirm it happened", or a decline. */
export const LineupAnswerSchema = z.object({
  answer: z.enum(["confirmed", "declined"], { message: "Please choose an answer" }),
});

const SessionListQuerySchema = z.object({
  // A search with a NUL byte is dropped: the database cannot compare it.
  q: z
    .string()
    .trim()
    .max(100)
    .refine((v) => !v.includes("\u0000"))
    .catch(""),
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
