import { z } from "zod";
import {
  BALANCE_DUE_DAYS_CHOICES,
  DEPOSIT_BPS_CHOICES,
  POLICY_CODES,
} from "~/features/terms/policies";
import { isIsoDate } from "~/lib/dates";
import { EVENT_TYPES } from "~db/enums";
import { BUDGET_HOURS_DEFAULT, DISCOVERY_LAST_PAGE, DISCOVERY_SORTS } from "./artists.constants";
import { isTimeZone } from "./time-zones";

const required = (label: string, max = 200) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** A web address the form may leave empty, or a post may leave out. */
const optionalUrl = (label: string) =>
  z
    .string()
    .trim()
    .max(300, `${label} must be at most 300 characters`)
    .default("")
    .transform((v) => (v === "" ? undefined : v))
    .pipe(
      z
        .url({
          protocol: /^https?$/,
          message: `${label} must be a web address starting with https://`,
        })
        .optional(),
    );

export const DEPOSIT_CHOICE_MESSAGE = "Choose a deposit between 10% and 100%, or no deposit.";
export const BALANCE_DUE_CHOICE_MESSAGE = "Choose when the balance is due.";
export const POLICY_CHOICE_MESSAGE = "Choose a cancellation policy.";

/**
 * One of the listed whole numbers, posted as its digits. Left out of a post (an older client), it
 * is undefined: a new profile takes the default and an edit keeps the stored value.
 */
const numberChoice = (choices: readonly number[], message: string) =>
  z
    .string({ error: message })
    .regex(/^\d{1,5}$/, message)
    .transform(Number)
    .refine((v) => choices.includes(v), message)
    .optional();

/** An optional amount in rupees with paise (at most two decimals): empty is null. */
const optionalRupees = (label: string, min: number) =>
  z
    .string()
    .trim()
    .default("")
    .transform((v) => (v === "" ? null : Number(v)))
    .pipe(
      z
        .number({ message: `${label} must be a number` })
        .min(min, `${label} must be ${min === 0 ? "0" : `₹${min}`} or more`)
        .max(10_000_000, `${label} is too large`)
        .refine(
          (v) => Math.round(v * 100) === v * 100 || Math.abs(Math.round(v * 100) - v * 100) < 1e-6,
          "Use at most two decimals",
        )
        .nullable(),
    );

export const ArtistProfileSchema = z.object({
  artistName: required("Artist name", 100),
  genre: required("Genre", 60),
  bio: required("Bio", 2000),
  location: required("Location", 100),
  experience: required("Experience", 60),
  instruments: required("Instruments", 300),
  hourlyRate: optionalRupees("Hourly rate", 0),
  /**
   * For an artist who quotes each booking: the least a booking costs (decision 064). Empty or
   * left out, none.
   */
  startingPrice: optionalRupees("Starting price", 1).optional(),
  instagram: optionalUrl("Instagram"),
  youtube: optionalUrl("YouTube"),
  facebook: optionalUrl("Facebook"),
  /** IANA zone. Left out of a post: a new profile gets the app's zone, an edit keeps the stored one. */
  timeZone: z
    .string()
    .trim()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || isTimeZone(v), "Please choose a time zone from the list")
    .optional(),
  /**
   * The kinds of event played, from the booking form's list. The form always posts an empty
   * `occasions` beside its checkboxes, so none ticked is [] ; left out of a post (an older client),
   * a new profile has none and an edit keeps the stored ones.
   */
  occasions: z
    .preprocess(
      (v) => (v === undefined ? undefined : (Array.isArray(v) ? v : [v]).filter((o) => o !== "")),
      z.array(z.enum(EVENT_TYPES, { error: "Please choose occasions from the list" })),
    )
    .transform((list) => [...new Set(list)])
    .optional(),
  /** The booking terms every request is an offer on (deposit in basis points, 0 = none). */
  depositBps: numberChoice(DEPOSIT_BPS_CHOICES, DEPOSIT_CHOICE_MESSAGE),
  /** Days before the event the balance falls due; 0 = on the day. */
  balanceDueDays: numberChoice(BALANCE_DUE_DAYS_CHOICES, BALANCE_DUE_CHOICE_MESSAGE),
  cancellationPolicy: z.enum(POLICY_CODES, { error: POLICY_CHOICE_MESSAGE }).optional(),
});
export type ArtistProfileInput = z.infer<typeof ArtistProfileSchema>;

