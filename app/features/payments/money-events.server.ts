// A booking's money timeline (docs/decisions/055): each event recorded once by its key, at the
// app clock's time, in the transaction of the fact it reports; a job mails it to whom it concerns.

import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { jobInsertSql, jobWakeSql } from "~/lib/jobs.server";
import { type Queryable, queryRows } from "~db/client";
import type { MONEY_EVENT_KINDS } from "~db/enums";

export type MoneyEventKind = (typeof MONEY_EVENT_KINDS)[number];

export const MONEY_MAIL_QUEUE = "payments.mail";

export type MoneyEvent = {
  id: string;
  bookingId: string;
  kind: MoneyEventKind;
  amountPaise: number | null;
  at: Date;
  detail: Record<string, string | number | null>;
};

/** Records the event once (a second call with its key changes nothing) and queues its mail. */
export async function recordMoneyEvent(
  tx: Queryable,
  event: {
    key: string;
    bookingId: string;
    kind: MoneyEventKind;
    amountPaise?: number | null;
    at: Date;
    detail?: Record<string, string | number | null>;
  },
): Promise<void> {
  // One statement: the row, and its mail job only if the row is new.
  const id = randomUUID();
  await tx.execute(
    sql`WITH recorded AS (
          INSERT INTO money_events (id, booking_id, key, kind, amount_paise, at, detail)
          VALUES (${id}, ${event.bookingId}, ${event.key}, ${event.kind}, ${event.amountPaise ?? null},
            ${event.at.toISOString()}, ${JSON.stringify(event.detail ?? {})}::jsonb)
          ON CONFLICT (key) DO NOTHING RETURNING id),
        queued AS (${jobInsertSql({ queue: MONEY_MAIL_QUEUE, key: id }, sql`recorded`)})
        SELECT ${jobWakeSql(MONEY_MAIL_QUEUE)} FROM recorded`,
  );
}

export async function moneyEventsOf(db: Queryable, bookingId: string): Promise<MoneyEvent[]> {
  const rows = await queryRows<
    MoneyEvent & { at: Date | string; amountPaise: number | string | null }
  >(
    db,
    sql`SELECT id, booking_id AS "bookingId", kind, amount_paise AS "amountPaise", at, detail
        FROM money_events WHERE booking_id = ${bookingId} ORDER BY at, key`,
  );
  return rows.map((row) => ({
    ...row,
    at: new Date(row.at),
    amountPaise: row.amountPaise === null ? null : Number(row.amountPaise),
  }));
}
