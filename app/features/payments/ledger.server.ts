/**
 * The books: an append-only double-entry ledger whose rules the database enforces (migration
 * 0018, decision 050, design money-and-terms §4). `postLedger` is the one way to move money in the
 * books; it calls `ledger_post()`, the only writer. Nothing here decides *whether* money moves:
 * callers do, in the transaction of the business fact, with that fact's key.
 */
import { asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { assertPaise, type Paise } from "~/lib/money";
import { type Queryable, queryRows } from "~db/client";
import { ledgerAccounts } from "~db/schema";
import {
  artistReleasedAccount,
  BOOKING_ACCOUNT_PARTS,
  type BookingAccountPart,
  bookingAccount,
  type LedgerAccountKind,
  type LedgerTxnKind,
} from "./ledger-accounts";

export type LedgerLeg = { from: string; to: string; amount: Paise };

export type LedgerPosting = {
  /** One business fact, one key (`capture:pay_…`, `split:pay_…`): posting it again is a no-op. */
  key: string;
  kind: LedgerTxnKind;
  bookingId: string | null;
  /** The provider's or the clock's time of the fact, never "now" at posting. */
  at: Date;
  /** `event:<provider event id>`, `command:<id>`, `job:<name>` or `admin:<user id>`. */
  source: string;
  legs: readonly LedgerLeg[];
  /** The transaction this one corrects. */
  reverses?: string;
};

export type LedgerAccount = {
  id: string;
  kind: LedgerAccountKind;
  allowNegative: boolean;
  balance: Paise;
};

/** Legs in one order (by from, to, amount): the same legs always make the same digest. */
function canonicalLegs(legs: readonly LedgerLeg[]): LedgerLeg[] {
  const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return legs
    .map(({ from, to, amount }) => ({ from, to, amount }))
    .sort((a, b) => byCodePoint(a.from, b.from) || byCodePoint(a.to, b.to) || a.amount - b.amount);
}

/**
 * Posts one transaction and returns its id; with a key already posted, returns the first id and
 * changes nothing, or throws if the legs differ. An overdraft of an account that may not go below
 * zero throws and leaves nothing behind (in a transaction of the caller's, that aborts it).
 */
export async function postLedger(tx: Queryable, posting: LedgerPosting): Promise<string> {
  const [id] = await postLedgerInOrder(tx, [posting]);
  if (!id) throw new Error(`ledger_post returned nothing for ${posting.key}`);
  return id;
}

/** The call that posts one transaction, its arguments checked. */
function ledgerPostCall(posting: LedgerPosting) {
  if (posting.key.trim() === "") throw new TypeError("A ledger posting needs a key");
  if (posting.legs.length === 0) throw new TypeError(`Ledger posting ${posting.key} has no legs`);
  for (const leg of posting.legs) {
    assertPaise(leg.amount, `Ledger amount (${posting.key})`);
    if (leg.amount <= 0) throw new TypeError(`Ledger amount must be above 0: ${leg.amount}`);
    if (leg.from === leg.to) throw new TypeError(`Ledger leg from ${leg.from} to itself`);
  }
  const legs = JSON.stringify(canonicalLegs(posting.legs));
  return sql`ledger_post(${posting.key}, ${posting.kind}, ${posting.bookingId}::uuid,
      ${posting.at.toISOString()}::timestamptz, ${posting.source}, ${legs}::jsonb,
      ${posting.reverses ?? null}::uuid)`;
}

/**
 * Posts several transactions in one statement, each after the one before (a chain of CTEs, each
 * reading the previous: `ledger_post` is volatile, so each sees what the earlier ones wrote), and
 * returns their ids in order. One round trip where a fact posts more than one transaction.
 */
export async function postLedgerInOrder(
  tx: Queryable,
  postings: readonly LedgerPosting[],
  options: { openBookingAccounts?: string } = {},
): Promise<string[]> {
  if (postings.length === 0) return [];
  // The booking's accounts opened first in the same statement: the first posting reads the
  // opening's count, so it runs after it, and `ledger_post` (volatile) sees the new rows.
  const opening = options.openBookingAccounts
    ? sql`opened AS (${bookingAccountsOpening(options.openBookingAccounts)} RETURNING 1), `
    : sql``;
  const after = options.openBookingAccounts ? sql` FROM (SELECT count(*) FROM opened) o` : sql``;
  const steps = postings.map((posting, n) =>
    n === 0
      ? sql`${opening}p0 AS MATERIALIZED (SELECT ${ledgerPostCall(posting)} AS id${after})`
      : sql`${sql.raw(`p${n}`)} AS MATERIALIZED (SELECT ${ledgerPostCall(posting)} AS id FROM ${sql.raw(`p${n - 1}`)})`,
  );
  const ids = postings.map((_, n) => sql.raw(`p${n}.id::text AS id${n}`));
  const from = postings.map((_, n) => sql.raw(`p${n}`));
  const [row] = await queryRows<Record<string, string>>(
    tx,
    sql`WITH ${sql.join(steps, sql`, `)} SELECT ${sql.join(ids, sql`, `)} FROM ${sql.join(from, sql`, `)}`,
  );
  if (!row) throw new Error(`ledger_post returned nothing for ${postings[0]?.key}`);
  return postings.map((_, n) => row[`id${n}`] as string);
}

/** Opens a booking's five accounts (idempotent) and returns their ids by part. */
export async function ensureBookingAccounts(
  tx: Queryable,
  bookingId: string,
): Promise<Record<BookingAccountPart, string>> {
  await tx.execute(bookingAccountsOpening(bookingId));
  return bookingAccountIds(bookingId);
}

/** A booking's five account ids by part. */
export function bookingAccountIds(bookingId: string): Record<BookingAccountPart, string> {
  return Object.fromEntries(
    BOOKING_ACCOUNT_PARTS.map((part) => [part, bookingAccount(bookingId, part)]),
  ) as Record<BookingAccountPart, string>;
}

/** The INSERT that opens a booking's five accounts (idempotent), for a statement of the caller's. */
function bookingAccountsOpening(bookingId: string): SQL {
  const rows = Object.values(bookingAccountIds(bookingId)).map(
    (id) => sql`(${id}, 'liability', ${bookingId}::uuid)`,
  );
  return sql`INSERT INTO ledger_accounts (id, kind, booking_id) VALUES ${sql.join(rows, sql`, `)}
    ON CONFLICT (id) DO NOTHING`;
}

/** Opens an artist's `released` account (idempotent) and returns its id. */
export async function ensureArtistAccounts(
  tx: Queryable,
  artistProfileId: string,
): Promise<{ released: string }> {
  const released = artistReleasedAccount(artistProfileId);
  await tx
    .insert(ledgerAccounts)
    .values({ id: released, kind: "liability", artistProfileId })
    .onConflictDoNothing();
  return { released };
}

/** The balances of these accounts, by id; an account that does not exist is left out. */
export async function accountBalances(
  db: Queryable,
  ids: readonly string[],
): Promise<Record<string, Paise>> {
  if (ids.length === 0) return {};
  const rows = await db
    .select({ id: ledgerAccounts.id, balance: ledgerAccounts.balance })
    .from(ledgerAccounts)
    .where(inArray(ledgerAccounts.id, [...ids]));
  return Object.fromEntries(rows.map((row) => [row.id, Number(row.balance)]));
}

/** A booking's accounts with their balances: all at 0 once the booking is closed (L7). */
export async function bookingAccountsOf(
  db: Queryable,
  bookingId: string,
): Promise<LedgerAccount[]> {
  const rows = await db
    .select({
      id: ledgerAccounts.id,
      kind: ledgerAccounts.kind,
      allowNegative: ledgerAccounts.allowNegative,
      balance: ledgerAccounts.balance,
    })
    .from(ledgerAccounts)
    .where(eq(ledgerAccounts.bookingId, bookingId))
    .orderBy(asc(ledgerAccounts.id));
  return rows.map((row) => ({ ...row, balance: Number(row.balance) }));
}

export type LedgerIntegrity = {
  /** L1: the sum of every balance, 0 in sound books. */
  sumOfBalances: Paise;
  /** L6: accounts whose balance is not their inflow legs minus their outflow legs. */
  mismatched: { account: string; balance: Paise; fromLegs: Paise }[];
};

/** The report's first section (§4.6): what the books say about themselves. */
export async function ledgerIntegrity(db: Queryable): Promise<LedgerIntegrity> {
  // Sums come back as numeric (text on node-postgres); each fits a safe integer by far.
  const [total] = await queryRows<{ sum: string | number }>(
    db,
    sql`SELECT coalesce(sum(balance), 0) AS sum FROM ledger_accounts`,
  );
  const mismatched = await queryRows<{
    account: string;
    balance: string | number;
    from_legs: string | number;
  }>(
    db,
    sql`WITH moves AS (
        SELECT to_account AS account, amount FROM ledger_legs
        UNION ALL
        SELECT from_account, -amount FROM ledger_legs
      )
      SELECT a.id AS account, a.balance, coalesce(sum(m.amount), 0) AS from_legs
      FROM ledger_accounts a LEFT JOIN moves m ON m.account = a.id
      GROUP BY a.id, a.balance
      HAVING a.balance <> coalesce(sum(m.amount), 0)
      ORDER BY a.id`,
  );
  return {
    sumOfBalances: Number(total?.sum ?? 0),
    mismatched: mismatched.map((row) => ({
      account: row.account,
      balance: Number(row.balance),
      fromLegs: Number(row.from_legs),
    })),
  };
}

export type LedgerLine = {
  key: string;
  kind: string;
  at: Date;
  from: string;
  to: string;
  amountPaise: number;
};

/** A booking's ledger lines, one per leg, oldest first (the operator's desk). */
export async function ledgerLinesOf(db: Queryable, bookingId: string): Promise<LedgerLine[]> {
  const rows = await queryRows<LedgerLine & { at: Date | string; amountPaise: string | number }>(
    db,
    sql`SELECT t.idempotency_key AS key, t.kind, t.effective_at AS at, l.from_account AS "from",
          l.to_account AS "to", l.amount AS "amountPaise"
        FROM ledger_txns t JOIN ledger_legs l ON l.txn_id = t.id
        WHERE t.booking_id = ${bookingId} ORDER BY t.effective_at, t.id, l.from_account`,
  );
  return rows.map((r) => ({ ...r, at: new Date(r.at), amountPaise: Number(r.amountPaise) }));
}
