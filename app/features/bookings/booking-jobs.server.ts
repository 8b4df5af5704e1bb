import type { AppContext } from "~/lib/context";
import { todayIn } from "~/lib/dates";
import type { QueueHandler } from "~/lib/jobs.server";
import { autoCompletePastBookings } from "./bookings.server";
import { ratingMailJobs } from "./rating-mails.server";

/** The schedule's queue: every 10 minutes one instance settles the bookings whose day is past. */
export const SETTLE_BOOKINGS_QUEUE = "bookings.settle";

/**
 * The bookings' background work (app/lib/jobs.server.ts): past confirmed bookings completed,
 * past pending ones cancelled, in the job's transaction (decision 011), which also adds the
 * completed bookings' rating mails; and those mails, each sent once (decision 044).
 */
export function bookingJobs(
  ctx: Pick<AppContext, "db" | "env" | "mailer" | "clock">,
): QueueHandler[] {
  return [
    {
      queue: SETTLE_BOOKINGS_QUEUE,
      everySeconds: 600,
      leaseSeconds: 300,
      inTransaction: async (tx) => {
        const now = ctx.clock.now();
        await autoCompletePastBookings(tx, todayIn(ctx.env.timeZone, now), now);
      },
    },
    ...ratingMailJobs(ctx),
  ];
}
