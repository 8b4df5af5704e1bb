// The ledger transactions that money through the platform posts (design money-and-terms §4.4,
// docs/decisions/055), one function per business fact, each with its semantic key so that a fact
// reported twice (a webhook and a fetch, a retried command) posts once.

import type { Queryable } from "~db/client";
import {
  accountBalances,
  bookingAccountIds,
  ensureArtistAccounts,
  ensureBookingAccounts,
  type LedgerPosting,
  postLedger,
  postLedgerInOrder,
} from "./ledger.server";
import { PLATFORM_ACCOUNTS, providerAccountOf } from "./ledger-accounts";
import type { PaymentSplit } from "./payment-split";

type Fact = { bookingId: string; at: Date; source: string };

/**
 * A payment was captured: the money enters the booking (`capture:`), and the commission with its
 * GST and the TDS are set aside (`split:`). Two transactions, so no account dips below zero while
 * the legs apply in their canonical order.
 */
export async function postCapture(
  tx: Queryable,
  fact: Fact & { paymentId: string; split: PaymentSplit },
) {
  const accounts = bookingAccountIds(fact.bookingId);
  const { split } = fact;
  const capture: LedgerPosting = {
    key: `capture:${fact.paymentId}`,
    kind: "capture",
    bookingId: fact.bookingId,
    at: fact.at,
    source: fact.source,
    legs: [
      { from: providerAccountOf(fact.bookingId), to: accounts.held, amount: split.amountPaise },
    ],
  };
  const fee = split.commissionPaise + split.gstPaise;
  const legs = [
    ...(fee > 0 ? [{ from: accounts.held, to: accounts.fee_unearned, amount: fee }] : []),
    ...(split.tdsPaise > 0
      ? [{ from: accounts.held, to: accounts.tds_hold, amount: split.tdsPaise }]
      : []),
  ];
  const setAside: LedgerPosting = {
    ...capture,
    key: `split:${fact.paymentId}`,
    kind: "split",
    legs,
  };
  await postLedgerInOrder(tx, legs.length > 0 ? [capture, setAside] : [capture], {
    openBookingAccounts: fact.bookingId,
  });
}

/** The artist's share went to their linked account, on hold. */
export async function postHeldTransfer(
  tx: Queryable,
  fact: Fact & { transferId: string; amountPaise: number },
) {
  const accounts = await ensureBookingAccounts(tx, fact.bookingId);
  await postLedger(tx, {
    key: `transfer:${fact.transferId}`,
    kind: "transfer",
    bookingId: fact.bookingId,
    at: fact.at,
    source: fact.source,
    legs: [{ from: accounts.held, to: accounts.artist_hold, amount: fact.amountPaise }],
  });
}

/**
 * Part of a payment goes back to the client: the artist's part from their held transfer (after
 * the provider reversed it; from `held` when no transfer was made), the fee and the TDS set aside
 * on it (`refund_init:`), then out to the client (`refund:`) once the provider refunded.
 */
export async function postRefund(
  tx: Queryable,
  fact: Fact & {
    refundId: string;
    /** The command that decided it: one `refund_init` per decision. */
    commandId: string;
    back: PaymentSplit;
    artistPartFrom: "artist_hold" | "held";
  },
) {
  const accounts = await ensureBookingAccounts(tx, fact.bookingId);
  const { back } = fact;
  const fee = back.commissionPaise + back.gstPaise;
  const legs = [
    ...(back.artistSharePaise > 0
      ? [
          {
            from: accounts[fact.artistPartFrom],
            to: accounts.refund_pending,
            amount: back.artistSharePaise,
          },
        ]
      : []),
    ...(fee > 0 ? [{ from: accounts.fee_unearned, to: accounts.refund_pending, amount: fee }] : []),
    ...(back.tdsPaise > 0
      ? [{ from: accounts.tds_hold, to: accounts.refund_pending, amount: back.tdsPaise }]
      : []),
  ];
  if (legs.length > 0)
    await postLedger(tx, {
      key: `refund_init:${fact.commandId}`,
      kind: "refund_init",
      bookingId: fact.bookingId,
      at: fact.at,
      source: fact.source,
      legs,
    });
  await postLedger(tx, {
    key: `refund:${fact.refundId}`,
    kind: "refund",
    bookingId: fact.bookingId,
    at: fact.at,
    source: fact.source,
    legs: [
      {
        from: accounts.refund_pending,
        to: providerAccountOf(fact.bookingId),
        amount: back.amountPaise,
      },
    ],
  });
}

/**
 * The payout is released: whatever the booking still holds for the artist goes to their released
 * account, and the fee set aside becomes the platform's commission and the GST it owes, in the
 * proportions `earned` says (the sums of each kept payment's split). Returns what was released.
 */
export async function postRelease(
  tx: Queryable,
  fact: Fact & { artistProfileId: string; earned: { commissionPaise: number; gstPaise: number } },
): Promise<{ artistPaise: number; commissionPaise: number; gstPaise: number; tdsPaise: number }> {
  const accounts = await ensureBookingAccounts(tx, fact.bookingId);
  const { released } = await ensureArtistAccounts(tx, fact.artistProfileId);
  const balances = await accountBalances(tx, [
    accounts.artist_hold,
    accounts.fee_unearned,
    accounts.tds_hold,
  ]);
  const artistPaise = balances[accounts.artist_hold] ?? 0;
  const feePaise = balances[accounts.fee_unearned] ?? 0;
  const tdsPaise = balances[accounts.tds_hold] ?? 0;
  // The GST owed is what the kept payments' splits say; the rest of the fee is commission.
  const gstPaise = Math.min(fact.earned.gstPaise, feePaise);
  const commissionPaise = feePaise - gstPaise;
  const legs = [
    ...(artistPaise > 0 ? [{ from: accounts.artist_hold, to: released, amount: artistPaise }] : []),
    ...(commissionPaise > 0
      ? [
          {
            from: accounts.fee_unearned,
            to: PLATFORM_ACCOUNTS.commission.id,
            amount: commissionPaise,
          },
        ]
      : []),
    ...(gstPaise > 0
      ? [{ from: accounts.fee_unearned, to: PLATFORM_ACCOUNTS.gstOutput.id, amount: gstPaise }]
      : []),
    ...(tdsPaise > 0
      ? [{ from: accounts.tds_hold, to: PLATFORM_ACCOUNTS.tdsPayable.id, amount: tdsPaise }]
      : []),
  ];
  if (legs.length > 0)
    await postLedger(tx, {
      key: `release:${fact.bookingId}`,
      kind: "release",
      bookingId: fact.bookingId,
      at: fact.at,
      source: fact.source,
      legs,
    });
  return { artistPaise, commissionPaise, gstPaise, tdsPaise };
}
