// What the operator's desk reads and does about money (issue 42, docs/decisions/058): today's
// money (held, due, released), provider calls and events that failed, with a retry, every day's
// reconciliation, and the accountant's monthly CSV. The routes check the operator and log each
// action; these functions only read and write the books' side.
import { sql } from "drizzle-orm";
import { z } from "zod";
import { addDays, type IsoDate, todayIn, zonedDateTimeToUtc } from "~/lib/dates";
import { enqueueJob } from "~/lib/jobs.server";
import { paiseToRupeesText } from "~/lib/money";
import { type Queryable, queryRows } from "~db/client";
import { COMMANDS_QUEUE } from "./booking-payments.server";
import { invoiceNumberText } from "./invoice-numbers.server";
import { EVENTS_QUEUE } from "./payment-events.server";
import { formatReport, reconcileProviderOf, reconciliationReport } from "./reconcile.server";

const num = (v: string | number | null | undefined) => Number(v ?? 0);

/** The day's bounds in `timeZone`, as instants. */
function dayBounds(day: IsoDate, timeZone: string) {
  return {
    from: zonedDateTimeToUtc(day, "00:00", timeZone).toISOString(),
    to: zonedDateTimeToUtc(addDays(day, 1), "00:00", timeZone).toISOString(),
  };
}

export type MoneyToday = {
  day: IsoDate;
  /** The artists' shares transferred and still held, across all bookings. */
  heldPaise: number;
  heldBookings: number;
  /** Payouts whose release time falls today and not yet released (held by a problem or due). */
  dueToday: { bookingId: string; releaseAt: Date; heldByProblem: boolean }[];
  releasedTodayPaise: number;
  releasedTodayBookings: number;
};

export async function moneyToday(db: Queryable, now: Date, timeZone: string): Promise<MoneyToday> {
  const day = todayIn(timeZone, now);
  const { from, to } = dayBounds(day, timeZone);
  const [sums] = await queryRows<Record<string, string | number | null>>(
    db,
    sql`SELECT
          (SELECT coalesce(sum(amount_paise - reversed_paise), 0) FROM provider_transfers
            WHERE released_at IS NULL) AS held,
          (SELECT count(DISTINCT booking_id) FROM provider_transfers
            WHERE released_at IS NULL AND amount_paise > reversed_paise) AS "heldBookings",
          (SELECT coalesce(sum(amount_paise - reversed_paise), 0) FROM provider_transfers
            WHERE released_at >= ${from}::timestamptz AND released_at < ${to}::timestamptz) AS released,
          (SELECT count(DISTINCT booking_id) FROM provider_transfers
            WHERE released_at >= ${from}::timestamptz AND released_at < ${to}::timestamptz)
            AS "releasedBookings"`,
  );
  const due = await queryRows<{ bookingId: string; releaseAt: Date | string; held: boolean }>(
    db,
    sql`SELECT b.id AS "bookingId", b.release_at AS "releaseAt",
          EXISTS (SELECT 1 FROM problem_reports p WHERE p.booking_id = b.id
            AND p.decision IS NULL) AS held
        FROM bookings b
        WHERE b.release_at >= ${from}::timestamptz AND b.release_at < ${to}::timestamptz
          AND b.payout_released_at IS NULL AND b.status IN ('confirmed', 'completed')
        ORDER BY b.release_at LIMIT 200`,
  );
  return {
    day,
    heldPaise: num(sums?.held),
    heldBookings: num(sums?.heldBookings),
    dueToday: due.map((d) => ({
      bookingId: d.bookingId,
      releaseAt: new Date(d.releaseAt),
      heldByProblem: d.held,
    })),
    releasedTodayPaise: num(sums?.released),
    releasedTodayBookings: num(sums?.releasedBookings),
  };
}

export type FailedCall = {
  id: string;
  bookingId: string;
  kind: string;
  status: string;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
};

/** Provider calls that need an operator (refused) or keep failing (3 attempts or more). */
export async function failedCalls(db: Queryable): Promise<FailedCall[]> {
  const rows = await queryRows<FailedCall & { createdAt: Date | string }>(
    db,
    sql`SELECT id, booking_id AS "bookingId", kind, status, attempts, last_error AS "lastError",
          created_at AS "createdAt"
        FROM provider_commands
        WHERE status = 'needs_attention' OR (status = 'pending' AND attempts >= 3)
        ORDER BY created_at LIMIT 100`,
  );
  return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }));
}

