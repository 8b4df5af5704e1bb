import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type CommissionInvoiceInput,
  type PaymentReceiptInput,
  type PayoutStatementInput,
  type RefundReceiptInput,
  renderCommissionInvoice,
  renderPaymentReceipt,
  renderPayoutStatement,
  renderRefundReceipt,
} from "./money-documents-pdf.server";

// Reads each PDF back with poppler's pdftotext (Debian poppler-utils, installed by .ci/run), as
// the agreement's test does: without it these tests fail rather than skip. -layout keeps each
// label beside its value, so a test can read "Amount paid ₹37,500.00" as one phrase.
function pdftotext(file: string): string {
  try {
    return execFileSync("pdftotext", ["-layout", "-enc", "UTF-8", file, "-"], {
      encoding: "utf8",
    }).replace(/\s+/g, " ");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new Error(
        "pdftotext is missing: install poppler-utils (apt-get install poppler-utils)",
      );
    throw error;
  }
}

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "money-documents-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Renders twice: the same bytes both times, a PDF, and its text as pdftotext reads it. */
async function rendered(name: string, render: () => Promise<Buffer>) {
  const pdf = await render();
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  expect((await render()).equals(pdf)).toBe(true);
  const file = path.join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  return pdftotext(file);
}

const bookingId = "6f1c2b1e-3d4a-4b5c-8d9e-0f1a2b3c4d5e";
const sha = "3b".repeat(32);
const clientReceipt = {
  receiptNumber: "R-2026-000042",
  bookingId,
  bookingUrl: `http://localhost:5173/bookings/${bookingId}`,
  clientName: "Priya Nair",
  artistName: "विक्रम शर्मा",
  event: { date: "2026-12-12", venue: "मुंबई हॉल, Bandra", eventType: "Wedding" },
  agreementSha256: sha,
};

const payment: PaymentReceiptInput = {
  ...clientReceipt,
  // 18:30 UTC on 30 Nov is midnight in India: the receipt's day is 1 Dec.
  payment: {
    purpose: "deposit",
    amountPaise: 37_500_00,
    paidAt: new Date("2026-11-30T18:30:00Z"),
    providerPaymentId: "pay_DESlfW9H8K9uqM",
  },
  totalPaise: 1_25_000_00,
  paidSoFarPaise: 37_500_00,
};

const refund: RefundReceiptInput = {
  ...clientReceipt,
  refund: {
    amountPaise: 25_000_00,
    refundedAt: new Date("2026-12-01T09:15:00Z"),
    providerRefundId: "rfnd_FP8QHiV938haTz",
    reason: "The client cancelled 11 days before the event (Moderate policy: 50% kept)",
  },
  paidPaise: 37_500_00,
};

const statement: PayoutStatementInput = {
  artistName: "विक्रम शर्मा",
  legalName: "Vikram Sharma",
  payoutDestination: "HDFC Bank ····1234",
  bookingId,
  event: clientReceipt.event,
  lines: [
    { label: "Client paid", paise: 1_25_000_00 },
    { label: "GigLedger commission (10%)", paise: -12_500_00 },
    { label: "GST on commission (18%)", paise: -2_250_00 },
    { label: "TDS (0.1%)", paise: -125_00 },
    { label: "Refunded to client", paise: 0 },
    { label: "Your payout", paise: 1_10_125_00 },
  ],
  heldOrReleased: {
    status: "held",
    releaseAt: new Date("2026-12-14T18:30:00Z"),
    releasedAt: null,
  },
};

const invoice: CommissionInvoiceInput = {
  invoiceNumber: "GL/2026-27/00001",
  issuedAt: new Date("2026-12-15T06:00:00Z"),
  financialYear: "2026-27",
  seller: { name: "GigLedger" },
  buyer: { legalName: "Vikram Sharma", artistName: "विक्रम शर्मा", panMasked: "ABCPS••••K" },
  bookingId,
  description: "Commission on booking for a wedding on 12 Dec 2026",
  commissionPaise: 12_500_00,
  gstPaise: 2_250_00,
  gstBps: 1800,
  commissionBps: 1000,
};

describe("renderPaymentReceipt", () => {
  test("same bytes twice; says what was paid, for what, and what is left", async () => {
    const text = await rendered("payment", () => renderPaymentReceipt(payment));
    expect(text).toContain("Payment receipt");
    expect(text).toContain("Receipt R-2026-000042 · 1 Dec 2026");
    expect(text).toContain("Amount paid ₹37,500.00");
    expect(text).toContain("Deposit for the booking below");
    expect(text).toContain("1 Dec 2026, 12:00 AM IST");
    expect(text).toContain("pay_DESlfW9H8K9uqM");
    expect(text).toContain("Agreed total ₹1,25,000.00");
    expect(text).toContain("Left to pay ₹87,500.00");
    expect(text).toContain("विक्रम शर्मा");
    expect(text).toContain("Priya Nair");
    expect(text).toContain("मुंबई हॉल, Bandra");
    expect(text).toContain("12 Dec 2026");
    expect(text).toContain(sha);
  });

  test("a receipt for the last payment says it is paid in full", async () => {
    const text = await rendered("full", () =>
      renderPaymentReceipt({
        ...payment,
        payment: { ...payment.payment, purpose: "balance", amountPaise: 87_500_00 },
        paidSoFarPaise: 1_25_000_00,
      }),
    );
    expect(text).toContain("Balance for the booking below");
    expect(text).toContain("Left to pay: paid in full ₹0.00");
  });

  test("amounts that do not fit are refused", () => {
    expect(() => renderPaymentReceipt({ ...payment, paidSoFarPaise: 1_30_000_00 })).toThrow(
      RangeError,
    );
    expect(() => renderPaymentReceipt({ ...payment, paidSoFarPaise: 100 })).toThrow(RangeError);
    expect(() =>
      renderPaymentReceipt({ ...payment, payment: { ...payment.payment, amountPaise: 1.5 } }),
    ).toThrow(TypeError);
  });
});

