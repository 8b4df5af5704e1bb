import { z } from "zod";
import { isIsoDate } from "~/lib/dates";
import { GROUP_REQUEST_MAX } from "./bookings.constants";
import { DEFAULT_EVENT_TYPE, DURATION_MAX, DURATION_MIN, EVENT_TYPES } from "./pricing";

export const BookingRequestSchema = z.object({
  artistId: z.uuid("Artist profile not found."),
  eventDate: z
    .string()
    .trim()
    .min(1, "Please choose a date")
    .refine(isIsoDate, "Please choose a valid date"),
  startTime: z
    .string()
    .trim()
    .transform((v) => (v === "" ? null : v))
    .pipe(
      z
        .string()
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Please enter a valid start time")
        .nullable(),
    )
    .optional()
    .transform((v) => v ?? null),
  durationHours: z.coerce
    .number({ message: "Duration is required" })
    .min(DURATION_MIN, "Duration must be at least 0.5 hours")
    .max(DURATION_MAX, "Duration can be at most 12 hours")
    .refine((v) => Number.isInteger(v * 2), "Duration must be in half-hour steps"),
  venue: z
    .string()
    .trim()
    .min(1, "Venue is required")
    .max(200, "Venue must be at most 200 characters"),
  eventType: z
    .enum(EVENT_TYPES, { message: "Please choose an event type" })
    .default(DEFAULT_EVENT_TYPE),
  message: z
    .string()
    .trim()
    .max(2000, "Details must be at most 2000 characters")
    .optional()
    .transform((v) => (v ? v : null)),
  // The hash of the artist's published terms the form showed (a request is an offer on them).
  termsSha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "The artist's terms could not be read. Please reload the page.")
    .optional(),
});
export type BookingRequest = z.infer<typeof BookingRequestSchema>;

/** A form key posted once, many times or never, as a list. */
const listOfValues = (v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * One request to several artists: the same event, `artistId` and `termsSha256` posted once per
 * artist, in the same order (the hash of the terms the form showed for each).
 */
export const GroupRequestSchema = BookingRequestSchema.omit({
  artistId: true,
  termsSha256: true,
}).extend({
  artistIds: z.preprocess(
    listOfValues,
    z
      .array(z.uuid("Artist profile not found."), { message: "Choose the artists to ask." })
      .min(2, "Choose at least two artists, or send a request from one artist's page.")
      .max(GROUP_REQUEST_MAX, `One request can go to at most ${GROUP_REQUEST_MAX} artists.`)
      .refine((ids) => new Set(ids).size === ids.length, "Each artist can be asked only once."),
  ),
  // Checked as one list, so a bad hash is said once, beside the form (not per position).
  termsSha256: z.preprocess(
    listOfValues,
    z
      .array(z.string())
      .max(GROUP_REQUEST_MAX, `One request can go to at most ${GROUP_REQUEST_MAX} artists.`)
      .refine(
        (hashes) => hashes.every((h) => /^[0-9a-f]{64}$/.test(h)),
        "The artists' terms could not be read. Please reload the page.",
      ),
  ),
});
export type GroupRequest = z.infer<typeof GroupRequestSchema>;

/** Where an acceptance came from, kept with it as evidence (docs/decisions/047). */
export type RequestOrigin = { ip?: string; userAgent?: string };

/** A checkbox: "on" (or "true") ticks it; absent or anything else leaves it off. */
const VenueChoice = z
  .unknown()
  .optional()
  .transform((v) => v === "on" || v === "true");

/** Stars and an optional review: the booking page's rating and the one-click rating page's. */
export const RatingSchema = z.object({
  rating: z.coerce
    .number({ message: "Please select a rating" })
    .int("Please select a rating")
    .min(1, "Please select a rating")
    .max(5, "Please select a rating"),
  review: z
    .string()
    .trim()
    .max(2000, "Reviews can be at most 2000 characters")
    .optional()
    .transform((v) => (v ? v : null)),
  // "Show the venue on {artist}'s public history": an unticked checkbox sends nothing (hidden).
  showVenue: VenueChoice,
});
export type Rating = z.infer<typeof RatingSchema>;

/** The client's later choice, from the booking page, of whether the venue is shown publicly. */
const VenueVisibilitySchema = z.object({ showVenue: VenueChoice });

const MessageSchema = z.object({
  message: z
    .string()
    .trim()
    .min(1, "Please write a message")
    .max(2000, "Messages can be at most 2000 characters"),
});

/** The artist's optional reason for declining, which the client sees. */
export const DECLINE_REASON_MAX = 500;
const DeclineSchema = z.object({
  reason: z
    .string()
    .trim()
    .max(DECLINE_REASON_MAX, `The reason can be at most ${DECLINE_REASON_MAX} characters`)
    .optional()
    .transform((v) => (v ? v : null)),
});

/** The artist's reason for cancelling a confirmed booking (required of them), which the client sees. */
export const CANCEL_REASON_MAX = 500;
const CancelSchema = z.object({
  reason: z
    .string()
    .trim()
    .max(CANCEL_REASON_MAX, `The reason can be at most ${CANCEL_REASON_MAX} characters`)
    .optional()
    .transform((v) => (v ? v : null)),
});

/** Where to go after the action; checked by `safeRedirectPath`, which falls back when unsafe. */
const ReturnTo = z.string().optional().catch(undefined);

/** The booking page's actions, told apart by `intent`. */
export const BookingActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("accept"),
    returnTo: ReturnTo,
    // The request's hash as the page showed it (absent from older pages and tests).
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional()
      .catch(undefined),
  }),
  DeclineSchema.extend({ intent: z.literal("decline"), returnTo: ReturnTo }),
  // The client's cancel has no reason; the artist's requires one (checked by cancelBooking).
  CancelSchema.extend({ intent: z.literal("cancel"), returnTo: ReturnTo }),
  RatingSchema.extend({ intent: z.literal("rate"), returnTo: ReturnTo }),
  VenueVisibilitySchema.extend({ intent: z.literal("venue"), returnTo: ReturnTo }),
  // Paid through GigLedger, once the balance is overdue: the artist cancels or gives more time.
  z.object({ intent: z.literal("cancelNonPayment"), returnTo: ReturnTo }),
  z.object({
    intent: z.literal("moreTime"),
    returnTo: ReturnTo,
    dueDate: z.iso.date({ message: "Choose the new date the balance is due." }),
  }),
  MessageSchema.extend({
    intent: z.literal("message"),
    // Sent by the page once JavaScript runs: answer with the message instead of a redirect.
    stay: z.literal("1").optional().catch(undefined),
  }),
]);

