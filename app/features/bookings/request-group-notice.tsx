import { Link } from "react-router";
import { STATUS_LABELS } from "./booking-status-badge";
import type { BookingStatus } from "./bookings.policy";

type Props = {
  isArtist: boolean;
  clientName: string;
  /**
   * Withdrawn because the client agreed with another artist of the group: that booking's id for
   * the client, `true` for the artist (who is not told which booking it was).
   */
  withdrawnForId: string | true | null;
  status: BookingStatus;
  group: { size: number; others: { id: string; artistName: string; status: BookingStatus }[] };
};

/**
 * What the booking page says of a request sent to several artists (decision 060): to the artist,
 * that it went to others too and what became of theirs; to the client, the others asked, each
 * linking to its booking.
 */
export function RequestGroupNotice({ isArtist, clientName, withdrawnForId, status, group }: Props) {
  const agreed = group.others.find((o) => o.id === withdrawnForId);
  if (withdrawnForId) {
    return (
      <div className="mt-4 rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm text-slate-800">
        <p className="font-medium">
          {isArtist
            ? `${clientName} agreed with another artist this request was also sent to, so it was withdrawn. Nothing is owed, and your date stays free.`
            : "Withdrawn: you agreed with another artist for this event."}
        </p>
        {agreed ? (
          <p className="mt-1">
            <Link to={`/bookings/${agreed.id}`} className="text-brand-700 underline">
              See your booking with {agreed.artistName}
            </Link>
          </p>
        ) : null}
      </div>
    );
  }
  if (isArtist) {
    return status === "pending" ? (
      <p className="mt-4 rounded-lg border border-brand-200 bg-brand-50 p-4 text-sm text-brand-900">
        {`${clientName} sent this request to ${group.size} artists: the first one they agree with gets the booking, and the other requests are withdrawn.`}
      </p>
    ) : null;
  }
  return (
    <div className="mt-4 rounded-lg border border-brand-200 bg-brand-50 p-4 text-sm text-brand-900">
      <p className="font-medium">
        {`Also sent to ${group.others.length} other ${group.others.length === 1 ? "artist" : "artists"}`}
      </p>
      <ul className="mt-1 space-y-0.5">
        {group.others.map((o) => (
          <li key={o.id} className="wrap-anywhere">
            <Link to={`/bookings/${o.id}`} className="underline">
              {o.artistName}
            </Link>{" "}
            · {STATUS_LABELS[o.status]}
          </li>
        ))}
      </ul>
      {status === "pending" ? (
        <p className="mt-1 text-brand-800">
          When you agree with one of them, the other requests are withdrawn and those artists told.
        </p>
      ) : null}
    </div>
  );
}
