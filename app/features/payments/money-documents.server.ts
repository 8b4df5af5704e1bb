// The receipts that go with a money event's mail (docs/product.md, "Payments"): the client's
// payment and refund receipts, the artist's payout statement and commission invoice, each drawn
// from the books and the provider's ids, as PDF attachments.

import { sql } from "drizzle-orm";
import type { Env } from "~/lib/env.server";
import type { MailAttachment } from "~/lib/mail.server";
import { type Queryable, queryRows } from "~db/client";
import { financialYearOf } from "./financial-year";
import { getCommissionInvoice } from "./invoice-numbers.server";
import {
  type DocumentEvent,
  renderCommissionInvoice,
  renderPaymentReceipt,
  renderPayoutStatement,
  renderRefundReceipt,
} from "./money-documents-pdf.server";
import type { MoneyEventKind } from "./money-events.server";

type Facts = {
  bookingId: string;
  eventDate: string;
  venue: string;
  eventType: string;
  artistName: string | null;
  clientName: string | null;
  agreementSha256: string | null;
  commissionBps: number | null;
};

const pdf = (filename: string, content: Buffer): MailAttachment => ({
  filename,
  contentType: "application/pdf",
  content,
});

async function factsOf(tx: Queryable, bookingId: string): Promise<Facts | null> {
  const [row] = await queryRows<Facts>(
    tx,
    sql`SELECT b.id AS "bookingId", b.event_date AS "eventDate", b.venue, b.event_type AS "eventType",
          ap.artist_name AS "artistName", cu.name AS "clientName",
          (SELECT a.sha256 FROM agreements a WHERE a.booking_id = b.id AND a.paid_through = 'gigledger'
            ORDER BY a.frozen_at DESC LIMIT 1) AS "agreementSha256",
          (SELECT (a.json::jsonb -> 'agreement' -> 'offer' -> 'payments' ->> 'commissionBps')::int
            FROM agreements a WHERE a.booking_id = b.id AND a.paid_through = 'gigledger'
            ORDER BY a.frozen_at DESC LIMIT 1) AS "commissionBps"
        FROM bookings b
        LEFT JOIN artist_profiles ap ON ap.id = b.artist_profile_id
        LEFT JOIN users cu ON cu.id = b.client_user_id
        WHERE b.id = ${bookingId}`,
  );
  return row ?? null;
}

async function paidOf(tx: Queryable, bookingId: string) {
  const [row] = await queryRows<{
    paid: string | number;
    refunded: string | number;
    total: string | number;
  }>(
    tx,
    sql`SELECT coalesce(sum(amount_paise) FILTER (WHERE status = 'captured'), 0) AS paid,
          coalesce(sum(refunded_paise), 0) AS refunded,
          (SELECT (total_amount * 100)::bigint FROM bookings WHERE id = ${bookingId}) AS total
        FROM payment_intents WHERE booking_id = ${bookingId}`,
  );
  return {
    paid: Number(row?.paid ?? 0),
    refunded: Number(row?.refunded ?? 0),
    total: Number(row?.total ?? 0),
  };
}