const BOOKING_INTENTS = [
  "accept",
  "decline",
  "cancel",
  "rate",
  "venue",
  "message",
  "quote",
  "acceptQuote",
  "askChanges",
  "declineQuote",
  "cancelNonPayment",
  "moreTime",
] as const;
export type BookingIntent = (typeof BOOKING_INTENTS)[number];
export const isBookingIntent = (value: unknown): value is BookingIntent =>
  typeof value === "string" && (BOOKING_INTENTS as readonly string[]).includes(value);

/**
 * The booking form filled in from its address (`/bookings?artist=…&date=…&hours=…&venue=…&
 * eventType=…&startTime=…&message=…`), as a substitute's "Request" link opens it: each value the request
 * itself would accept is used, anything else is left for the client to fill.
 */
export function bookingPrefillOf(params: URLSearchParams): Record<string, string> {
  const candidate = {
    artistId: "00000000-0000-4000-8000-000000000000",
    eventDate: params.get("date") ?? "",
    startTime: params.get("startTime") ?? "",
    durationHours: params.get("hours") ?? "",
    venue: params.get("venue") ?? "",
    eventType: params.get("eventType") ?? "",
    message: params.get("message") ?? "",
  };
  const prefill: Record<string, string> = {};
  const fields = BookingRequestSchema.shape;
  for (const key of [
    "eventDate",
    "startTime",
    "durationHours",
    "venue",
    "eventType",
    "message",
  ] as const) {
    const value = candidate[key];
    if (value && !value.includes("\u0000") && fields[key].safeParse(value).success) {
      prefill[key] = value;
    }
  }
  return prefill;
}

/**
 * The booking form's address with what a visitor chose in it (`bookingPrefillOf` reads it back):
 * where a signed-out visitor's request waits while they sign in or sign up. The message stays
 * behind: the return address has to fit in 2000 characters (`safeRedirectPath`).
 */
export function bookingFormHref(
  artists: string[],
  request: Omit<BookingRequest, "artistId" | "termsSha256">,
): string {
  const params = new URLSearchParams(artists.map((artist) => ["artist", artist]));
  for (const [key, value] of Object.entries({
    date: request.eventDate,
    hours: String(request.durationHours),
    venue: request.venue,
    eventType: request.eventType,
  }))
    params.set(key, value);
  if (request.startTime) params.set("startTime", request.startTime);
  return `/bookings?${params}`;
}
