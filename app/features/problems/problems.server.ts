// Problem reports and their decisions (issue 42, docs/decisions/058): either party of a booking
// paid through GigLedger reports a problem from its confirmation until the payout's release time
// (the event's end + 48 hours); the payout is held while a report is undecided; the other party
// answers once; an operator decides with a written reason. Decisions move money through the same
// refund commands as a cancellation, so they post to the ledger like every other movement.
import { sql } from "drizzle-orm";
import { z } from "zod";
import { endAgreement } from "~/features/agreements/agreements.server";
import { paidPaiseOf, refundOnCancellation } from "~/features/payments/booking-payments.server";
import { recordMoneyEvent } from "~/features/payments/money-events.server";
import type { SignedInActor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { todayIn } from "~/lib/dates";
import { parseRupees } from "~/lib/money";
import { refuse } from "~/lib/problem";
import { type Queryable, queryRows } from "~db/client";
import { logOperatorAction } from "./operators.server";
import { recordProblemFiles, type StoredProblemFile } from "./problem-files.server";
import {
  CATEGORY_WORDS,
  DECISION_DUE_DAYS,
  DECISION_WORDS,
  PROBLEM_CATEGORIES,
  PROBLEM_DECISIONS,
  type ProblemCategory,
  type ProblemDecision,
  STATEMENT_MAX,
} from "./problem-text";

type Ctx = Pick<AppContext, "db" | "clock" | "env">;
type Party = "client" | "artist";

export type ProblemReport = {
  id: string;
  bookingId: string;
  party: Party;
  category: ProblemCategory;
  statement: string;
  reportedAt: Date;
  decisionDueAt: Date;
  answer: string | null;
  answeredAt: Date | null;
  decision: ProblemDecision | null;
  refundPaise: number | null;
  decisionReason: string | null;
  decidedAt: Date | null;
};

/** What the problem rules read of a booking. */
export type ProblemBooking = {
  id: string;
  clientUserId: string | null;
  artistUserId: string | null;
  artistProfileId: string | null;
  status: string;
  eventDate: string;
  confirmedAt: Date | null;
  releaseAt: Date | null;
  payoutReleasedAt: Date | null;
  paidThrough: string | null;
};

export async function problemBookingOf(
  db: Queryable,
  bookingId: string,
): Promise<ProblemBooking | null> {
  if (!z.string().uuid().safeParse(bookingId).success) return null;
  const [row] = await queryRows<ProblemBooking>(
    db,
    sql`SELECT b.id, b.client_user_id AS "clientUserId", ap.user_id AS "artistUserId",
          b.artist_profile_id AS "artistProfileId", b.status, b.event_date::text AS "eventDate",
          b.confirmed_at AS "confirmedAt", b.release_at AS "releaseAt",
          b.payout_released_at AS "payoutReleasedAt",
          (SELECT a.paid_through FROM agreements a WHERE a.booking_id = b.id
            AND a.status = 'in_force') AS "paidThrough"
        FROM bookings b LEFT JOIN artist_profiles ap ON ap.id = b.artist_profile_id
        WHERE b.id = ${bookingId}`,
  );
  if (!row) return null;
  const date = (v: Date | string | null) => (v === null ? null : new Date(v));
  return {
    ...row,
    confirmedAt: date(row.confirmedAt),
    releaseAt: date(row.releaseAt),
    payoutReleasedAt: date(row.payoutReleasedAt),
  };
}

/** The actor's side of the booking, or null for anyone else. */
export function partyOf(actor: SignedInActor, booking: ProblemBooking): Party | null {
  if (booking.clientUserId === actor.id) return "client";
  if (booking.artistUserId === actor.id) return "artist";
  return null;
}

/**
 * Whether a problem may be reported now, and if not, why (in the words the page shows): a booking
 * paid through GigLedger, confirmed, from its confirmation until its release time, payout not
 * released.
 */
export function reportWindow(
  booking: ProblemBooking,
  now: Date,
): { open: true } | { open: false; why: string } {
  if (booking.paidThrough !== "gigledger")
    return {
      open: false,
      why: "Problems are reported on bookings paid through GigLedger. For this booking, write to the other party in its messages.",
    };
  if (!["confirmed", "completed"].includes(booking.status) || !booking.confirmedAt)
    return { open: false, why: "A problem can be reported once the booking is confirmed." };
  if (booking.payoutReleasedAt || !booking.releaseAt || now > booking.releaseAt)
    return {
      open: false,
      why: "Problems can be reported until 48 hours after the event ends; that time has passed.",
    };
  return { open: true };
}

const rowToReport = (r: ProblemReport & Record<string, unknown>): ProblemReport => ({
  id: r.id,
  bookingId: r.bookingId,
  party: r.party,
  category: r.category,
  statement: r.statement,
  reportedAt: new Date(r.reportedAt),
  decisionDueAt: new Date(r.decisionDueAt),
  answer: r.answer,
  answeredAt: r.answeredAt ? new Date(r.answeredAt) : null,
  decision: r.decision,
  refundPaise: r.refundPaise === null ? null : Number(r.refundPaise),
  decisionReason: r.decisionReason,
  decidedAt: r.decidedAt ? new Date(r.decidedAt) : null,
});

const REPORT_COLUMNS = sql`id, booking_id AS "bookingId", party, category, statement,
  reported_at AS "reportedAt", decision_due_at AS "decisionDueAt", answer, answered_at AS "answeredAt",
  decision, refund_paise AS "refundPaise", decision_reason AS "decisionReason", decided_at AS "decidedAt"`;

export async function problemsOf(db: Queryable, bookingId: string): Promise<ProblemReport[]> {
  const rows = await queryRows<ProblemReport>(
    db,
    sql`SELECT ${REPORT_COLUMNS} FROM problem_reports WHERE booking_id = ${bookingId}
        ORDER BY reported_at, party`,
  );
  return rows.map(rowToReport);
}

export async function problemOf(db: Queryable, reportId: string): Promise<ProblemReport | null> {
  if (!z.string().uuid().safeParse(reportId).success) return null;
  const [row] = await queryRows<ProblemReport>(
    db,
    sql`SELECT ${REPORT_COLUMNS} FROM problem_reports WHERE id = ${reportId}`,
  );
  return row ? rowToReport(row) : null;
}

const text = (label: string) =>
  z
    .string({ error: `Write ${label}.` })
    .trim()
    .min(1, `Write ${label}.`)
    .max(STATEMENT_MAX, `At most ${STATEMENT_MAX} characters.`);

export const ReportSchema = z.object({
  category: z.enum(PROBLEM_CATEGORIES, { error: "Choose what went wrong." }),
  statement: text("what happened"),
});

export const AnswerSchema = z.object({ answer: text("your answer") });

/** Locks the booking's row, so reports, answers and decisions on one booking go one at a time. */
async function lockBookingRow(tx: Queryable, bookingId: string) {
  await tx.execute(sql`SELECT id FROM bookings WHERE id = ${bookingId} FOR UPDATE`);
}

/**
 * A party reports a problem: once per party per booking, inside the window. The payout is held
 * from now until every report on the booking is decided (the release job skips it).
 */
export async function reportProblem(
  ctx: Ctx,
  actor: SignedInActor,
  bookingId: string,
  input: z.infer<typeof ReportSchema>,
  files: StoredProblemFile[] = [],
): Promise<ProblemReport> {
  const at = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    await lockBookingRow(tx, bookingId);
    const booking = await problemBookingOf(tx, bookingId);
    const party = booking ? partyOf(actor, booking) : null;
    if (!booking || !party) refuse("not_found", "This booking does not exist.");
    const window = reportWindow(booking, at);
    if (!window.open) refuse("conflict", window.why);
    const [row] = await queryRows<ProblemReport>(
      tx,
      sql`INSERT INTO problem_reports (booking_id, party, reporter_user_id, category, statement,
            reported_at, decision_due_at)
          VALUES (${bookingId}, ${party}, ${actor.id}, ${input.category}, ${input.statement},
            ${at.toISOString()}, ${new Date(at.getTime() + DECISION_DUE_DAYS * 86_400_000).toISOString()})
          ON CONFLICT (booking_id, party) DO NOTHING
          RETURNING ${REPORT_COLUMNS}`,
    );
    if (!row) refuse("conflict", "You have already reported a problem on this booking.");
    const report = rowToReport(row);
    await recordProblemFiles(tx, report.id, "report", files, at);
    await recordMoneyEvent(tx, {
      key: `problem_reported:${report.id}`,
      bookingId,
      kind: "problem_reported",
      at,
      detail: {
        party,
        category: CATEGORY_WORDS[report.category],
        dueDate: todayIn(ctx.env.timeZone, report.decisionDueAt),
      },
    });
    return report;
  });
}

