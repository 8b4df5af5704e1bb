/**
 * The ledger's chart of accounts (design money-and-terms §4.2, decision 050): account ids are
 * addresses with segments, `booking:{id}:held`, built only here. Pure: no database.
 */
import { LEDGER_ACCOUNT_KINDS, LEDGER_TXN_KINDS } from "~db/enums";

export { LEDGER_ACCOUNT_KINDS, LEDGER_TXN_KINDS };
export type LedgerAccountKind = (typeof LEDGER_ACCOUNT_KINDS)[number];
export type LedgerTxnKind = (typeof LEDGER_TXN_KINDS)[number];

/** A booking's own accounts, all liabilities that may not go below zero. */
export const BOOKING_ACCOUNT_PARTS = [
  "held",
  "artist_hold",
  "fee_unearned",
  "tds_hold",
  "refund_pending",
] as const;
export type BookingAccountPart = (typeof BOOKING_ACCOUNT_PARTS)[number];

export const bookingAccount = (bookingId: string, part: BookingAccountPart) =>
  `booking:${bookingId}:${part}`;

/** Released to the artist by GigLedger, not yet settled to their bank. */
export const artistReleasedAccount = (artistProfileId: string) =>
  `artist:${artistProfileId}:released`;

/** The provider's world account comes in this many shards (decision 057; migration 0023). */
export const PROVIDER_ACCOUNT_SHARDS = 16;

/**
 * The shard of the provider's world account that a booking's money goes through: always the same
 * for one booking, spread over the shards across bookings, so that concurrent payments do not
 * queue on one row. Shard 0 is `world:razorpay` itself.
 */
export function providerAccountOf(bookingId: string): string {
  return (
    providerAccountShards()[Number.parseInt(bookingId.slice(-2), 16) % PROVIDER_ACCOUNT_SHARDS] ??
    PLATFORM_ACCOUNTS.razorpay.id
  );
}

/** Every shard of the provider's world account, shard 0 (`world:razorpay`) first. */
export function providerAccountShards(): string[] {
  const base = PLATFORM_ACCOUNTS.razorpay.id;
  // Shards 1–15 are `world:razorpay:a` to `:o`: an account id's last segment is letters.
  return Array.from({ length: PROVIDER_ACCOUNT_SHARDS }, (_, n) =>
    n === 0 ? base : `${base}:${String.fromCharCode(96 + n)}`,
  );
}

/** The platform's accounts, opened by migration 0018 with these kinds and sign rules. */
export const PLATFORM_ACCOUNTS = {
  razorpay: { id: "world:razorpay", kind: "world", allowNegative: true },
  commission: { id: "platform:commission", kind: "income", allowNegative: false },
  gstOutput: { id: "platform:gst_output", kind: "liability", allowNegative: false },
  tdsPayable: { id: "platform:tds_payable", kind: "liability", allowNegative: false },
  pspFees: { id: "platform:psp_fees", kind: "expense", allowNegative: true },
  chargebackLoss: { id: "platform:chargeback_loss", kind: "expense", allowNegative: true },
  suspense: { id: "platform:suspense", kind: "suspense", allowNegative: true },
} as const satisfies Record<
  string,
  { id: string; kind: LedgerAccountKind; allowNegative: boolean }
>;
