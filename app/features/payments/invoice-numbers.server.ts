/**
 * Commission invoices to artists, numbered without gaps per Indian financial year (CGST Rule 46:
 * a consecutive serial, unique for the year; design money-and-terms §5.3). The number comes from
 * `invoice_counters` in the issuer's transaction: the counter row's lock makes concurrent issuers
 * take turns, and a transaction that rolls back takes its number back with it.
 */
import { eq, sql } from "drizzle-orm";
import { assertPaise, type Paise } from "~/lib/money";
import { type Queryable, queryRows } from "~db/client";
import { commissionInvoices } from "~db/schema";
import { financialYearOf } from "./financial-year";

export type CommissionInvoice = {
  id: string;
  /** What the invoice shows: "GL/2026-27/00001". */
  invoiceNumber: string;
  financialYear: string;
  number: number;
  bookingId: string;
  artistProfileId: string | null;
  commissionPaise: Paise;
  gstPaise: Paise;
  issuedAt: Date;
};

export type CommissionInvoiceInput = {
  bookingId: string;
  artistProfileId: string | null;
  commissionPaise: Paise;
  gstPaise: Paise;
  /** The clock's time of issue; it decides the financial year (in IST). */
  issuedAt: Date;
  /** INVOICE_PREFIX from the configuration; "GL" when not given. */
  prefix?: string;
};

/**
 * "GL/2026-27/00001". With the default prefix this is 16 characters up to number 99,999, Rule
 * 46's limit; a longer prefix or a six-digit number makes it longer (the caller's configuration).
 */
export function invoiceNumberText(financialYear: string, number: number, prefix = "GL"): string {
  if (!Number.isSafeInteger(number) || number < 1)
    throw new RangeError(`Not an invoice number: ${number}`);
  return `${prefix}/${financialYear}/${String(number).padStart(5, "0")}`;
}

const columns = {
  id: commissionInvoices.id,
  financialYear: commissionInvoices.financialYear,
  number: commissionInvoices.number,
  bookingId: commissionInvoices.bookingId,
  artistProfileId: commissionInvoices.artistProfileId,
  commissionPaise: commissionInvoices.commissionPaise,
  gstPaise: commissionInvoices.gstPaise,
  issuedAt: commissionInvoices.issuedAt,
};

type Row = { [K in keyof typeof columns]: CommissionInvoice[K] };
const invoiceOf = (row: Row, prefix: string): CommissionInvoice => ({
  ...row,
  invoiceNumber: invoiceNumberText(row.financialYear, row.number, prefix),
  commissionPaise: Number(row.commissionPaise),
  gstPaise: Number(row.gstPaise),
});

/** The booking's commission invoice, or null when none was issued. */
export async function getCommissionInvoice(
  db: Queryable,
  bookingId: string,
  prefix = "GL",
): Promise<CommissionInvoice | null> {
  const [row] = await db
    .select(columns)
    .from(commissionInvoices)
    .where(eq(commissionInvoices.bookingId, bookingId));
  return row ? invoiceOf(row, prefix) : null;
}

/**
 * Issues the booking's commission invoice with the next number of its financial year, in the
 * caller's transaction (inside a savepoint of it, so a failure here gives the number back even
 * if the caller goes on). Issuing again for the booking returns the first invoice unchanged; with
 * other amounts or another artist it throws instead, as a ledger key posted with other legs does.
 */
export async function issueCommissionInvoice(
  tx: Queryable,
  input: CommissionInvoiceInput,
): Promise<CommissionInvoice> {
  assertPaise(input.commissionPaise, "Commission");
  assertPaise(input.gstPaise, "GST on the commission");
  if (input.commissionPaise <= 0)
    throw new TypeError(
      `A commission invoice needs a commission above 0: ${input.commissionPaise}`,
    );
  if (input.gstPaise < 0) throw new TypeError(`GST must be 0 or more: ${input.gstPaise}`);
  const prefix = input.prefix ?? "GL";
  const financialYear = financialYearOf(input.issuedAt);

  return tx.transaction(async (inner) => {
    // One issuer per booking at a time: a second one waits here, then finds the first's invoice
    // instead of taking a number it could not use.
    await inner.execute(
      sql`SELECT pg_advisory_xact_lock(hashtextextended(${`commission-invoice:${input.bookingId}`}, 0))`,
    );
    const existing = await getCommissionInvoice(inner, input.bookingId, prefix);
    if (existing) {
      const same =
        existing.commissionPaise === input.commissionPaise &&
        existing.gstPaise === input.gstPaise &&
        existing.artistProfileId === input.artistProfileId;
      if (!same)
        throw new Error(
          `Booking ${input.bookingId} already has commission invoice ${existing.invoiceNumber} with other amounts`,
        );
      return existing;
    }
    // The row lock taken here is held to the end of the caller's transaction: the next issuer
    // of the year reads the number this one leaves, committed or rolled back.
    const [counter] = await queryRows<{ last_number: number }>(
      inner,
      sql`INSERT INTO invoice_counters (financial_year, last_number) VALUES (${financialYear}, 1)
        ON CONFLICT (financial_year)
        DO UPDATE SET last_number = invoice_counters.last_number + 1
        RETURNING last_number`,
    );
    if (!counter) throw new Error(`No invoice number for ${financialYear}`);
    const [row] = await inner
      .insert(commissionInvoices)
      .values({
        financialYear,
        number: Number(counter.last_number),
        bookingId: input.bookingId,
        artistProfileId: input.artistProfileId,
        commissionPaise: input.commissionPaise,
        gstPaise: input.gstPaise,
        issuedAt: input.issuedAt,
      })
      .returning(columns);
    if (!row) throw new Error(`Commission invoice for ${input.bookingId} was not written`);
    return invoiceOf(row, prefix);
  });
}
