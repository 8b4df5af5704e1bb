import { Link } from "react-router";
import { Card } from "~/components/ui/card";
import { ScrollBox } from "~/components/ui/scroll-box";
import { formatLongDate, formatWallClock } from "~/lib/dates";
import {
  type CountedCancellation,
  type CountedRequest,
  cancellationText,
  formatWait,
  MIN_COUNTED,
  RESPONSE_WINDOW_HOURS,
  responseRateText,
  responseTimeText,
  type TrustFigures,
} from "./trust";

/**
 * The artist's own reliability figures with every booking behind them, so the numbers on their
 * profile can be checked line by line (times in the artist's zone).
 */
export function TrustReceipts({
  figures,
  requests,
  confirmed,
  timeZone,
}: {
  figures: TrustFigures;
  requests: CountedRequest[];
  confirmed: CountedCancellation[];
  timeZone: string;
}) {
  const when = (at: string) => formatWallClock(at, timeZone);
  const rate = responseRateText(figures.response);
  const typical = responseTimeText(figures.response);
  const cancellations = cancellationText(figures.cancellations);
  const cancelled = confirmed.filter((c) => c.cancelledAt);
  return (
    <Card as="section" aria-labelledby="trust-title" className="lg:col-span-2">
      <h2 id="trust-title" className="text-lg font-semibold">
        Your reliability figures
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        What clients see on your profile, and every booking that counts.{" "}
        <Link to="/discover#trust-figures" className="text-brand-700 underline">
          How they are counted
        </Link>
      </p>
      <h3 className="mt-5 font-medium">Response rate</h3>
      <p className="mt-1 text-sm text-slate-700">
        {[
          rate ? `${rate}.` : `Shown on your profile once ${MIN_COUNTED} requests count.`,
          typical ? `${typical}.` : null,
          `${figures.response.answeredWithinWindow} of ${figures.response.counted} counted requests answered within ${RESPONSE_WINDOW_HOURS} h.`,
        ]
          .filter(Boolean)
          .join(" ")}
      </p>
      {requests.length > 0 ? (
        <ScrollBox label="Counted requests" className="mt-3">
          <table className="w-full min-w-[32rem] text-left text-sm">
            <caption className="sr-only">Counted requests of the last 90 days</caption>
            <thead className="text-xs text-slate-500">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Received
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  First answer
                </th>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Within {RESPONSE_WINDOW_HOURS} h
                </th>
                <th scope="col" className="py-1 font-medium">
                  Booking
                </th>
              </tr>
            </thead>
            <tbody>
              {requests.map((r) => (
                <tr key={r.bookingId} className="border-t border-slate-100">
                  <td className="py-1.5 pr-3">{when(r.receivedAt)}</td>
                  <td className="py-1.5 pr-3">
                    {r.firstAnswerAt
                      ? `${when(r.firstAnswerAt)} (after ${formatWait(Math.round((Date.parse(r.firstAnswerAt) - Date.parse(r.receivedAt)) / 60_000))})`
                      : "Not answered"}
                  </td>
                  <td className="py-1.5 pr-3">{r.withinWindow ? "Yes" : "No"}</td>
                  <td className="py-1.5">
                    <Link to={`/bookings/${r.bookingId}`} className="text-brand-700 underline">
                      {formatLongDate(r.eventDate)}
                    </Link>
                    {r.sameDayRequests > 0
                      ? ` and ${r.sameDayRequests} more from this client that day, counted as one`
                      : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      ) : null}
      <h3 className="mt-6 font-medium">Cancellations</h3>
      <p className="mt-1 text-sm text-slate-700">
        {cancellations
          ? `${cancellations}.`
          : `Shown on your profile once you have ${MIN_COUNTED} confirmed bookings.`}{" "}
        {`You confirmed ${figures.cancellations.confirmed} bookings in the last 12 months and cancelled ${figures.cancellations.cancelled}.`}
      </p>
      {cancelled.length > 0 ? (
        <ul className="mt-2 space-y-1 text-sm">
          {cancelled.map((c) => (
            <li key={c.bookingId}>
              <Link to={`/bookings/${c.bookingId}`} className="text-brand-700 underline">
                {formatLongDate(c.eventDate)}
              </Link>
              {`: confirmed ${when(c.confirmedAt)}, cancelled ${when(c.cancelledAt ?? "")}`}
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