/** The other party answers a report, once. */
export async function answerProblem(
  ctx: Ctx,
  actor: SignedInActor,
  reportId: string,
  input: z.infer<typeof AnswerSchema>,
  files: StoredProblemFile[] = [],
): Promise<void> {
  const at = ctx.clock.now();
  const report = await problemOf(ctx.db, reportId);
  if (!report) refuse("not_found", "This problem report does not exist.");
  await ctx.db.transaction(async (tx) => {
    await lockBookingRow(tx, report.bookingId);
    const booking = await problemBookingOf(tx, report.bookingId);
    const party = booking ? partyOf(actor, booking) : null;
    if (!booking || !party) refuse("not_found", "This problem report does not exist.");
    if (party === report.party) refuse("forbidden", "The other party answers a problem report.");
    const answered = await queryRows<{ id: string }>(
      tx,
      sql`UPDATE problem_reports SET answer = ${input.answer}, answered_at = ${at.toISOString()},
            answered_by_user_id = ${actor.id}
          WHERE id = ${reportId} AND answer IS NULL AND decision IS NULL RETURNING id`,
    );
    if (answered.length === 0)
      refuse("conflict", "This report was already answered or decided: an answer is given once.");
    await recordProblemFiles(tx, reportId, "answer", files, at);
    await recordMoneyEvent(tx, {
      key: `problem_answered:${reportId}`,
      bookingId: report.bookingId,
      kind: "problem_answered",
      at,
      detail: { party },
    });
  });
}

