import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { formatWallClock } from "~/lib/dates";
import { formatPaise } from "~/lib/money-text";
import type { MoneyEventKind } from "./money-events.server";
import type { MoneyView } from "./money-view.server";

type Props = {
  bookingId: string;
  money: MoneyView;
  isArtist: boolean;
  status: string;
  timeZone: string;
  busy: boolean;
};

const PAY_WORDS = { deposit: "Pay deposit", balance: "Pay balance", full: "Pay in full" } as const;

/** The timeline's words for each money event, as both parties read them. */
const MONEY_EVENT_WORDS: Record<MoneyEventKind, string> = {
  deposit_requested: "Payment requested to confirm the booking",
  balance_requested: "Balance requested",
  payment_received: "Payment received",
  payment_failed: "A payment attempt failed; nothing was taken",
  payout_held: "Artist's share held until 48 hours after the event",
  payout_released: "Payout released to the artist",
  refund_started: "Refund decided by the cancellation policy",
  refund_paid: "Refund sent",
  automatic_refund: "Payment refunded in full: the booking could no longer take it",
  balance_reminder: "Balance reminder sent",
  more_time_given: "The artist gave more time for the balance",
  cancelled_for_non_payment: "Cancelled: not paid in time",
  problem_reported: "A problem was reported: the payout is on hold",
  problem_answered: "The other party answered the problem report",
  problem_decided: "GigLedger decided the problem report",
};

/** The timeline's words for one event: a refund says whose cancellation decided it. */
function moneyEventWords(event: MoneyView["events"][number]): string {
  if (event.kind === "refund_started" && event.reason === "artist_cancelled")
    return "Full refund: the artist cancelled";
  if (event.kind === "refund_started" && event.reason === "non_payment")
    return "Refund decided by the cancellation policy, valued at the balance's due date";
  if (event.kind === "refund_started" && event.reason?.startsWith("problem:"))
    return "Refund decided by GigLedger on the problem report";
  return MONEY_EVENT_WORDS[event.kind];
}

/**
 * The booking's money on its page (docs/product.md, "Payments"): what is due with its button for
 * the client, what was paid, refunded, held and released with dates, and the timeline. A plain
 * form posts "Pay", so it works without JavaScript.
 */
export function MoneyPanel({ bookingId, money, isArtist, status, timeZone, busy }: Props) {
  const at = (iso: string) => formatWallClock(iso, timeZone, { withZone: true });
  const { due } = money;
  return (
    <Card as="section" aria-labelledby="money-title">
      <h2 id="money-title" className="text-lg font-semibold">
        Payments
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {status === "cancelled"
          ? "Paid through GigLedger: this booking was cancelled, and what the agreed policy gives back is refunded to the client."
          : "Paid through GigLedger: the money is held by our payment provider and reaches the artist 48 hours after the event ends, unless a problem is reported."}
        {isArtist && money.commissionBps > 0 && status !== "cancelled"
          ? ` GigLedger's commission of ${money.commissionBps / 100} % plus GST on it comes out of your share; the client pays exactly the agreed total.`
          : ""}
      </p>
      {due && !isArtist ? (
        <div className="mt-4 rounded-xl border border-brand-200 bg-brand-50 p-4">
          <p className="font-semibold">
            {due.purpose === "balance"
              ? `Balance of ${formatPaise(due.amountPaise)} due by ${at(due.dueAt)}`
              : due.purpose === "full"
                ? `${formatPaise(due.amountPaise)} due now: the event is close, so the whole amount confirms it`
                : `Deposit of ${formatPaise(due.amountPaise)} due now to confirm the booking`}
          </p>
          {status === "awaiting_deposit" ? (
            <p className="mt-1 text-sm text-slate-700">
              The date is not held for you until the payment arrives.
            </p>
          ) : null}
          <Form method="post" action={`/bookings/${bookingId}/pay`} className="mt-3">
            <Button type="submit" disabled={busy}>
              {PAY_WORDS[due.purpose]} {formatPaise(due.amountPaise)}
            </Button>
          </Form>
        </div>
      ) : null}
      {due && isArtist ? (
        <p className="mt-4 rounded-xl bg-slate-50 p-3 text-sm">
          {due.purpose === "balance"
            ? `The client's balance of ${formatPaise(due.amountPaise)} is due by ${at(due.dueAt)}.`
            : `Waiting for the client's payment of ${formatPaise(due.amountPaise)}; the booking is confirmed when it arrives.`}
        </p>
      ) : null}
      {due?.overdue && isArtist ? (
        <div className="mt-3 space-y-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm">
          <p>
            The balance is overdue. You may cancel for non-payment (valued as the client's
            cancellation on the due date) or give the client more time.
          </p>
          <Form method="post" className="flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="moreTime" />
            <label className="flex flex-col gap-1">
              <span className="font-medium">New due date</span>
              <input
                type="date"
                name="dueDate"
                required
                className="rounded-lg border border-slate-300 px-3 py-2"
              />
            </label>
            <Button type="submit" variant="secondary" disabled={busy}>
              Give more time
            </Button>
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="cancelNonPayment" />
            <Button type="submit" variant="destructive" disabled={busy}>
              Cancel for non-payment
            </Button>
          </Form>
        </div>
      ) : null}
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <div className="flex justify-between gap-3">
          <dt className="text-slate-600">Paid by the client</dt>
          <dd className="font-semibold tabular-nums">{formatPaise(money.paidPaise)}</dd>
        </div>
        {money.refundedPaise > 0 || money.refundInProgress ? (
          <div className="flex justify-between gap-3">
            <dt className="text-slate-600">Refunded</dt>
            <dd className="font-semibold tabular-nums">
              {formatPaise(money.refundedPaise)}
              {money.refundInProgress ? " (refund in progress)" : ""}
            </dd>
          </div>
        ) : null}
        {money.heldPaise > 0 ? (
          <div className="flex justify-between gap-3">
            <dt className="text-slate-600">
              {isArtist ? "Held for you" : "Held for the artist"} (after commission)
            </dt>
            <dd className="font-semibold tabular-nums">
              {formatPaise(money.heldPaise)}
              {money.releaseAt ? ` until ${at(money.releaseAt)}` : ""}
            </dd>
          </div>
        ) : null}
        {money.releasedPaise > 0 ? (
          <div className="flex justify-between gap-3">
            <dt className="text-slate-600">
              {isArtist ? "Released to you" : "Released to the artist"} (after commission)
            </dt>
            <dd className="font-semibold tabular-nums">
              {formatPaise(money.releasedPaise)}
              {money.releasedAt ? ` on ${at(money.releasedAt)}` : ""}
            </dd>
          </div>
        ) : null}
      </dl>
      {money.events.length > 0 ? (
        <>
          <h3 className="mt-5 text-sm font-semibold">Money timeline</h3>
          <ol className="mt-2 space-y-2 border-l border-slate-200 pl-4 text-sm">
            {money.events.map((event) => (
              <li key={`${event.kind}-${event.at}`}>
                <span className="font-medium">{moneyEventWords(event)}</span>
                {event.amountPaise !== null ? ` · ${formatPaise(event.amountPaise)}` : ""}
                <span className="block text-slate-600">{at(event.at)}</span>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </Card>
  );
}
