import { Briefcase, CalendarCheck, ExternalLink, Guitar, MapPin, Music } from "lucide-react";
import { lazy, Suspense } from "react";
import { data, Link, useNavigate } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import { ArtistAvatar } from "~/features/artists/artist-avatar";
import {
  getArtistProfile,
  getPublicPortfolioId,
  getRecentPerformances,
} from "~/features/artists/artists.server";
import { formatRating } from "~/features/artists/format";
import { RecentPerformances } from "~/features/artists/recent-performances";
import { StatCard } from "~/features/artists/stat-card";
import { VerifiedFigureCards } from "~/features/artists/verified-figures";
import { getAvailability } from "~/features/availability/availability.server";
import { AvailabilityCalendar } from "~/features/availability/availability-calendar";
import { BookingLink } from "~/features/bookings/booking-link";
import { quickPickDates } from "~/features/bookings/quick-picks";
import { CollaborationIndicator } from "~/features/instagram/collaboration-indicator";
import { getCollaborationInsight } from "~/features/instagram/instagram.server";
import { sessionListQueryOf } from "~/features/music-sessions/music-sessions.schema";
import { loadSessionsSection } from "~/features/music-sessions/music-sessions.server";
import { MusicSessionsSection } from "~/features/music-sessions/sessions-section";

import { addDays, todayIn } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/artist";

// Only the owner sees the portfolio manager: visitors of the profile never download it.
const PortfolioManager = lazy(() =>
  import("~/features/portfolio/portfolio-manager").then((m) => ({ default: m.PortfolioManager })),
);

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const artist = await getArtistProfile(context.db, params.idOrSlug);
  if (!artist) throw data({ message: "Artist profile not found." }, { status: 404 });
  const today = todayIn(context.env.timeZone);
  const viewer = await getCurrentUser(request, context);
  const [availability, performances, portfolioId, sessions, collaboration] = await Promise.all([
    getAvailability(context.db, artist.id, today, addDays(today, 120)),
    getRecentPerformances(context.db, artist.id),
    getPublicPortfolioId(context.db, artist.id),
    loadSessionsSection(context.db, {
      artistId: artist.id,
      artistName: artist.artistName,
      viewer,
      query: sessionListQueryOf(new URL(request.url)),
      timeZone: context.env.timeZone,
    }),
    // A page that fails to count collaborations still shows the profile.
    getCollaborationInsight(context.db, viewer?.id, artist.id).catch((error: unknown) => {
      context.logger.error({ err: error }, "collaboration insight failed");
      return null;
    }),
  ]);
  const { userId, ...publicArtist } = artist;
  return {
    artist: publicArtist,
    isOwner: viewer?.id === userId,
    signedIn: Boolean(viewer),
    availability,
    performances,
    portfolioId,
    sessions,
    collaboration,
    today,
    canonical: new URL(`/artist/${artist.slug}`, context.env.appUrl).href,
    quickPicks: quickPickDates(availability, today),
    blockedDates: Object.fromEntries(
      availability.filter((e) => e.status !== "available").map((e) => [e.date, e.status]),
    ),
  };
}

export const meta: Route.MetaFunction = ({ data: loaded }) => {
  if (!loaded) return [{ title: "Artist Not Found | GigLedger" }];
  const { artist, canonical } = loaded;
  const description =
    `${artist.genre} · ${artist.location} · ${artist.verifiedSessions} verified sessions · rating ${formatRating(artist.rating)}. ${artist.bio}`.slice(
      0,
      200,
    );
  return [
    ...pageMeta({
      title: `${artist.artistName} — ${artist.genre} artist in ${artist.location}`,
      description,
    }),
    { property: "og:type", content: "profile" },
    { property: "og:url", content: canonical },
    { tagName: "link", rel: "canonical", href: canonical },
  ];
};

const SOCIAL = [
  ["instagram", "Instagram"],
  ["youtube", "YouTube"],
  ["facebook", "Facebook"],
] as const;

