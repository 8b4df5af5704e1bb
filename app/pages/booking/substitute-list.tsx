import Search from "lucide-react/icons/search";
import { Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ArtistAvatar } from "~/features/artists/artist-avatar";
import { formatRating } from "~/features/artists/format";
import type { Substitute } from "~/features/bookings/substitutes.server";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Why an artist is suggested, in the order the list is ranked by. */
function reasons(s: Substitute): string {
  return [
    s.location,
    s.sessionsTogether > 0 ? `${plural(s.sessionsTogether, "verified session")} together` : null,
    s.genreMatch === "same" ? s.genre : s.genreMatch === "similar" ? `${s.genre} (similar)` : null,
    plural(s.clientVerifiedGigs, "client-verified gig"),
    `${formatRating(s.rating)} (${s.totalReviews})`,
  ]
    .filter(Boolean)
    .join(" · ");
}

/**
 * After the artist cancelled: who else is free that day, each one click from a request with the
 * booking's date, length, venue and event type filled in (a link, so it works without JavaScript),
 * and always a search for everyone free that day.
 */
export function SubstituteList({
  substitutes,
  date,
  artistName,
  searchHref,
}: {
  substitutes: (Substitute & { href: string })[];
  /** The event's date, written out. */
  date: string;
  /** The artist who cancelled. */
  artistName: string;
  /** Discovery for the date ("Available on"). */
  searchHref: string;
}) {
  return (
    <Card as="section" aria-labelledby="substitutes-title">
      <h2 id="substitutes-title" className="text-lg font-semibold">
        Artists free on {date}
      </h2>
      {substitutes.length > 0 ? (
        <>
          <p className="mt-1 text-sm text-slate-600">
            Artists in {artistName}'s city come first, then those who played verified sessions with{" "}
            {artistName}, then the same or a similar genre, gigs verified by clients here, and
            rating.
          </p>
          <ul className="mt-4 space-y-3">
            {substitutes.map((s) => (
              <li
                key={s.id}
                className="flex flex-wrap items-center gap-3 rounded-lg border border-slate-200 p-3"
              >
                <ArtistAvatar name={s.artistName} avatarPath={s.avatarPath} size="sm" />
                {/* Room for the reasons: on a phone the button goes to a line of its own. */}
                <div className="min-w-0 flex-1 basis-40">
                  <p className="font-medium wrap-anywhere">
                    <Link to={`/artist/${s.slug}`} className="text-brand-700 underline">
                      {s.artistName}
                    </Link>
                  </p>
                  <p className="text-sm text-slate-600 wrap-anywhere">{reasons(s)}</p>
                </div>
                <Link to={s.href} className={buttonClasses("primary", "sm")}>
                  Request {s.artistName}
                </Link>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="mt-1 text-sm text-slate-600">
          We have nobody to suggest who is free that day.
        </p>
      )}
      <p className="mt-4">
        <Link to={searchHref} className={buttonClasses("outline", "sm")}>
          <Search aria-hidden className="h-4 w-4" /> Search all artists free on {date}
        </Link>
      </p>
    </Card>
  );
}
