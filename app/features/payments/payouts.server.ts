// An artist's payout set-up (docs/decisions/055): the provider's linked account that receives
// their share of each booking paid through GigLedger. Without one, their bookings are paid
// directly between the parties, as before, and the agreement says so.

import { eq, sql } from "drizzle-orm";
import type { Env } from "~/lib/env.server";
import { type Database, type Queryable, queryRows } from "~db/client";
import { payoutAccounts } from "~db/schema";
import type { PaymentProvider } from "./payment-provider";
import { maskedPayout, type PayoutSetup } from "./payout-setup";

export type PayoutAccount = typeof payoutAccounts.$inferSelect;

export type PaymentRoute = { route: "direct" } | { route: "gigledger"; commissionBps: number };

export async function payoutAccountOf(
  db: Queryable,
  artistProfileId: string,
): Promise<PayoutAccount | null> {
  const [row] = await db
    .select()
    .from(payoutAccounts)
    .where(eq(payoutAccounts.artistProfileId, artistProfileId));
  return row ?? null;
}

/**
 * How a new offer for this artist is paid: through GigLedger when payments are on and the artist
 * set up payouts, directly otherwise. A change to an agreed booking keeps the way its agreement
 * in force was paid, so money already paid through GigLedger stays there.
 */
export async function paymentRouteOf(
  tx: Queryable,
  env: Pick<Env, "payments" | "commissionBps">,
  input: { artistProfileId: string; bookingId?: string },
): Promise<PaymentRoute> {
  if (input.bookingId) {
    const [inForce] = await queryRows<{ paidThrough: string; commission: number | null }>(
      tx,
      sql`SELECT paid_through AS "paidThrough",
            (json::jsonb -> 'agreement' -> 'offer' -> 'payments' ->> 'commissionBps')::int
              AS commission
          FROM agreements WHERE booking_id = ${input.bookingId} AND status = 'in_force'`,
    );
    if (inForce)
      return inForce.paidThrough === "gigledger"
        ? { route: "gigledger", commissionBps: inForce.commission ?? env.commissionBps }
        : { route: "direct" };
  }
  if (env.payments.mode === "off") return { route: "direct" };
  const account = await payoutAccountOf(tx, input.artistProfileId);
  return account ? { route: "gigledger", commissionBps: env.commissionBps } : { route: "direct" };
}

/**
 * Sets up (or changes) the artist's payouts: the provider makes their linked account once (the
 * same idempotency key for the artist, so a retry or a change finds the first account) and only
 * masked details are kept here.
 */
export async function setUpPayouts(
  db: Database,
  provider: PaymentProvider,
  artist: { artistProfileId: string; email: string },
  setup: PayoutSetup,
): Promise<PayoutAccount> {
  const account = await provider.createLinkedAccount({
    email: artist.email,
    legalName: setup.legalName,
    pan: setup.pan,
    referenceId: artist.artistProfileId.replaceAll("-", "").slice(0, 20),
    idempotencyKey: `onboard_${artist.artistProfileId.replaceAll("-", "")}`,
  });
  const masked = maskedPayout(setup);
  const values = {
    legalName: setup.legalName,
    panMasked: masked.panMasked,
    method: setup.method,
    destination: masked.destination,
    provider: "razorpay" as const,
    providerAccountId: account.id,
    updatedAt: new Date(),
  };
  const [row] = await db
    .insert(payoutAccounts)
    .values({ artistProfileId: artist.artistProfileId, ...values })
    .onConflictDoUpdate({ target: payoutAccounts.artistProfileId, set: values })
    .returning();
  if (!row) throw new Error("The payout account was not stored");
  return row;
}