export type FailedEvent = {
  id: string;
  eventId: string;
  eventType: string;
  outcome: string | null;
  attempts: number;
  lastError: string | null;
  receivedAt: Date;
};

/**
 * Provider events not applied: still waiting after an attempt (their job failed), or applied as
 * `orphan` (no such payment request here) or `mismatch` (another amount than asked).
 */
export async function failedEvents(db: Queryable): Promise<FailedEvent[]> {
  const rows = await queryRows<FailedEvent & { receivedAt: Date | string }>(
    db,
    sql`SELECT id, event_id AS "eventId", event_type AS "eventType", outcome, attempts,
          last_error AS "lastError", received_at AS "receivedAt"
        FROM provider_events
        WHERE (processed_at IS NULL AND (attempts > 0 OR received_at < now() - interval '1 hour'))
          OR outcome IN ('orphan', 'mismatch')
        ORDER BY received_at DESC LIMIT 100`,
  );
  return rows.map((r) => ({ ...r, receivedAt: new Date(r.receivedAt) }));
}

const Id = z.string().uuid();

/**
 * Tries a failed provider call again: back to pending and the booking's commands job added. The
 * same idempotency key goes to the provider, so a call that did succeed there is not made twice.
 * Returns the booking, or null when there is no such failed call.
 */
export async function retryCall(tx: Queryable, commandId: string): Promise<string | null> {
  if (!Id.safeParse(commandId).success) return null;
  const [row] = await queryRows<{ bookingId: string }>(
    tx,
    sql`UPDATE provider_commands SET status = 'pending'
        WHERE id = ${commandId} AND status <> 'succeeded'
        RETURNING booking_id AS "bookingId"`,
  );
  if (!row) return null;
  await enqueueJob(tx, { queue: COMMANDS_QUEUE, key: row.bookingId });
  return row.bookingId;
}

/** Applies a stored provider event again (its job added anew); null when there is no such event. */
export async function retryEvent(tx: Queryable, rowId: string): Promise<string | null> {
  if (!Id.safeParse(rowId).success) return null;
  const [row] = await queryRows<{ eventId: string }>(
    tx,
    sql`UPDATE provider_events SET processed_at = NULL, outcome = NULL, last_error = NULL
        WHERE id = ${rowId} AND (processed_at IS NULL OR outcome IN ('orphan', 'mismatch'))
        RETURNING event_id AS "eventId"`,
  );
  if (!row) return null;
  await enqueueJob(tx, { queue: EVENTS_QUEUE, key: rowId });
  return row.eventId;
}

export type ReconciliationRun = {
  day: IsoDate;
  unexplainedPaise: number;
  clean: boolean;
  createdAt: Date;
};

export async function reconciliationRuns(db: Queryable, limit = 60): Promise<ReconciliationRun[]> {
  const rows = await queryRows<ReconciliationRun & { createdAt: Date | string }>(
    db,
    sql`SELECT day::text AS day, unexplained_paise AS "unexplainedPaise", clean,
          created_at AS "createdAt"
        FROM reconciliation_runs ORDER BY day DESC LIMIT ${limit}`,
  );
  return rows.map((r) => ({
    ...r,
    unexplainedPaise: num(r.unexplainedPaise),
    createdAt: new Date(r.createdAt),
  }));
}

export async function reconciliationRunOf(db: Queryable, day: string): Promise<string | null> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const [row] = await queryRows<{ report: string }>(
    db,
    sql`SELECT report FROM reconciliation_runs WHERE day = ${day}::date`,
  );
  return row?.report ?? null;
}

/**
 * The daily job's work: yesterday's report (by the app's clock, in the app's zone), made once and
 * kept for the desk.
 */
