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

export type PayoutLine = {
  bookingId: string;
  eventDate: string;
  clientName: string;
  paidPaise: number;
  refundedPaise: number;
  heldPaise: number;
  releasedPaise: number;
  releaseAt: string | null;
  releasedAt: string | null;
};

/**
 * The artist's money per booking paid through GigLedger, newest event first, and in total: what
 * clients paid, what was refunded, what is held for them (with when it is released) and what was
 * released (with when).
 */
export async function payoutsOf(
  db: Queryable,
  artistProfileId: string,
): Promise<{
  lines: PayoutLine[];
  totals: Omit<PayoutLine, "bookingId" | "eventDate" | "clientName" | "releaseAt" | "releasedAt">;
}> {
  const rows = await queryRows<Record<string, string | number | Date | null>>(
    db,
    sql`SELECT b.id AS "bookingId", b.event_date AS "eventDate", coalesce(u.name, 'Deleted user') AS "clientName",
          (SELECT coalesce(sum(amount_paise), 0) FROM payment_intents i
            WHERE i.booking_id = b.id AND i.status = 'captured') AS paid,
          (SELECT coalesce(sum(refunded_paise), 0) FROM payment_intents i
            WHERE i.booking_id = b.id) AS refunded,
          (SELECT coalesce(sum(amount_paise - reversed_paise), 0) FROM provider_transfers t
            WHERE t.booking_id = b.id AND t.released_at IS NULL) AS held,
          (SELECT coalesce(sum(amount_paise - reversed_paise), 0) FROM provider_transfers t
            WHERE t.booking_id = b.id AND t.released_at IS NOT NULL) AS released,
          b.release_at AS "releaseAt", b.payout_released_at AS "releasedAt"
        FROM bookings b LEFT JOIN users u ON u.id = b.client_user_id
        WHERE b.artist_profile_id = ${artistProfileId}
          AND EXISTS (SELECT 1 FROM payment_intents i WHERE i.booking_id = b.id
            AND i.captured_at IS NOT NULL)
        ORDER BY b.event_date DESC LIMIT 200`,
  );
  const iso = (v: unknown) =>
    v === null || v === undefined ? null : new Date(v as string).toISOString();
  const lines = rows.map((r) => ({
    bookingId: String(r.bookingId),
    eventDate: String(r.eventDate),
    clientName: String(r.clientName),
    paidPaise: Number(r.paid),
    refundedPaise: Number(r.refunded),
    heldPaise: Number(r.held),
    releasedPaise: Number(r.released),
    releaseAt: iso(r.releaseAt),
    releasedAt: iso(r.releasedAt),
  }));
  const sum = (key: "paidPaise" | "refundedPaise" | "heldPaise" | "releasedPaise") =>
    lines.reduce((total, line) => total + line[key], 0);
  return {
    lines,
    totals: {
      paidPaise: sum("paidPaise"),
      refundedPaise: sum("refundedPaise"),
      heldPaise: sum("heldPaise"),
      releasedPaise: sum("releasedPaise"),
    },
  };
}