export const DecisionSchema = z
  .object({
    decision: z.enum(PROBLEM_DECISIONS, { error: "Choose a decision." }),
    refundRupees: z
      .string()
      .trim()
      .optional()
      .transform((v) => (v ? v.replaceAll(",", "") : "")),
    reason: text("the reason both parties will read"),
  })
  .transform((v, ctx) => {
    if (v.decision !== "refund_partial") return { ...v, refundPaise: null };
    // At most 9 digits of rupees and 2 of paise; read as paise by the one rupee reader.
    const refundPaise = /^\d{1,9}(\.\d{1,2})?$/.test(v.refundRupees)
      ? parseRupees(v.refundRupees)
      : null;
    if (refundPaise === null) {
      ctx.addIssue({
        code: "custom",
        path: ["refundRupees"],
        message: "Write the amount to refund in rupees, for example 5000 or 5000.50.",
      });
      return z.NEVER;
    }
    return { ...v, refundPaise };
  });

/**
 * An operator decides a report (docs/decisions/058): a full refund (an artist's no-show also
 * cancels the booking as the artist's, so it counts in their cancellations), a partial refund of
 * less than what was paid (the rest released at once), or release to the artist (the payout is
 * then released at its time, if no other report holds it). Logged with who and when.
 */
export async function decideProblem(
  ctx: Ctx,
  operator: { id: string; email: string },
  reportId: string,
  input: { decision: ProblemDecision; refundPaise: number | null; reason: string },
): Promise<ProblemReport> {
  const at = ctx.clock.now();
  const found = await problemOf(ctx.db, reportId);
  if (!found) refuse("not_found", "This problem report does not exist.");
  return ctx.db.transaction(async (tx) => {
    await lockBookingRow(tx, found.bookingId);
    const report = await problemOf(tx, reportId);
    if (!report || report.decision) refuse("conflict", "This report was already decided.");
    const paid = await paidPaiseOf(tx, report.bookingId);
    let refundPaise = 0;
    if (input.decision === "refund_full") refundPaise = paid;
    if (input.decision === "refund_partial" && report.category === "artist_no_show")
      refuse(
        "invalid",
        "A no-show is refunded in full when it is confirmed, or released when it is not: a partial refund is for other problems.",
      );
    if (input.decision === "refund_partial") {
      refundPaise = input.refundPaise ?? 0;
      if (refundPaise <= 0 || refundPaise >= paid)
        refuse("invalid", "A partial refund is more than ₹0 and less than what the client paid.", {
          fieldErrors: { refundRupees: "More than ₹0 and less than what the client paid." },
        });
    }
    await tx.execute(
      sql`UPDATE problem_reports SET decision = ${input.decision}, refund_paise = ${refundPaise},
            decision_reason = ${input.reason}, decided_at = ${at.toISOString()},
            decided_by_user_id = ${operator.id}
          WHERE id = ${reportId}`,
    );
    if (refundPaise > 0) {
      if (input.decision === "refund_full" && report.category === "artist_no_show") {
        await tx.execute(
          sql`UPDATE bookings SET status = 'cancelled', cancelled_at = ${at.toISOString()},
                cancelled_by = 'artist',
                cancel_reason = 'The artist did not show up (decided by GigLedger).', updated_at = now()
              WHERE id = ${report.bookingId} AND status IN ('confirmed', 'completed')`,
        );
        await endAgreement(tx, report.bookingId, at);
      }
      await refundOnCancellation(tx, {
        bookingId: report.bookingId,
        refundPaise,
        at,
        reason: `problem:${report.id}`,
      });
    }
    await recordMoneyEvent(tx, {
      key: `problem_decided:${reportId}`,
      bookingId: report.bookingId,
      kind: "problem_decided",
      amountPaise: refundPaise > 0 ? refundPaise : null,
      at,
      detail: { outcome: DECISION_WORDS[input.decision], reason: input.reason },
    });
    await logOperatorAction(tx, operator, {
      action: `problem.${input.decision}`,
      target: `booking:${report.bookingId}`,
      detail: { reportId, refundPaise, reason: input.reason },
      at,
    });
    return {
      ...report,
      decision: input.decision,
      refundPaise,
      decisionReason: input.reason,
      decidedAt: at,
    };
  });
}