export async function keepYesterdaysReconciliation(
  db: Queryable,
  env: Parameters<typeof reconcileProviderOf>[0] & { timeZone: string },
  now: Date,
) {
  const day = addDays(todayIn(env.timeZone, now), -1);
  const [kept] = await queryRows<{ day: string }>(
    db,
    sql`SELECT day::text AS day FROM reconciliation_runs WHERE day = ${day}::date`,
  );
  if (kept) return;
  const report = await reconciliationReport(db, reconcileProviderOf(env), {
    day,
    now,
    timeZone: env.timeZone,
  });
  await keepReconciliationRun(db, {
    day,
    unexplainedPaise: report.unexplainedPaise,
    clean: report.clean,
    report: formatReport(report),
    at: now,
  });
}

/** Keeps a day's report (the daily job; a second run of the same day replaces it). */
export async function keepReconciliationRun(
  db: Queryable,
  run: { day: IsoDate; unexplainedPaise: number; clean: boolean; report: string; at: Date },
) {
  await db.execute(
    sql`INSERT INTO reconciliation_runs (day, unexplained_paise, clean, report, created_at)
        VALUES (${run.day}::date, ${run.unexplainedPaise}, ${run.clean}, ${run.report},
          ${run.at.toISOString()})
        ON CONFLICT (day) DO UPDATE SET unexplained_paise = excluded.unexplained_paise,
          clean = excluded.clean, report = excluded.report, created_at = excluded.created_at`,
  );
}

const csvCell = (value: string) =>
  /[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

/**
 * The accountant's CSV for a month (YYYY-MM, in `timeZone`): one line per commission invoice
 * issued that month (number, date, booking, artist, commission, GST on it, TDS held at release),
 * then the month's totals. Amounts in rupees with two decimals.
 */
export async function accountingCsv(
  db: Queryable,
  month: string,
  options: { timeZone: string; invoicePrefix: string },
): Promise<string | null> {
  const { timeZone } = options;
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) return null;
  const first = `${month}-01` as IsoDate;
  const [year, m] = month.split("-").map(Number) as [number, number];
  const next = (
    m === 12 ? `${year + 1}-01-01` : `${year}-${String(m + 1).padStart(2, "0")}-01`
  ) as IsoDate;
  const from = zonedDateTimeToUtc(first, "00:00", timeZone).toISOString();
  const to = zonedDateTimeToUtc(next, "00:00", timeZone).toISOString();
  const rows = await queryRows<{
    financialYear: string;
    number: number;
    issuedAt: Date | string;
    bookingId: string;
    artist: string | null;
    commission: string | number;
    gst: string | number;
    tds: string | number;
  }>(
    db,
    sql`SELECT i.financial_year AS "financialYear", i.number, i.issued_at AS "issuedAt",
          i.booking_id AS "bookingId", ap.artist_name AS artist,
          i.commission_paise AS commission, i.gst_paise AS gst,
          (SELECT coalesce(sum(l.amount), 0) FROM ledger_txns t JOIN ledger_legs l ON l.txn_id = t.id
            WHERE t.booking_id = i.booking_id AND t.kind = 'release'
              AND l.to_account = 'platform:tds_payable') AS tds
        FROM commission_invoices i LEFT JOIN artist_profiles ap ON ap.id = i.artist_profile_id
        WHERE i.issued_at >= ${from}::timestamptz AND i.issued_at < ${to}::timestamptz
        ORDER BY i.financial_year, i.number`,
  );
  const lines = ["invoice,date,booking,artist,commission_inr,gst_inr,tds_inr"];
  let commission = 0;
  let gst = 0;
  let tds = 0;
  for (const r of rows) {
    commission += num(r.commission);
    gst += num(r.gst);
    tds += num(r.tds);
    lines.push(
      [
        invoiceNumberText(r.financialYear, r.number, options.invoicePrefix),
        todayIn(timeZone, new Date(r.issuedAt)),
        r.bookingId,
        csvCell(r.artist ?? ""),
        paiseToRupeesText(num(r.commission)),
        paiseToRupeesText(num(r.gst)),
        paiseToRupeesText(num(r.tds)),
      ].join(","),
    );
  }
  lines.push(
    `total ${month},,,,${paiseToRupeesText(commission)},${paiseToRupeesText(gst)},${paiseToRupeesText(tds)}`,
  );
  return `${lines.join("\n")}\n`;
}