/** The PDFs a money event's mail to `to` carries; none for most events. */
export async function moneyDocumentsFor(
  tx: Queryable,
  env: Pick<Env, "appUrl" | "platformGstin" | "invoicePrefix" | "commissionBps">,
  event: {
    kind: MoneyEventKind;
    bookingId: string;
    detail: Record<string, string | number | null>;
    at: Date;
  },
  to: "client" | "artist",
): Promise<MailAttachment[]> {
  const facts = await factsOf(tx, event.bookingId);
  if (!facts) return [];
  const documentEvent: DocumentEvent = {
    date: String(facts.eventDate),
    venue: facts.venue,
    eventType: facts.eventType,
  };
  const bookingUrl = new URL(`/bookings/${facts.bookingId}`, env.appUrl).toString();
  const common = {
    bookingId: facts.bookingId,
    bookingUrl,
    clientName: facts.clientName ?? "Deleted user",
    artistName: facts.artistName ?? "Deleted user",
    event: documentEvent,
    agreementSha256: facts.agreementSha256 ?? "",
  };
  if (
    event.kind === "payment_received" &&
    to === "client" &&
    typeof event.detail.paymentId === "string"
  ) {
    const [intent] = await queryRows<{
      purpose: "deposit" | "balance" | "full";
      amount: string | number;
      capturedAt: string | Date;
    }>(
      tx,
      sql`SELECT purpose, amount_paise AS amount, captured_at AS "capturedAt" FROM payment_intents
          WHERE provider_payment_id = ${event.detail.paymentId} AND status = 'captured'`,
    );
    if (!intent) return [];
    const money = await paidOf(tx, event.bookingId);
    const content = await renderPaymentReceipt({
      ...common,
      receiptNumber: `R-${event.detail.paymentId}`,
      payment: {
        purpose: intent.purpose,
        amountPaise: Number(intent.amount),
        paidAt: new Date(intent.capturedAt),
        providerPaymentId: event.detail.paymentId,
      },
      totalPaise: money.total,
      paidSoFarPaise: Math.min(money.paid, money.total),
    });
    return [pdf(`payment-receipt-${event.detail.paymentId}.pdf`, content)];
  }
  if (
    event.kind === "refund_paid" &&
    to === "client" &&
    typeof event.detail.refundId === "string"
  ) {
    const [refund] = await queryRows<{ amount: string | number; createdAt: string | Date }>(
      tx,
      sql`SELECT amount_paise AS amount, created_at AS "createdAt" FROM provider_refunds
          WHERE id = ${event.detail.refundId}`,
    );
    if (!refund) return [];
    const money = await paidOf(tx, event.bookingId);
    const content = await renderRefundReceipt({
      ...common,
      receiptNumber: `RF-${event.detail.refundId}`,
      refund: {
        amountPaise: Number(refund.amount),
        refundedAt: event.at,
        providerRefundId: event.detail.refundId,
        reason: "Refunded as the agreed cancellation policy says",
      },
      paidPaise: money.paid,
    });
    return [pdf(`refund-receipt-${event.detail.refundId}.pdf`, content)];
  }
  if (event.kind === "payout_released" && to === "artist") {
    const [payout] = await queryRows<{
      legalName: string;
      panMasked: string;
      destination: string;
      released: string | number;
      releasedAt: string | Date | null;
      releaseAt: string | Date | null;
    }>(
      tx,
      sql`SELECT p.legal_name AS "legalName", p.pan_masked AS "panMasked", p.destination,
            (SELECT coalesce(sum(amount_paise - reversed_paise), 0) FROM provider_transfers t
              WHERE t.booking_id = b.id) AS released,
            b.payout_released_at AS "releasedAt", b.release_at AS "releaseAt"
          FROM bookings b JOIN payout_accounts p ON p.artist_profile_id = b.artist_profile_id
          WHERE b.id = ${event.bookingId}`,
    );
    if (!payout) return [];
    const money = await paidOf(tx, event.bookingId);
    const invoice = await getCommissionInvoice(tx, event.bookingId, env.invoicePrefix);
    const commission = invoice?.commissionPaise ?? 0;
    const gst = invoice?.gstPaise ?? 0;
    const released = Number(payout.released);
    const kept = money.paid - money.refunded;
    const attachments: MailAttachment[] = [
      pdf(
        `payout-statement-${facts.bookingId}.pdf`,
        await renderPayoutStatement({
          artistName: common.artistName,
          legalName: payout.legalName,
          payoutDestination: payout.destination,
          bookingId: facts.bookingId,
          event: documentEvent,
          lines: [
            { label: "Client paid", paise: money.paid },
            ...(money.refunded > 0
              ? [{ label: "Refunded to the client", paise: -money.refunded }]
              : []),
            { label: "GigLedger commission", paise: -commission },
            { label: "GST on the commission", paise: -gst },
            ...(kept - commission - gst - released !== 0
              ? [{ label: "TDS", paise: -(kept - commission - gst - released) }]
              : []),
            { label: "Your payout", paise: released },
          ],
          heldOrReleased: {
            status: "released",
            releaseAt: payout.releaseAt ? new Date(payout.releaseAt) : null,
            releasedAt: payout.releasedAt ? new Date(payout.releasedAt) : event.at,
          },
        }),
      ),
    ];
    if (invoice)
      attachments.push(
        pdf(
          `commission-invoice-${invoice.financialYear}-${invoice.number}.pdf`,
          await renderCommissionInvoice({
            invoiceNumber: invoice.invoiceNumber,
            issuedAt: invoice.issuedAt,
            financialYear: financialYearOf(invoice.issuedAt),
            seller: { name: "GigLedger", gstin: env.platformGstin },
            buyer: {
              legalName: payout.legalName,
              artistName: common.artistName,
              panMasked: payout.panMasked,
            },
            bookingId: facts.bookingId,
            description: `Commission on the booking of ${documentEvent.date} (${documentEvent.eventType})`,
            commissionPaise: commission,
            gstPaise: gst,
            gstBps: 1800,
            commissionBps: facts.commissionBps ?? env.commissionBps,
          }),
        ),
      );
    return attachments;
  }
  return [];
}
