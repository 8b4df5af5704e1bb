import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~db/client";
import { bookings } from "~db/schema";
import { createTestDatabase, usingServer } from "../../../tests/support/test-database";
import {
  getCommissionInvoice,
  invoiceNumberText,
  issueCommissionInvoice,
} from "./invoice-numbers.server";

let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.dispose();
});

// The file's tests share one database and run in a random order: each numbers invoices in a
// financial year of its own. 1 June of a year is in the year that starts that April.
let years = 2040;
const newYear = () => {
  const start = ++years;
  return { fy: `${start}-${String((start + 1) % 100).padStart(2, "0")}`, start };
};
const inYear = (start: number) => new Date(`${start}-06-01T10:00:00Z`);

async function newBooking(): Promise<string> {
  const [row] = await database.db
    .insert(bookings)
    .values({
      eventDate: "2027-02-14",
      durationHours: 2,
      venue: "Test hall",
      eventType: "Live Show",
      totalAmount: 1000,
    })
    .returning({ id: bookings.id });
  if (!row) throw new Error("no booking");
  return row.id;
}

const input = (bookingId: string, issuedAt: Date) => ({
  bookingId,
  artistProfileId: null,
  commissionPaise: 12_500_00,
  gstPaise: 2_250_00,
  issuedAt,
});

async function numbersOf(fy: string): Promise<number[]> {
  const rows = await queryRows<{ number: number }>(
    database.db,
    sql`SELECT number FROM commission_invoices WHERE financial_year = ${fy} ORDER BY number`,
  );
  return rows.map((row) => Number(row.number));
}

describe("invoiceNumberText", () => {
  it("writes the prefix, the year and five digits: 16 characters with GL", () => {
    expect(invoiceNumberText("2026-27", 1)).toBe("GL/2026-27/00001");
    expect(invoiceNumberText("2026-27", 123, "GIG")).toBe("GIG/2026-27/00123");
    expect(invoiceNumberText("2026-27", 99_999)).toHaveLength(16);
    expect(() => invoiceNumberText("2026-27", 0)).toThrow(RangeError);
  });
});

