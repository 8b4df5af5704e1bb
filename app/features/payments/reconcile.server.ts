/**
 * The daily reconciliation report (design money-and-terms §4.6, issue 41): what the books say about
 * themselves, the day's money by account, bookings that should be closed and are not, what waits
 * too long, and every provider object of the day asked about. It ends with the unexplained
 * difference: the sum of the absolute amounts of every money difference it found, ₹0.00 when the
 * books, the bookings and the provider agree. Read-only: it changes nothing anywhere.
 */
import { type SQL, sql } from "drizzle-orm";
import { addDays, type IsoDate, isIsoDate, todayIn, zonedDateTimeToUtc } from "~/lib/dates";
import type { Env } from "~/lib/env.server";
import type { Paise } from "~/lib/money";
import { formatPaise } from "~/lib/money-text";
import { type Queryable, queryRows } from "~db/client";
import { type LedgerIntegrity, ledgerIntegrity } from "./ledger.server";
import { PLATFORM_ACCOUNTS } from "./ledger-accounts";
import {
  type PaymentProvider,
  ProviderError,
  type ProviderRefund,
  type ProviderTransfer,
} from "./payment-provider";
import { paymentProviderOf } from "./provider.server";
import { RazorpayRefundSchema, RazorpayTransferSchema } from "./razorpay-schemas";

export const DEFAULT_TIME_ZONE = "Asia/Kolkata";
/** Open-item thresholds (§4.6): a payment request, a command and a payout release. */
export const INTENT_PENDING_MINUTES = 15;
export const COMMAND_OPEN_MINUTES = 10;
export const RELEASE_OVERDUE_HOURS = 6;
/** At most this many provider objects are fetched for one report: the day's, never everything. */
export const MAX_PROVIDER_OBJECTS = 2_000;

/**
 * What the report asks the provider: the port's `fetchPayment`, and reads of a transfer and a
 * refund, which the port does not have yet (`reconcileProviderOf` adds them over the same API).
 * Without them those objects are not matched, and the report says so.
 */
export type ReconcileProvider = Pick<PaymentProvider, "fetchPayment"> & {
  fetchTransfer?: (
    id: string,
  ) => Promise<Pick<ProviderTransfer, "id" | "amount" | "amountReversed" | "onHold" | "status">>;
  fetchRefund?: (id: string) => Promise<Pick<ProviderRefund, "id" | "amount" | "status">>;
};

/**
 * The provider the report asks, for this environment (null when payments are off): the port's
 * client, plus read-only GETs of a transfer and a refund on the same API with the same key.
 */
