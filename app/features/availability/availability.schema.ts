import { z } from "zod";
import { isIsoDate } from "~/lib/dates";
import { AVAILABILITY_STATUSES } from "./availability";

/** A real calendar date (not 2026-13-01, not 9999-99-99): checked before any query sees it. */
const CalendarDate = z
  .string({ message: "Please choose a valid date" })
  .refine(isIsoDate, "Please choose a valid date");

/** The artist's calendar form: set a day's status, or clear it. */
export const AvailabilitySchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("set"),
    date: CalendarDate,
    status: z.enum(AVAILABILITY_STATUSES, { message: "Please pick a status" }),
    notes: z
      .string()
      .trim()
      .max(300)
      .optional()
      .transform((v) => (v ? v : null)),
  }),
  z.object({
    intent: z.literal("clear"),
    date: CalendarDate,
  }),
]);