describe("issueCommissionInvoice", () => {
  it("numbers a year's invoices 1, 2, 3 and says what was issued", async () => {
    const { fy, start } = newYear();
    const issued = [];
    for (let i = 0; i < 3; i++)
      issued.push(
        await issueCommissionInvoice(database.db, input(await newBooking(), inYear(start))),
      );
    expect(issued.map((invoice) => invoice.number)).toEqual([1, 2, 3]);
    expect(issued[2]).toMatchObject({
      invoiceNumber: `GL/${fy}/00003`,
      financialYear: fy,
      commissionPaise: 12_500_00,
      gstPaise: 2_250_00,
      issuedAt: inYear(start),
    });
    const withPrefix = await issueCommissionInvoice(database.db, {
      ...input(await newBooking(), inYear(start)),
      prefix: "GIG",
    });
    expect(withPrefix.invoiceNumber).toBe(`GIG/${fy}/00004`);
  });

  it("issues once per booking: again, it returns the first invoice; other amounts are refused", async () => {
    const { start } = newYear();
    const bookingId = await newBooking();
    const first = await issueCommissionInvoice(database.db, input(bookingId, inYear(start)));
    const later = new Date(inYear(start).getTime() + 86_400_000);
    const again = await issueCommissionInvoice(database.db, input(bookingId, later));
    expect(again).toEqual(first);
    await expect(
      issueCommissionInvoice(database.db, { ...input(bookingId, later), gstPaise: 1 }),
    ).rejects.toThrow(/already has commission invoice/);
    expect(await getCommissionInvoice(database.db, bookingId)).toEqual(first);
    // The refused call took no number.
    const next = await issueCommissionInvoice(database.db, input(await newBooking(), later));
    expect(next.number).toBe(first.number + 1);
  });

  it("a rolled-back transaction leaves no gap", async () => {
    const { fy, start } = newYear();
    await issueCommissionInvoice(database.db, input(await newBooking(), inYear(start)));
    const rolledBack = await newBooking();
    await expect(
      database.db.transaction(async (tx) => {
        const invoice = await issueCommissionInvoice(tx, input(rolledBack, inYear(start)));
        expect(invoice.number).toBe(2);
        throw new Error("the payout failed");
      }),
    ).rejects.toThrow("the payout failed");
    expect(await getCommissionInvoice(database.db, rolledBack)).toBeNull();
    const next = await issueCommissionInvoice(
      database.db,
      input(await newBooking(), inYear(start)),
    );
    expect(next.number).toBe(2);
    expect(await numbersOf(fy)).toEqual([1, 2]);
  });

  it("a failed issue inside a transaction that goes on gives its number back", async () => {
    const { fy, start } = newYear();
    // Made first: the embedded database has one connection, busy with the transaction below.
    const bookingId = await newBooking();
    await database.db.transaction(async (tx) => {
      // No such booking: the foreign key refuses the invoice after the number was taken.
      await expect(
        issueCommissionInvoice(tx, input(randomUUID(), inYear(start))),
      ).rejects.toThrow();
      const invoice = await issueCommissionInvoice(tx, input(bookingId, inYear(start)));
      expect(invoice.number).toBe(1);
    });
    expect(await numbersOf(fy)).toEqual([1]);
  });

  it("a new financial year starts at 1, judged in IST", async () => {
    const { fy, start } = newYear();
    const next = `${start + 1}-${String((start + 2) % 100).padStart(2, "0")}`;
    years++; // the next year is this test's too
    const lastMinute = new Date(`${start + 1}-03-31T18:29:00Z`); // 31 March, 23:59 IST
    const firstMinute = new Date(`${start + 1}-03-31T18:30:00Z`); // 1 April, 00:00 IST
    const a = await issueCommissionInvoice(database.db, input(await newBooking(), inYear(start)));
    const b = await issueCommissionInvoice(database.db, input(await newBooking(), lastMinute));
    const c = await issueCommissionInvoice(database.db, input(await newBooking(), firstMinute));
    expect([a.invoiceNumber, b.invoiceNumber, c.invoiceNumber]).toEqual([
      `GL/${fy}/00001`,
      `GL/${fy}/00002`,
      `GL/${next}/00001`,
    ]);
  });

  it("refuses amounts that are not whole paise, or no commission", async () => {
    const bookingId = await newBooking();
    const at = inYear(newYear().start);
    await expect(
      issueCommissionInvoice(database.db, { ...input(bookingId, at), commissionPaise: 1.5 }),
    ).rejects.toThrow(TypeError);
    await expect(
      issueCommissionInvoice(database.db, { ...input(bookingId, at), commissionPaise: 0 }),
    ).rejects.toThrow(TypeError);
    await expect(
      issueCommissionInvoice(database.db, { ...input(bookingId, at), gstPaise: -1 }),
    ).rejects.toThrow(TypeError);
  });
});

// Concurrent transactions exist only on a PostgreSQL server (the embedded database is one
// connection): defined there, not skipped here.
if (usingServer())
  describe("issuers at once (PostgreSQL)", () => {
    /** Issues in a transaction of its own that holds its locks a moment before it ends. */
    const issueSlowly = (bookingId: string, at: Date, rollBack = false) =>
      database.db.transaction(async (tx) => {
        const invoice = await issueCommissionInvoice(tx, input(bookingId, at));
        await tx.execute(sql`SELECT pg_sleep(0.01)`);
        if (rollBack) throw new Error("rolled back on purpose");
        return invoice;
      });

    it("20 issuers at once get 1 to 20, no gap and no number twice", async () => {
      const { fy, start } = newYear();
      const bookingIds = await Promise.all(Array.from({ length: 20 }, () => newBooking()));
      const invoices = await Promise.all(bookingIds.map((id) => issueSlowly(id, inYear(start))));
      const numbers = invoices.map((invoice) => invoice.number).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(await numbersOf(fy)).toEqual(numbers);
    });

    it("issuers that roll back among those that commit leave no gap", async () => {
      const { fy, start } = newYear();
      const bookingIds = await Promise.all(Array.from({ length: 20 }, () => newBooking()));
      const results = await Promise.allSettled(
        bookingIds.map((id, i) => issueSlowly(id, inYear(start), i % 4 === 0)),
      );
      expect(results.filter((r) => r.status === "rejected")).toHaveLength(5);
      expect(await numbersOf(fy)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    });

    it("two issuers for one booking at once get the same invoice", async () => {
      const { fy, start } = newYear();
      const bookingId = await newBooking();
      const [a, b] = await Promise.all([
        issueSlowly(bookingId, inYear(start)),
        issueSlowly(bookingId, inYear(start)),
      ]);
      expect(a).toEqual(b);
      expect(await numbersOf(fy)).toEqual([1]);
    });
  });
