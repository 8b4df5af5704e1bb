const STYLES: Record<string, string> = {
  pending: "bg-yellow-100 text-yellow-900",
  confirmed: "bg-emerald-100 text-emerald-900",
  rejected: "bg-red-100 text-red-900",
  completed: "bg-blue-100 text-blue-900",
  cancelled: "bg-slate-200 text-slate-800",
};

export function BookingStatusBadge({ status }: { status: string }) {
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize ${STYLES[status] ?? "bg-slate-200 text-slate-800"}`}
    >
      {status}
    </span>
  );
}
