// The booking page's problems section (docs/product.md, "Problems"): the hold each report puts on
// the payout, and the way to the problem page. Server data only; no state.
import { Link } from "react-router";
import { Card } from "~/components/ui/card";
import { formatLongDate } from "~/lib/date-text";
import type { ProblemSummary } from "./problems.server";

export function ProblemNotice({
  bookingId,
  summary,
}: {
  bookingId: string;
  summary: ProblemSummary;
}) {
  if (summary.holds.length === 0 && !summary.canReport) return null;
  return (
    <Card as="section" aria-labelledby="problems-title" className="mt-6">
      <h2 id="problems-title" className="text-lg font-semibold">
        Problems
      </h2>
      <ul className="mt-2 space-y-1 text-sm">
        {summary.holds.map((hold) => (
          <li
            key={hold.party}
            className={hold.decided ? "text-slate-700" : "font-medium text-amber-800"}
          >
            {hold.decided
              ? `A problem reported by the ${hold.party} on ${formatLongDate(hold.reportedOn)} was decided: ${hold.decision}.`
              : `On hold: a problem was reported on ${formatLongDate(hold.reportedOn)}; a decision is due by ${formatLongDate(hold.dueBy)}.`}
          </li>
        ))}
      </ul>
      <Link
        to={`/bookings/${bookingId}/problem`}
        className="mt-3 inline-block text-brand-700 underline"
      >
        {summary.canReport ? "Report a problem" : "See the problem report"}
      </Link>
    </Card>
  );
}
