import { z } from "zod";
import { FEED_KINDS } from "./calendars.constants";

const ADDRESS_MESSAGE = "Please enter the calendar's address, starting with https://";

/**
 * A calendar address as people paste it: https or http, or webcal (Apple's name for the same
 * thing over https). Anything else is refused here; where it leads is checked when it is read.
 */
const CalendarAddress = z
  .string({ message: ADDRESS_MESSAGE })
  .trim()
  .min(1, ADDRESS_MESSAGE)
  .max(2000, "Calendar addresses can be at most 2000 characters.")
  .transform((v) => v.replace(/^webcals?:\/\//i, "https://"))
  .refine((v) => {
    try {
      const url = new URL(v);
      return (url.protocol === "https:" || url.protocol === "http:") && !url.username;
    } catch {
      return false;
    }
  }, ADDRESS_MESSAGE);

/** The Schedule tab's calendar forms (and My Bookings' feed link). */
export const CalendarActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("reset-feed"), kind: z.enum(FEED_KINDS) }),
  z.object({ intent: z.literal("add-calendar"), url: CalendarAddress }),
  z.object({ intent: z.literal("remove-calendar"), calendarId: z.uuid() }),
  z.object({ intent: z.literal("sync-calendar"), calendarId: z.uuid() }),
]);