describe("renderRefundReceipt", () => {
  test("same bytes twice; the amount, why, and when it usually arrives", async () => {
    const text = await rendered("refund", () => renderRefundReceipt(refund));
    expect(text).toContain("Refund receipt");
    expect(text).toContain("Amount refunded ₹25,000.00");
    expect(text).toContain("Paid for the booking ₹37,500.00");
    expect(text).toContain("The client cancelled 11 days before the event");
    expect(text).toContain("rfnd_FP8QHiV938haTz");
    expect(text).toContain("1 Dec 2026, 2:45 PM IST");
    expect(text).toContain("Refunds usually reach your account in 5–7 working days");
    expect(text).toContain("Priya Nair");
  });

  test("a refund above what was paid is refused", () => {
    expect(() =>
      renderRefundReceipt({ ...refund, refund: { ...refund.refund, amountPaise: 40_000_00 } }),
    ).toThrow(RangeError);
  });
});

describe("renderPayoutStatement", () => {
  test("same bytes twice; every line, the payout, and the hold", async () => {
    const text = await rendered("statement", () => renderPayoutStatement(statement));
    expect(text).toContain("Payout statement");
    expect(text).toContain("Client paid ₹1,25,000.00");
    expect(text).toContain("GigLedger commission (10%) -₹12,500.00");
    expect(text).toContain("GST on commission (18%) -₹2,250.00");
    expect(text).toContain("TDS (0.1%) -₹125.00");
    expect(text).toContain("Refunded to client ₹0.00");
    expect(text).toContain("Your payout ₹1,10,125.00");
    expect(text).toContain("Held until 15 Dec 2026, 12:00 AM IST");
    expect(text).toContain("Vikram Sharma");
    expect(text).toContain("विक्रम शर्मा");
    expect(text).toContain("HDFC Bank ····1234");
  });

  test("a released payout says when", async () => {
    const released = new Date("2026-12-15T04:30:00Z");
    const text = await rendered("released", () =>
      renderPayoutStatement({
        ...statement,
        heldOrReleased: { status: "released", releaseAt: null, releasedAt: released },
      }),
    );
    expect(text).toContain("Released 15 Dec 2026, 10:00 AM IST");
    expect(text).not.toContain("Held until");
  });
});

describe("renderCommissionInvoice", () => {
  test("same bytes twice; number, parties, SAC, commission, GST and total", async () => {
    const text = await rendered("invoice", () => renderCommissionInvoice(invoice));
    expect(text).toContain("Tax invoice");
    expect(text).toContain("Invoice number GL/2026-27/00001");
    expect(text).toContain("Date of issue 15 Dec 2026");
    expect(text).toContain("Financial year 2026-27");
    expect(text).toContain("GSTIN not registered (demo)");
    expect(text).toContain("not a valid tax invoice");
    expect(text).toContain("Vikram Sharma");
    expect(text).toContain("विक्रम शर्मा");
    expect(text).toContain("ABCPS••••K");
    expect(text).toContain("998599 (Other support services)");
    expect(text).toContain("Commission at 10% ₹12,500.00");
    expect(text).toContain("GST at 18% ₹2,250.00");
    expect(text).toContain("Total ₹14,750.00");
  });

  test("with a GSTIN and an address it prints them and no demo warning", async () => {
    const text = await rendered("invoice-gstin", () =>
      renderCommissionInvoice({
        ...invoice,
        seller: { name: "GigLedger", gstin: "27AAAAA0000A1Z5", address: "Pune, Maharashtra" },
      }),
    );
    expect(text).toContain("GSTIN 27AAAAA0000A1Z5");
    expect(text).toContain("Pune, Maharashtra");
    expect(text).not.toContain("not registered");
  });

  test("GST that is not the printed rate of the commission is refused", () => {
    expect(() => renderCommissionInvoice({ ...invoice, gstPaise: 2_250_01 })).toThrow(RangeError);
  });

  test("different documents have different file IDs", async () => {
    const id = (pdf: Buffer) => /\/ID \[<([0-9a-f]+)>/.exec(pdf.toString("latin1"))?.[1];
    const a = id(await renderCommissionInvoice(invoice));
    const b = id(await renderCommissionInvoice({ ...invoice, invoiceNumber: "GL/2026-27/00002" }));
    expect(a).toBeTruthy();
    expect(a).not.toBe(b);
  });
});