export type ProblemQueueItem = ProblemReport & { eventDate: string; artistName: string | null };

/** The desk's queue: open reports, the earliest due first; then the 20 latest decided. */
export async function problemQueue(
  db: Queryable,
): Promise<{ open: ProblemQueueItem[]; decided: ProblemQueueItem[] }> {
  const rows = await queryRows<ProblemQueueItem>(
    db,
    sql`(SELECT p.id, p.booking_id AS "bookingId", p.party, p.category, p.statement,
          p.reported_at AS "reportedAt", p.decision_due_at AS "decisionDueAt", p.answer,
          p.answered_at AS "answeredAt", p.decision, p.refund_paise AS "refundPaise",
          p.decision_reason AS "decisionReason", p.decided_at AS "decidedAt",
          b.event_date::text AS "eventDate", ap.artist_name AS "artistName"
        FROM problem_reports p JOIN bookings b ON b.id = p.booking_id
        LEFT JOIN artist_profiles ap ON ap.id = b.artist_profile_id
        WHERE p.decided_at IS NULL ORDER BY p.decision_due_at LIMIT 200)
        UNION ALL
        (SELECT p.id, p.booking_id, p.party, p.category, p.statement, p.reported_at,
          p.decision_due_at, p.answer, p.answered_at, p.decision, p.refund_paise,
          p.decision_reason, p.decided_at, b.event_date::text, ap.artist_name
        FROM problem_reports p JOIN bookings b ON b.id = p.booking_id
        LEFT JOIN artist_profiles ap ON ap.id = b.artist_profile_id
        WHERE p.decided_at IS NOT NULL ORDER BY p.decided_at DESC LIMIT 20)`,
  );
  const items = rows.map((r) => ({
    ...rowToReport(r),
    eventDate: r.eventDate,
    artistName: r.artistName,
  }));
  return { open: items.filter((i) => !i.decidedAt), decided: items.filter((i) => i.decidedAt) };
}

/** What the booking page shows of problems: each report's hold line, and whether one may report. */
export type ProblemSummary = {
  holds: {
    party: Party;
    reportedOn: string;
    dueBy: string;
    decided: boolean;
    decision: string | null;
  }[];
  canReport: boolean;
};

export async function problemSummaryOf(
  ctx: Pick<AppContext, "db" | "clock" | "env">,
  actor: SignedInActor,
  bookingId: string,
): Promise<ProblemSummary | null> {
  const booking = await problemBookingOf(ctx.db, bookingId);
  if (booking?.paidThrough !== "gigledger") return null;
  const party = partyOf(actor, booking);
  if (!party) return null;
  const reports = await problemsOf(ctx.db, bookingId);
  const day = (at: Date) => todayIn(ctx.env.timeZone, at);
  return {
    holds: reports.map((r) => ({
      party: r.party,
      reportedOn: day(r.reportedAt),
      dueBy: day(r.decisionDueAt),
      decided: r.decidedAt !== null,
      decision: r.decision ? DECISION_WORDS[r.decision] : null,
    })),
    canReport:
      reportWindow(booking, ctx.clock.now()).open && !reports.some((r) => r.party === party),
  };
}
