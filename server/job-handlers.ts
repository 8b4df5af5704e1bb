import { agreementJobs } from "~/features/agreements/agreement-mails.server";
import { artistJobs } from "~/features/artists/search-term-shares.server";
import { bookingJobs } from "~/features/bookings/booking-jobs.server";
import { confirmPaidBooking } from "~/features/bookings/bookings.server";
import { calendarJobs } from "~/features/calendars/imports.server";
import { credentialJobs } from "~/features/credentials/issuance.server";
import { lineupMailJobs } from "~/features/music-sessions/lineup-mails.server";
import { faultPointsOf } from "~/features/payments/faults.server";
import { paymentJobs } from "~/features/payments/payment-jobs.server";
import type { AppContext } from "~/lib/context";
import type { QueueHandler } from "~/lib/jobs.server";
import { devPspJobs } from "./dev-psp/webhooks";

/** What a job handler may use: the app's context without the request's parts. */
export type JobContext = Pick<AppContext, "db" | "env" | "logger" | "mailer" | "clock">;

/**
 * Every feature's background work (docs/decisions/043-background-jobs.md), one list for the runner
 * (server/boot.ts) and for a local app's `/dev/jobs/run`: credentials signed when a level changes,
 * imported calendars read every 15 minutes, past bookings settled every 10 and their clients asked
 * to rate them, lineups asked to confirm, agreements mailed, the words search's term shares
 * counted every hour. Each feature takes from `ctx` what it needs; `ctx.clock` is the app's clock
 * (decision 054).
 */
export function jobHandlers(ctx: JobContext): QueueHandler[] {
  return [
    ...credentialJobs(ctx.env),
    ...calendarJobs(ctx),
    ...bookingJobs(ctx),
    ...lineupMailJobs(ctx),
    ...agreementJobs(ctx),
    // How common the words search's terms are, every hour (decision 070).
    ...artistJobs(ctx),
    // Money through the platform (decision 055); the bookings feature confirms a paid booking.
    // A local app may arm the crash tests' fault points (GIGLEDGER_FAULTS, design §8.5).
    ...paymentJobs(ctx, { confirmPaidBooking }, faultPointsOf(ctx.env)),
    // The embedded payment provider's webhooks (decision 053), only where it is mounted.
    ...(ctx.env.isPublic ? [] : devPspJobs(ctx)),
  ];
}
