import { Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ArtistAvatar } from "~/features/artists/artist-avatar";
import { formatRating } from "~/features/artists/format";
import type { Substitute } from "./substitutes.server";

/**
 * After the artist cancelled: who else is free that day, each one click from a request with the
 * booking's date, length, venue and event type filled in (a link, so it works without JavaScript).
 */
export function SubstituteList({
  substitutes,
  date,
}: {
  substitutes: (Substitute & { href: string })[];
  date: string;
}) {
  return (
    <Card as="section" aria-labelledby="substitutes-title">
      <h2 id="substitutes-title" className="text-lg font-semibold">
        Artists free on {date}
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Same genre and city. Artists who played verified sessions with the artist who cancelled come
        first, then those with the most gigs verified by clients here.
      </p>
      <ul className="mt-4 space-y-3">
        {substitutes.map((s) => (
          <li
            key={s.id}
            className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 p-3"
          >
            <ArtistAvatar name={s.artistName} avatarPath={s.avatarPath} size="sm" />
            <div className="min-w-0 flex-1">
              <p className="font-medium wrap-anywhere">
                <Link to={`/artist/${s.slug}`} className="text-brand-700 underline">
                  {s.artistName}
                </Link>
              </p>
              <p className="text-sm text-slate-600 wrap-anywhere">
                {[
                  `${formatRating(s.rating)} (${s.totalReviews})`,
                  s.sessionsTogether > 0
                    ? `${s.sessionsTogether} verified ${s.sessionsTogether === 1 ? "session" : "sessions"} together`
                    : null,
                  `${s.clientVerifiedGigs} client-verified ${s.clientVerifiedGigs === 1 ? "gig" : "gigs"}`,
                ]
                  .filter(Boolean)
                  .join(" · ")}
              </p>
            </div>
            <Link to={s.href} className={buttonClasses("primary", "sm")}>
              Request {s.artistName}
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}