export default function ArtistPage({ loaderData }: Route.ComponentProps) {
  const {
    artist,
    isOwner,
    signedIn,
    availability,
    performances,
    portfolioId,
    sessions,
    today,
    quickPicks,
    blockedDates,
  } = loaderData;
  return (
    <main id="main" className="mx-auto max-w-6xl space-y-8 px-4 py-8 sm:py-12">
      <section className="flex flex-col gap-6 rounded-2xl border border-slate-200 bg-white p-6 sm:flex-row sm:items-start">
        <ArtistAvatar name={artist.artistName} avatarPath={artist.avatarPath} size="lg" />
        <div className="min-w-0 flex-1">
          <h1 className="text-3xl font-bold">{artist.artistName}</h1>
          <ul className="mt-3 flex flex-wrap gap-2 text-sm" aria-label="About">
            <li className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-3 py-1 text-brand-900">
              <Music aria-hidden className="h-4 w-4" /> {artist.genre}
            </li>
            <li className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-3 py-1 text-slate-800">
              <MapPin aria-hidden className="h-4 w-4" /> {artist.location}
            </li>
            <li className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-3 py-1 text-slate-800">
              <Briefcase aria-hidden className="h-4 w-4" /> {artist.experience}
            </li>
            {artist.isAvailable ? (
              <li className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-3 py-1 text-emerald-800">
                Available
              </li>
            ) : null}
          </ul>
          {loaderData.collaboration ? (
            <div className="mt-3">
              <CollaborationIndicator
                insight={loaderData.collaboration}
                artistName={artist.artistName}
              />
            </div>
          ) : null}
          <p className="mt-4 whitespace-pre-line text-slate-700">{artist.bio}</p>
          {SOCIAL.some(([key]) => artist.socialLinks[key]) ? (
            <ul className="mt-4 flex flex-wrap gap-3" aria-label="Social links">
              {SOCIAL.map(([key, label]) =>
                artist.socialLinks[key] ? (
                  <li key={key}>
                    <a
                      href={artist.socialLinks[key]}
                      rel="noopener noreferrer nofollow"
                      target="_blank"
                      className="inline-flex items-center gap-1 text-sm text-brand-700 underline"
                    >
                      {label} <ExternalLink aria-hidden className="h-3 w-3" />
                    </a>
                  </li>
                ) : null,
              )}
            </ul>
          ) : null}
          <div className="mt-6 flex flex-wrap gap-3">
            {isOwner ? (
              <Link to="/artist-dashboard" className={buttonClasses("primary", "md")}>
                Dashboard
              </Link>
            ) : signedIn ? (
              <BookingLink
                artist={artist}
                quickPicks={quickPicks}
                blockedDates={blockedDates}
                today={today}
              />
            ) : (
              <Link
                to={`/auth?reason=book&redirectTo=${encodeURIComponent(`/artist/${artist.slug}`)}`}
                className={buttonClasses("primary", "md")}
              >
                <CalendarCheck aria-hidden className="h-4 w-4" /> Book Performance
              </Link>
            )}
            {portfolioId ? (
              <a
                href={`/portfolio/${portfolioId}`}
                target="_blank"
                rel="noopener"
                className={buttonClasses("outline", "md")}
              >
                View Portfolio <ExternalLink aria-hidden className="h-4 w-4" />
              </a>
            ) : null}
          </div>
        </div>
      </section>

      <section aria-label="Figures" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <VerifiedFigureCards artist={artist} />
        <StatCard
          icon={Guitar}
          label="Instruments"
          value={<span className="text-base">{artist.instruments || "Not specified"}</span>}
        />
      </section>

      <div className="grid grid-cols-1 gap-8 lg:grid-cols-2">
        <section
          id="book"
          aria-labelledby="availability-title"
          className="rounded-2xl border border-slate-200 bg-white p-6"
        >
          <h2 id="availability-title" className="mb-4 text-lg font-semibold">
            Availability
          </h2>
          <AvailabilityCalendar entries={availability} today={today} />
        </section>
        <RecentPerformances performances={performances} />
      </div>

      <MusicSessionsSection
        data={sessions}
        portfolio={
          isOwner ? (
            <Suspense fallback={<p className="text-slate-600">Loading portfolio...</p>}>
              <PortfolioManager />
            </Suspense>
          ) : undefined
        }
      />
    </main>
  );
}

export function ErrorBoundary() {
  const navigate = useNavigate();
  return (
    <main id="main" className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <title>Artist Not Found | GigLedger</title>
      <h1 className="text-2xl font-semibold">Artist Not Found</h1>
      <p className="mt-2 text-slate-600">Artist profile not found.</p>
      <div className="mt-8 flex gap-3">
        <button
          type="button"
          onClick={() => navigate(-1)}
          className={buttonClasses("outline", "md")}
        >
          Go Back
        </button>
        <Link to="/artist-discovery" className={buttonClasses("primary", "md")}>
          Discover Artists
        </Link>
      </div>
    </main>
  );
}
