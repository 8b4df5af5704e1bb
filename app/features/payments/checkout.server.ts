// The client pays (docs/decisions/055): "Pay" finds or makes the payment request for what is due
// now and sends the browser to the provider's hosted page. At most one live request per purpose
// (a unique index), re-used while its amount stands, so a refresh or a second click cannot
// charge twice. Coming back proves nothing: the provider's event confirms the booking.

import { sql } from "drizzle-orm";
import type { AgreementDocument } from "~/features/agreements/agreement-document";
import type { Clock } from "~/lib/clock.server";
import type { Env } from "~/lib/env.server";
import { refuse } from "~/lib/problem";
import { type Database, queryRows } from "~db/client";
import { balanceDueOverride, paidAgreementOf, paidPaiseOf } from "./booking-payments.server";
import type { PaymentProvider } from "./payment-provider";
import { balanceGraceEnd, depositDeadline, paymentDueNow } from "./payment-schedule";
import { feeRatesFor, splitPayment } from "./payment-split";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Ctx = { db: Database; env: Pick<Env, "appUrl" | "commissionBps" | "payments">; clock: Clock };

export type CheckoutParty = { userId: string; name: string; email: string };

type Intent = {
  id: string;
  amountPaise: number | string;
  checkoutUrl: string | null;
  expiresAt: Date | string;
};

/**
 * Where the client pays what is due now on the booking: the hosted page of a live payment link.
 * Only the booking's client; refused in words when nothing is due.
 */
export async function startCheckout(
  ctx: Ctx,
  provider: PaymentProvider,
  payer: CheckoutParty,
  bookingId: string,
): Promise<string> {
  const paid = UUID.test(bookingId) ? await paidAgreementOf(ctx.db, bookingId) : null;
  if (!paid || paid.clientUserId !== payer.userId) refuse("not_found", "Booking not found.");
  const at = ctx.clock.now();
  const due = paymentDueNow({
    agreement: paid.agreement,
    status: paid.status,
    capturedPaise: await paidPaiseOf(ctx.db, bookingId),
    at,
    balanceDueOverride: await balanceDueOverride(ctx.db, bookingId),
  });
  if (!due) refuse("conflict", "Nothing is due on this booking now.");
  const expiresAt =
    due.purpose === "balance"
      ? balanceGraceEnd(due.dueAt > at ? due.dueAt : at)
      : depositDeadline(paid.agreement, paid.respondedAt ?? at);
  if (expiresAt <= at)
    refuse("conflict", "The time to pay has passed. Ask the artist for more time.");
  const rates = feeRatesFor(paid.agreement.offer.payments.commissionBps ?? ctx.env.commissionBps);
  const split = splitPayment(due.amountPaise, rates);

  const intent = await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT id FROM bookings WHERE id = ${bookingId} FOR UPDATE`);
    const [live] = await queryRows<Intent>(
      tx,
      sql`SELECT id, amount_paise AS "amountPaise", checkout_url AS "checkoutUrl",
            expires_at AS "expiresAt"
          FROM payment_intents WHERE booking_id = ${bookingId} AND purpose = ${due.purpose}
            AND status IN ('created', 'pending')`,
    );
    if (live && Number(live.amountPaise) === due.amountPaise && new Date(live.expiresAt) > at)
      return live;
    if (live)
      await tx.execute(
        sql`UPDATE payment_intents SET status = 'expired', updated_at = now() WHERE id = ${live.id}`,
      );
    const [made] = await queryRows<Intent>(
      tx,
      sql`INSERT INTO payment_intents (booking_id, agreement_id, purpose, amount_paise,
            artist_share_paise, commission_paise, gst_paise, tds_paise, provider, due_at, expires_at)
          VALUES (${bookingId}, ${paid.agreementId}, ${due.purpose}, ${due.amountPaise},
            ${split.artistSharePaise}, ${split.commissionPaise}, ${split.gstPaise}, ${split.tdsPaise},
            'razorpay', ${due.dueAt.toISOString()}, ${expiresAt.toISOString()})
          RETURNING id, amount_paise AS "amountPaise", checkout_url AS "checkoutUrl",
            expires_at AS "expiresAt"`,
    );
    return made as Intent;
  });
  if (intent.checkoutUrl) return intent.checkoutUrl;

  const { offer } = paid.agreement;
  const purposeText = { deposit: "Deposit", balance: "Balance", full: "Payment" }[due.purpose];
  const link = await provider.createPaymentLink({
    amount: due.amountPaise,
    description:
      `${purposeText} for ${offer.artist.name}, ${offer.event.eventType} on ${offer.event.date}`.slice(
        0,
        200,
      ),
    referenceId: intent.id,
    expireBy: new Date(intent.expiresAt),
    callbackUrl: new URL("/payments/return", ctx.env.appUrl).toString(),
    customer: { name: payer.name, email: payer.email },
    notes: { gl_intent: intent.id, gl_booking: bookingId },
  });
  await ctx.db.execute(
    sql`UPDATE payment_intents SET provider_link_id = ${link.id}, checkout_url = ${link.shortUrl},
          status = 'pending', updated_at = now()
        WHERE id = ${intent.id} AND status IN ('created', 'pending')`,
  );
  return link.shortUrl;
}

/**
 * The payer's browser back from the hosted page: which booking it was for, and whether the
 * provider signed the return (then the page says "Confirming your payment…"). Never confirms.
 */
export async function returnFromCheckout(
  db: Database,
  provider: PaymentProvider,
  query: URLSearchParams,
): Promise<{ bookingId: string; paid: boolean } | null> {
  const result = provider.verifyPaymentLinkCallback(query);
  if (!result.ok) return null;
  const [intent] = await queryRows<{ bookingId: string }>(
    db,
    sql`SELECT booking_id AS "bookingId" FROM payment_intents
        WHERE provider_link_id = ${result.paymentLinkId}`,
  );
  if (!intent) return null;
  return { bookingId: intent.bookingId, paid: result.status === "paid" };
}