export const ArtistProfileUpdateSchema = ArtistProfileSchema.extend({
  isAvailable: z
    .enum(["on", "true", "false", ""])
    .optional()
    .transform((v) => v === "on" || v === "true"),
});

const DiscoverySchema = z.object({
  q: z.string().trim().max(100).catch(""),
  genre: z.string().trim().max(60).catch(""),
  location: z.string().trim().max(100).catch(""),
  /** "Available on": a real calendar date, or "" (anything else is ignored). */
  date: z
    .string()
    .trim()
    .refine((v) => v === "" || isIsoDate(v))
    .catch(""),
  /** 1 to DISCOVERY_LAST_PAGE: a page beyond it is the last one (decision 081); anything else 1. */
  page: z.coerce
    .number()
    .int()
    .min(1)
    .catch(1)
    .transform((page) => Math.min(page, DISCOVERY_LAST_PAGE)),
  /** At least this many Client-verified gigs (0: any); anything else in the address is 0. */
  clientVerified: z.coerce.number().int().min(0).max(100_000).catch(0),
  /** Plays this kind of event (the booking form's event types), or "" for any. */
  occasion: z.enum(EVENT_TYPES).or(z.literal("")).catch(""),
  /** "Up to ₹…" in whole rupees for `hours` (0: any price). */
  budget: z.coerce.number().int().min(0).max(100_000_000).catch(0),
  /** The hours the budget is for: half-hour steps from 0.5 to 12. */
  hours: z.coerce
    .number()
    .min(0.5)
    .max(12)
    .refine((v) => Number.isInteger(v * 2))
    .catch(BUDGET_HOURS_DEFAULT),
  /** "" is the best match (with words) or the best rated; "price" is the lowest hourly rate first. */
  sort: z.enum(DISCOVERY_SORTS).catch(""),
});
export type DiscoveryQuery = z.infer<typeof DiscoverySchema>;

export function parseDiscoveryQuery(params: URLSearchParams): DiscoveryQuery {
  return DiscoverySchema.parse({
    q: params.get("q") ?? "",
    genre: params.get("genre") ?? "",
    location: params.get("location") ?? "",
    date: params.get("date") ?? "",
    page: params.get("page") ?? "1",
    clientVerified: params.get("clientVerified") ?? "0",
    occasion: params.get("occasion") ?? "",
    budget: params.get("budget") ?? "0",
    hours: params.get("hours") ?? String(BUDGET_HOURS_DEFAULT),
    sort: params.get("sort") ?? "",
  });
}

/** A field of a draft: any text, cut at its form's limit (a draft is kept as typed, never refused). */
const draftText = (max: number) =>
  z
    .string()
    .catch("")
    .transform((v) => v.slice(0, max));

/** What profile set-up keeps of a form not yet saved (decision 040). */
export const ProfileDraftSchema = z.object({
  artistName: draftText(100),
  genre: draftText(60),
  bio: draftText(2000),
  location: draftText(100),
  experience: draftText(60),
  instruments: draftText(300),
  hourlyRate: draftText(20),
  startingPrice: draftText(20),
  instagram: draftText(300),
  youtube: draftText(300),
  facebook: draftText(300),
  timeZone: draftText(64),
  /** The ticked occasions, one per line (as the form's refill values keep them). */
  occasions: draftText(200),
});
export type ProfileDraft = z.infer<typeof ProfileDraftSchema>;