export function reconcileProviderOf(
  env: Pick<Env, "payments">,
  timeoutMs = 10_000,
): ReconcileProvider | null {
  const port = paymentProviderOf(env);
  const config = env.payments;
  if (!port || config.mode === "off") return null;
  const root = config.apiBase.replace(/\/+$/, "");
  const auth = `Basic ${Buffer.from(`${config.keyId}:${config.keySecret}`).toString("base64")}`;
  async function get(path: string): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${root}${path}`, {
        headers: { Authorization: auth, Accept: "application/json" },
        redirect: "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ProviderError("retryable", `Razorpay GET ${path}: no answer`, null, null, {
        cause: error,
      });
    }
    const body = await response.json().catch(() => null);
    if (!response.ok) {
      const description =
        (body as { error?: { description?: string } } | null)?.error?.description ?? "";
      throw new ProviderError(
        response.status >= 500 ? "retryable" : "refused",
        `Razorpay GET ${path}: ${response.status} ${description}`.trim(),
        response.status,
      );
    }
    return body;
  }
  const id = (value: string) => encodeURIComponent(value);
  return {
    fetchPayment: (paymentId) => port.fetchPayment(paymentId),
    async fetchTransfer(transferId) {
      const t = RazorpayTransferSchema.parse(await get(`/v1/transfers/${id(transferId)}`));
      return {
        id: t.id,
        amount: t.amount,
        amountReversed: t.amount_reversed,
        onHold: t.on_hold,
        status: t.status,
      };
    },
    async fetchRefund(refundId) {
      const r = RazorpayRefundSchema.parse(await get(`/v1/refunds/${id(refundId)}`));
      return { id: r.id, amount: r.amount, status: r.status };
    },
  };
}

export type DayMoney = { account: string; inflowPaise: Paise; outflowPaise: Paise; legs: number };

export type ClosureResidue = {
  bookingId: string;
  account: string;
  balancePaise: Paise;
  /** A command for the booking is still open: the money is on its way, not lost. */
  inProgress: boolean;
};

export type OpenItemCategory =
  | "intent_pending"
  | "command_open"
  | "release_overdue"
  | "event_mismatch"
  | "event_orphan"
  | "event_unprocessed";

export type OpenItem = {
  category: OpenItemCategory;
  bookingId: string | null;
  /** Our row or the provider's object: intent id, command id, event id. */
  object: string;
  detail: string;
  since: string;
};

export type ProviderDifferenceCategory =
  | "amount_mismatch"
  | "status_mismatch"
  | "missing_at_provider"
  | "missing_in_ledger";

export type ProviderDifference = {
  category: ProviderDifferenceCategory;
  bookingId: string;
  /** The provider's object id (`pay_…`, `trf_…`, `rfnd_…`). */
  object: string;
  field: string;
  ours: string;
  theirs: string;
  /** The money this difference leaves unexplained (0 for a status). */
  differencePaise: Paise;
};

export type ReconciliationReport = {
  day: IsoDate;
  timeZone: string;
  generatedAt: string;
  integrity: LedgerIntegrity & { ok: boolean };
  money: {
    /** The day's legs per account (per-booking and per-artist accounts summed by their part). */
    byAccount: DayMoney[];
    /** Platform and world accounts at the end of the day. */
    closing: { account: string; balancePaise: Paise }[];
  };
  closure: ClosureResidue[];
  openItems: OpenItem[];
  providerMatch: {
    /** Why the provider was not asked (no provider, not reachable); null when it was. */
    skipped: string | null;
    notes: string[];
    checked: number;
    differences: ProviderDifference[];
  };
  cash: {
    /** Net money into the provider on the day by our books (world:razorpay outflows − inflows). */
    oursPaise: Paise;
    /** The provider's captured − refunded for the same objects; null when not asked. */
    providerPaise: Paise | null;
    differencePaise: Paise | null;
  };
  unexplainedPaise: Paise;
  /** Nothing unexplained, no integrity problem, nothing open, no provider difference. */
  clean: boolean;
};

export type ReportOptions = {
  /** The day (YYYY-MM-DD, in `timeZone`); today by `now` when not given. */
  day?: string;
  /** The app's clock, for "today" and overdue releases; real time when not given. */
  now?: Date;
  timeZone?: string;
};

/** Whether an account column names the provider's world account, any of its shards (decision 057). */
const isProviderAccount = (column: SQL) =>
  sql`(${column} = ${PLATFORM_ACCOUNTS.razorpay.id} OR ${column} LIKE ${`${PLATFORM_ACCOUNTS.razorpay.id}:%`})`;
const SUSPENSE = PLATFORM_ACCOUNTS.suspense.id;
const num = (value: string | number | null | undefined) => Number(value ?? 0);
const iso = (value: Date | string) => new Date(value).toISOString();

export async function reconciliationReport(
  db: Queryable,
  provider: ReconcileProvider | null,
  options: ReportOptions = {},
): Promise<ReconciliationReport> {
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
  const now = options.now ?? new Date();
  const day = options.day ?? todayIn(timeZone, now);
  if (!isIsoDate(day)) throw new TypeError(`Not a day (YYYY-MM-DD): ${day}`);
  const from = zonedDateTimeToUtc(day, "00:00", timeZone).toISOString();
  const to = zonedDateTimeToUtc(addDays(day, 1), "00:00", timeZone).toISOString();

  const integrity = await ledgerIntegrity(db);
  const money = await dayMoney(db, from, to);
  const closure = await closureResidues(db);
  const openItems = await openItemsOf(db, now, from, to);
  const providerMatch = await matchProvider(db, provider, from, to);
  const cash = cashLine(providerMatch.cashOurs, providerMatch.cashTheirs);
  const suspense = money.closing.find((a) => a.account === SUSPENSE)?.balancePaise ?? 0;

  const unexplainedPaise =
    Math.abs(integrity.sumOfBalances) +
    integrity.mismatched.reduce((sum, m) => sum + Math.abs(m.balance - m.fromLegs), 0) +
    closure.filter((c) => !c.inProgress).reduce((sum, c) => sum + Math.abs(c.balancePaise), 0) +
    providerMatch.differences.reduce((sum, d) => sum + d.differencePaise, 0) +
    Math.abs(suspense);
  const integrityOk = integrity.sumOfBalances === 0 && integrity.mismatched.length === 0;
  return {
    day,
    timeZone,
    generatedAt: now.toISOString(),
    integrity: { ...integrity, ok: integrityOk },
    money,
    closure,
    openItems,
    providerMatch: {
      skipped: providerMatch.skipped,
      notes: providerMatch.notes,
      checked: providerMatch.checked,
      differences: providerMatch.differences,
    },
    cash,
    unexplainedPaise,
    clean:
      unexplainedPaise === 0 &&
      integrityOk &&
      closure.length === 0 &&
      openItems.length === 0 &&
      providerMatch.differences.length === 0 &&
      (cash.differencePaise ?? 0) === 0,
  };
}

/** A world account's shard (`world:razorpay:c`), reported as the account itself. */
const SHARD_SUFFIX = "^(world:[^:]+):[a-z]$";

/** (b) The day's legs by account, and the platform's and the world's balances at its end. */
async function dayMoney(db: Queryable, from: string, to: string) {
  const rows = await queryRows<{
    account: string;
    inflow: string | number;
    outflow: string | number;
    legs: string | number;
  }>(
    db,
    sql`WITH day_legs AS (
          SELECT l.from_account, l.to_account, l.amount FROM ledger_legs l
          JOIN ledger_txns t ON t.id = l.txn_id
          WHERE t.effective_at >= ${from}::timestamptz AND t.effective_at < ${to}::timestamptz
        ), moves AS (
          SELECT to_account AS account, amount AS inflow, 0::bigint AS outflow FROM day_legs
          UNION ALL
          SELECT from_account, 0::bigint, amount FROM day_legs
        )
        SELECT regexp_replace(regexp_replace(account, '^(booking|artist):[^:]+:', '\\1:*:'),
            ${SHARD_SUFFIX}, '\\1') AS account,
          sum(inflow) AS inflow, sum(outflow) AS outflow, count(*) AS legs
        FROM moves GROUP BY 1 ORDER BY 1`,
  );
  // The balance at the end of the day: today's balance less what moved after the day.
  const closing = await queryRows<{ account: string; balance: string | number }>(
    db,
    sql`WITH later AS (
          SELECT l.from_account, l.to_account, l.amount FROM ledger_legs l
          JOIN ledger_txns t ON t.id = l.txn_id WHERE t.effective_at >= ${to}::timestamptz
        )
        SELECT regexp_replace(a.id, ${SHARD_SUFFIX}, '\\1') AS account, sum(a.balance
          - coalesce((SELECT sum(amount) FROM later WHERE to_account = a.id), 0)
          + coalesce((SELECT sum(amount) FROM later WHERE from_account = a.id), 0)) AS balance
        FROM ledger_accounts a WHERE a.id LIKE 'world:%' OR a.id LIKE 'platform:%'
        GROUP BY 1 ORDER BY 1`,
  );
  return {
    byAccount: rows.map((r) => ({
      account: r.account,
      inflowPaise: num(r.inflow),
      outflowPaise: num(r.outflow),
      legs: num(r.legs),
    })),
    closing: closing.map((r) => ({ account: r.account, balancePaise: num(r.balance) })),
  };
}

/** (c) L7: a cancelled booking, or one whose payout was released, holds nothing any more. */
async function closureResidues(db: Queryable): Promise<ClosureResidue[]> {
  const rows = await queryRows<{
    bookingId: string;
    account: string;
    balance: string | number;
    inProgress: boolean;
  }>(
    db,
    sql`SELECT b.id AS "bookingId", a.id AS account, a.balance,
          EXISTS (SELECT 1 FROM provider_commands c WHERE c.booking_id = b.id
            AND c.status = 'pending') AS "inProgress"
        FROM bookings b JOIN ledger_accounts a ON a.booking_id = b.id
        WHERE (b.status = 'cancelled' OR b.payout_released_at IS NOT NULL) AND a.balance <> 0
        ORDER BY b.id, a.id`,
  );
  return rows.map((r) => ({
    bookingId: r.bookingId,
    account: r.account,
    balancePaise: num(r.balance),
    inProgress: r.inProgress,
  }));
}

/**
 * (d) What waits too long. Rows stamped by the database (`updated_at`, `created_at`) are aged by
 * the database's time, as the reconciler does; a payout's `release_at` is by the app's clock.
 */
async function openItemsOf(db: Queryable, now: Date, from: string, to: string) {
  const items: OpenItem[] = [];
  const intents = await queryRows<{
    id: string;
    bookingId: string;
    purpose: string;
    amount: string | number;
    since: Date | string;
  }>(
    db,
    sql`SELECT id, booking_id AS "bookingId", purpose, amount_paise AS amount, updated_at AS since
        FROM payment_intents WHERE status = 'pending'
          AND updated_at < now() - make_interval(mins => ${INTENT_PENDING_MINUTES})
        ORDER BY updated_at LIMIT 500`,
  );
  for (const i of intents)
    items.push({
      category: "intent_pending",
      bookingId: i.bookingId,
      object: i.id,
      detail: `${i.purpose} ${formatPaise(num(i.amount))} pending over ${INTENT_PENDING_MINUTES} min`,
      since: iso(i.since),
    });
  const commands = await queryRows<{
    id: string;
    bookingId: string;
    kind: string;
    status: string;
    attempts: number;
    lastError: string | null;
    since: Date | string;
  }>(
    db,
    sql`SELECT id, booking_id AS "bookingId", kind, status, attempts, last_error AS "lastError",
          created_at AS since
        FROM provider_commands
        WHERE status = 'needs_attention' OR (status <> 'succeeded'
          AND created_at < now() - make_interval(mins => ${COMMAND_OPEN_MINUTES}))
        ORDER BY created_at LIMIT 500`,
  );
  for (const c of commands)
    items.push({
      category: "command_open",
      bookingId: c.bookingId,
      object: c.id,
      detail: `${c.kind} ${c.status} after ${c.attempts} attempt(s)${c.lastError ? `: ${c.lastError.slice(0, 80)}` : ""}`,
      since: iso(c.since),
    });
  const releases = await queryRows<{ id: string; releaseAt: Date | string }>(
    db,
    sql`SELECT b.id, b.release_at AS "releaseAt" FROM bookings b
        WHERE b.release_at + make_interval(hours => ${RELEASE_OVERDUE_HOURS}) < ${now.toISOString()}::timestamptz
          AND b.payout_released_at IS NULL AND b.status IN ('confirmed', 'completed')
          AND EXISTS (SELECT 1 FROM provider_transfers t WHERE t.booking_id = b.id
            AND t.released_at IS NULL AND t.amount_paise > t.reversed_paise)
        ORDER BY b.release_at LIMIT 500`,
  );
  for (const r of releases)
    items.push({
      category: "release_overdue",
      bookingId: r.id,
      object: r.id,
      detail: `payout due at ${iso(r.releaseAt)} not released after ${RELEASE_OVERDUE_HOURS} h`,
      since: iso(r.releaseAt),
    });
  const events = await queryRows<{
    eventId: string;
    eventType: string;
    outcome: string | null;
    rawBody: string;
    since: Date | string;
  }>(
    db,
    sql`SELECT event_id AS "eventId", event_type AS "eventType", outcome,
          left(raw_body, 4000) AS "rawBody", received_at AS since
        FROM provider_events
        WHERE (outcome IN ('mismatch', 'orphan')
            AND received_at >= ${from}::timestamptz AND received_at < ${to}::timestamptz)
          OR (processed_at IS NULL
            AND received_at < now() - make_interval(mins => ${COMMAND_OPEN_MINUTES}))
        ORDER BY received_at LIMIT 500`,
  );
  for (const e of events) {
    const intentId = /"reference_id"\s*:\s*"([0-9a-f-]{36})"/.exec(e.rawBody)?.[1] ?? null;
    const [intent] = intentId
      ? await queryRows<{ bookingId: string }>(
          db,
          sql`SELECT booking_id AS "bookingId" FROM payment_intents WHERE id = ${intentId}`,
        )
      : [];
    items.push({
      category:
        e.outcome === "mismatch"
          ? "event_mismatch"
          : e.outcome === "orphan"
            ? "event_orphan"
            : "event_unprocessed",
      bookingId: intent?.bookingId ?? null,
      object: e.eventId,
      detail: `${e.eventType}${intentId ? ` for intent ${intentId}` : ""}`,
      since: iso(e.since),
    });
  }
  return items;
}

type Cash = { ours: number; theirs: number; unknown: boolean };

/**
 * (e) Each provider object of the bookings the day touched, fetched and compared with our rows,
 * and each one's ledger transaction looked up (L10). Also gathers (f)'s two sides.
 */
async function matchProvider(
  db: Queryable,
  provider: ReconcileProvider | null,
  from: string,
  to: string,
): Promise<{
  skipped: string | null;
  notes: string[];
  checked: number;
  differences: ProviderDifference[];
  cashOurs: number;
  cashTheirs: number | null;
}> {
  const notes: string[] = [];
  const differences: ProviderDifference[] = [];
  // The day's movements of the world account, by the ledger key that moved them.
  const worldMoves = await queryRows<{ key: string; net: string | number }>(
    db,
    sql`SELECT t.idempotency_key AS key,
          sum(CASE WHEN ${isProviderAccount(sql`l.from_account`)} THEN l.amount ELSE -l.amount END) AS net
        FROM ledger_txns t JOIN ledger_legs l ON l.txn_id = t.id
        WHERE t.effective_at >= ${from}::timestamptz AND t.effective_at < ${to}::timestamptz
          AND (${isProviderAccount(sql`l.from_account`)} OR ${isProviderAccount(sql`l.to_account`)})
        GROUP BY t.idempotency_key`,
  );
  const cashOurs = worldMoves.reduce((sum, m) => sum + num(m.net), 0);

  const touched = sql`(SELECT DISTINCT booking_id FROM ledger_txns
    WHERE booking_id IS NOT NULL AND effective_at >= ${from}::timestamptz
      AND effective_at < ${to}::timestamptz)`;
  const payments = await queryRows<{
    bookingId: string;
    paymentId: string;
    amount: string | number;
    refunded: string | number;
    status: string;
    posted: boolean;
  }>(
    db,
    sql`SELECT i.booking_id AS "bookingId", i.provider_payment_id AS "paymentId",
          i.amount_paise AS amount, i.refunded_paise AS refunded, i.status,
          EXISTS (SELECT 1 FROM ledger_txns t
            WHERE t.idempotency_key = 'capture:' || i.provider_payment_id) AS posted
        FROM payment_intents i
        WHERE i.provider_payment_id IS NOT NULL AND i.booking_id IN ${touched}
        ORDER BY i.booking_id, i.captured_at LIMIT ${MAX_PROVIDER_OBJECTS}`,
  );
  const transfers = await queryRows<{
    bookingId: string;
    id: string;
    amount: string | number;
    reversed: string | number;
    onHold: boolean;
    posted: boolean;
  }>(
    db,
    sql`SELECT p.booking_id AS "bookingId", p.id, p.amount_paise AS amount,
          p.reversed_paise AS reversed, p.on_hold AS "onHold",
          EXISTS (SELECT 1 FROM ledger_txns t WHERE t.idempotency_key = 'transfer:' || p.id) AS posted
        FROM provider_transfers p WHERE p.booking_id IN ${touched}
        ORDER BY p.booking_id, p.created_at LIMIT ${MAX_PROVIDER_OBJECTS}`,
  );
  const refunds = await queryRows<{
    bookingId: string;
    id: string;
    amount: string | number;
    posted: boolean;
  }>(
    db,
    sql`SELECT r.booking_id AS "bookingId", r.id, r.amount_paise AS amount,
          EXISTS (SELECT 1 FROM ledger_txns t WHERE t.idempotency_key = 'refund:' || r.id) AS posted
        FROM provider_refunds r WHERE r.booking_id IN ${touched}
        ORDER BY r.booking_id, r.created_at LIMIT ${MAX_PROVIDER_OBJECTS}`,
  );
  if ([payments, transfers, refunds].some((rows) => rows.length === MAX_PROVIDER_OBJECTS))
    notes.push(
      `more than ${MAX_PROVIDER_OBJECTS} objects of one kind: only the first were matched`,
    );

  // Our side first: every provider object we recorded has its ledger transaction.
  const missingInLedger = (bookingId: string, object: string, key: string, amount: number) =>
    differences.push({
      category: "missing_in_ledger",
      bookingId,
      object,
      field: key,
      ours: "no ledger transaction",
      theirs: formatPaise(amount),
      differencePaise: amount,
    });
  for (const p of payments)
    if (!p.posted) missingInLedger(p.bookingId, p.paymentId, "capture", num(p.amount));
  for (const t of transfers)
    if (!t.posted) missingInLedger(t.bookingId, t.id, "transfer", num(t.amount));
  for (const r of refunds)
    if (!r.posted) missingInLedger(r.bookingId, r.id, "refund", num(r.amount));

  if (!provider)
    return {
      skipped: "payments are off or no provider was given",
      notes,
      checked: 0,
      differences,
      cashOurs,
      cashTheirs: null,
    };

  const cash: Cash = { ours: cashOurs, theirs: 0, unknown: false };
  const capturedAt = new Map<string, number>();
  const refundedAt = new Map<string, number>();
  let checked = 0;
  try {
    for (const p of payments) {
      const theirs = await fetchOrMissing(() => provider.fetchPayment(p.paymentId));
      checked += 1;
      const ours = { amount: num(p.amount), refunded: num(p.refunded) };
      if (!theirs) {
        differences.push({
          category: "missing_at_provider",
          bookingId: p.bookingId,
          object: p.paymentId,
          field: "payment",
          ours: formatPaise(ours.amount),
          theirs: "not found",
          differencePaise: ours.amount,
        });
        continue;
      }
      capturedAt.set(p.paymentId, theirs.status === "failed" ? 0 : theirs.amount);
      compareAmount(differences, p.bookingId, p.paymentId, "amount", ours.amount, theirs.amount);
      compareAmount(
        differences,
        p.bookingId,
        p.paymentId,
        "amount refunded",
        ours.refunded,
        theirs.amountRefunded,
      );
      if (theirs.status !== "captured" && theirs.status !== "refunded")
        differences.push({
          category: "status_mismatch",
          bookingId: p.bookingId,
          object: p.paymentId,
          field: "status",
          ours: p.status,
          theirs: theirs.status,
          differencePaise: 0,
        });
    }
    if (transfers.length > 0 && !provider.fetchTransfer)
      notes.push("the provider given cannot read transfers: transfers not matched");
    for (const t of provider.fetchTransfer ? transfers : []) {
      const theirs = await fetchOrMissing(() => provider.fetchTransfer?.(t.id));
      checked += 1;
      const ours = { amount: num(t.amount), reversed: num(t.reversed) };
      if (!theirs) {
        differences.push({
          category: "missing_at_provider",
          bookingId: t.bookingId,
          object: t.id,
          field: "transfer",
          ours: formatPaise(ours.amount),
          theirs: "not found",
          differencePaise: ours.amount,
        });
        continue;
      }
      compareAmount(differences, t.bookingId, t.id, "amount", ours.amount, theirs.amount);
      compareAmount(
        differences,
        t.bookingId,
        t.id,
        "amount reversed",
        ours.reversed,
        theirs.amountReversed,
      );
      // A transfer reversed in full has nothing left to hold: its hold no longer matters.
      if (theirs.onHold !== t.onHold && theirs.amount > theirs.amountReversed)
        differences.push({
          category: "status_mismatch",
          bookingId: t.bookingId,
          object: t.id,
          field: "on hold",
          ours: String(t.onHold),
          theirs: String(theirs.onHold),
          differencePaise: 0,
        });
    }
    if (refunds.length > 0 && !provider.fetchRefund)
      notes.push("the provider given cannot read refunds: refunds not matched");
    for (const r of provider.fetchRefund ? refunds : []) {
      const theirs = await fetchOrMissing(() => provider.fetchRefund?.(r.id));
      checked += 1;
      const ours = num(r.amount);
      if (!theirs) {
        differences.push({
          category: "missing_at_provider",
          bookingId: r.bookingId,
          object: r.id,
          field: "refund",
          ours: formatPaise(ours),
          theirs: "not found",
          differencePaise: ours,
        });
        continue;
      }
      refundedAt.set(r.id, theirs.status === "failed" ? 0 : theirs.amount);
      compareAmount(differences, r.bookingId, r.id, "amount", ours, theirs.amount);
      if (theirs.status === "failed")
        differences.push({
          category: "status_mismatch",
          bookingId: r.bookingId,
          object: r.id,
          field: "status",
          ours: "refunded",
          theirs: theirs.status,
          differencePaise: 0,
        });
    }
  } catch (error) {
    if (error instanceof ProviderError && error.status === null)
      return {
        skipped: `provider not reachable: ${error.message}`,
        notes,
        checked,
        differences,
        cashOurs,
        cashTheirs: null,
      };
    throw error;
  }

  // (f) The provider's side of the same day's world movements.
  for (const move of worldMoves) {
    const [kind, id = ""] = splitKey(move.key);
    const captured = kind === "capture" ? capturedAt.get(id) : undefined;
    const refunded = kind === "refund" ? refundedAt.get(id) : undefined;
    if (captured !== undefined) cash.theirs += captured;
    else if (refunded !== undefined) cash.theirs -= refunded;
    else cash.unknown = true;
  }
  if (cash.unknown)
    notes.push("some of the day's world:razorpay movements have no provider object read here");
  return {
    skipped: null,
    notes,
    checked,
    differences,
    cashOurs,
    cashTheirs: cash.unknown ? null : cash.theirs,
  };
}

function splitKey(key: string): [string, string] {
  const at = key.indexOf(":");
  return at < 0 ? [key, ""] : [key.slice(0, at), key.slice(at + 1)];
}

function compareAmount(
  differences: ProviderDifference[],
  bookingId: string,
  object: string,
  field: string,
  ours: number,
  theirs: number,
) {
  if (ours === theirs) return;
  differences.push({
    category: "amount_mismatch",
    bookingId,
    object,
    field,
    ours: formatPaise(ours),
    theirs: formatPaise(theirs),
    differencePaise: Math.abs(theirs - ours),
  });
}

/** The object, or null when the provider says it does not exist (Razorpay answers 400 or 404). */
async function fetchOrMissing<T>(read: () => Promise<T> | undefined): Promise<T | null> {
  try {
    return (await read()) ?? null;
  } catch (error) {
    if (
      error instanceof ProviderError &&
      error.kind === "refused" &&
      (error.status === 404 || (error.status === 400 && /does not exist/i.test(error.message)))
    )
      return null;
    throw error;
  }
}

function cashLine(ours: number, theirs: number | null): ReconciliationReport["cash"] {
  return {
    oursPaise: ours,
    providerPaise: theirs,
    differencePaise: theirs === null ? null : theirs - ours,
  };
}

// ─── Text ─────────────────────────────────────────────────────────────────────────────────────

function table(headers: string[], rows: string[][], rightAligned: number[] = []): string {
  if (rows.length === 0) return "  (none)";
  const widths = headers.map((h, i) =>
    Math.max([...h].length, ...rows.map((r) => [...(r[i] ?? "")].length)),
  );
  const line = (cells: string[]) =>
    `  ${cells
      .map((cell, i) => {
        const pad = " ".repeat((widths[i] ?? 0) - [...cell].length);
        return rightAligned.includes(i) ? pad + cell : cell + pad;
      })
      .join("  ")
      .trimEnd()}`;
  return [line(headers), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** The report as plain text; its last line is `Unexplained difference: ₹…`. */
export function formatReport(report: ReconciliationReport): string {
  const out: string[] = [];
  out.push(`Reconciliation for ${report.day} (${report.timeZone}), at ${report.generatedAt}`, "");

  out.push("1. Ledger integrity");
  out.push(`  Sum of all balances: ${formatPaise(report.integrity.sumOfBalances)}`);
  out.push(
    table(
      ["account", "balance", "from legs"],
      report.integrity.mismatched.map((m) => [
        m.account,
        formatPaise(m.balance),
        formatPaise(m.fromLegs),
      ]),
      [1, 2],
    ),
    "",
  );

  out.push("2. The day's money by account");
  out.push(
    table(
      ["account", "in", "out", "net", "legs"],
      report.money.byAccount.map((a) => [
        a.account,
        formatPaise(a.inflowPaise),
        formatPaise(a.outflowPaise),
        formatPaise(a.inflowPaise - a.outflowPaise),
        String(a.legs),
      ]),
      [1, 2, 3, 4],
    ),
  );
  out.push("  Closing balances:");
  out.push(
    table(
      ["account", "balance"],
      report.money.closing.map((a) => [a.account, formatPaise(a.balancePaise)]),
      [1],
    ),
    "",
  );

  out.push("3. Booking closure (cancelled or released bookings holding money)");
  out.push(
    table(
      ["booking", "account", "balance", "note"],
      report.closure.map((c) => [
        c.bookingId,
        c.account.split(":").at(-1) ?? c.account,
        formatPaise(c.balancePaise),
        c.inProgress ? "command open" : "",
      ]),
      [2],
    ),
    "",
  );

  out.push("4. Open items");
  out.push(
    table(
      ["category", "booking", "object", "since", "detail"],
      report.openItems.map((i) => [i.category, i.bookingId ?? "-", i.object, i.since, i.detail]),
    ),
    "",
  );

  out.push("5. Provider match");
  if (report.providerMatch.skipped) out.push(`  Skipped: ${report.providerMatch.skipped}`);
  else out.push(`  Objects asked: ${report.providerMatch.checked}`);
  for (const note of report.providerMatch.notes) out.push(`  Note: ${note}`);
  out.push(
    table(
      ["category", "booking", "object", "field", "ours", "provider"],
      report.providerMatch.differences.map((d) => [
        d.category,
        d.bookingId,
        d.object,
        d.field,
        d.ours,
        d.theirs,
      ]),
    ),
    "",
  );

  out.push("6. Cash");
  out.push(
    `  Into the provider by our books (world:razorpay): ${formatPaise(report.cash.oursPaise)}`,
  );
  out.push(
    `  Provider's captured − refunded, same objects:     ${
      report.cash.providerPaise === null ? "not asked" : formatPaise(report.cash.providerPaise)
    }`,
  );
  if (report.cash.differencePaise !== null)
    out.push(
      `  Difference:                                       ${formatPaise(report.cash.differencePaise)}`,
    );
  out.push("");
  out.push(`Unexplained difference: ${formatPaise(report.unexplainedPaise)}`);
  return out.join("\n");
}

/** Whether the report passes: nothing unexplained and sound books (the CLI's exit code). */
export const reportPasses = (report: ReconciliationReport) =>
  report.unexplainedPaise === 0 && report.integrity.ok;
