import type { BookingStatus } from "./bookings.policy";

const STYLES: Record<BookingStatus, string> = {
  pending: "bg-yellow-100 text-yellow-900",
  awaiting_deposit: "bg-orange-100 text-orange-900",
  confirmed: "bg-emerald-100 text-emerald-900",
  rejected: "bg-red-100 text-red-900",
  completed: "bg-blue-100 text-blue-900",
  cancelled: "bg-slate-200 text-slate-800",
};

/** The words on the badge: a declined request is stored as `rejected` and reads "Declined". */
export const STATUS_LABELS: Record<BookingStatus, string> = {
  pending: "Pending",
  awaiting_deposit: "Awaiting deposit",
  confirmed: "Confirmed",
  rejected: "Declined",
  completed: "Completed",
  cancelled: "Cancelled",
};

export function BookingStatusBadge({ status }: { status: BookingStatus }) {
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${STYLES[status] ?? "bg-slate-200 text-slate-800"}`}
    >
      {STATUS_LABELS[status] ?? status}
    </span>
  );
}

/**
 * Beside a pending booking's badge while a quote of the artist's is open: the client has it to
 * answer ("Quote to answer"), the artist waits for it ("Quote sent").
 */
export function QuotePill({ forClient }: { forClient: boolean }) {
  return (
    <span className="inline-flex rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-900">
      {forClient ? "Quote to answer" : "Quote sent"}
    </span>
  );
}
