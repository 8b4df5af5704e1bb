import Briefcase from "lucide-react/icons/briefcase";
import Music from "lucide-react/icons/eighth-notes";
import ExternalLink from "lucide-react/icons/external-link";
import Guitar from "lucide-react/icons/guitar";
import IndianRupee from "lucide-react/icons/indian-rupee";
import MapPin from "lucide-react/icons/map-pin";
import Star from "lucide-react/icons/star";
import { useState } from "react";
import { Link } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { buttonClasses } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { HydrateOnUse, partOnUse } from "~/components/ui/hydrate-on-use";
import { Pill, PillList } from "~/components/ui/pill";
import { ServerMarkup } from "~/components/ui/server-markup";
import { StatCard } from "~/components/ui/stat-card";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import { ArtistAvatar } from "~/features/artists/artist-avatar";
import { FeaturedClip } from "~/features/artists/artist-card";
import { canEditArtistProfile } from "~/features/artists/artists.policy";
import {
  getArtistProfile,
  getPublicPortfolioId,
  getRecentPerformances,
} from "~/features/artists/artists.server";
import { type CardMedia, cardMedia } from "~/features/artists/card-media.server";
import { formatRating } from "~/features/artists/format";
import { type ArtistReview, listArtistReviews } from "~/features/artists/reviews.server";
import { VerifiedFigureCards } from "~/features/artists/verified-figures";
import { getAvailability, getBusyDays } from "~/features/availability/availability.server";
import type { CalendarView } from "~/features/availability/availability-calendar";
import { shownDays } from "~/features/availability/shown-days";
import { BookingLink } from "~/features/bookings/booking-link";
import { formatRupees } from "~/features/bookings/pricing";
import { bookingFormDates } from "~/features/bookings/quick-picks";
import { requestArtistOf } from "~/features/bookings/request-artist.server";
import { useBookingDialog } from "~/features/bookings/use-booking-dialog";
import { getCvSummary } from "~/features/credentials/cv.server";
import { VerifiedCv } from "~/features/credentials/verified-cv";
import { CollaborationIndicator } from "~/features/instagram/collaboration-indicator";
import { getCollaborationInsight } from "~/features/instagram/instagram.server";
import { sessionListQueryOf } from "~/features/music-sessions/music-sessions.schema";
import { loadSessionsSection } from "~/features/music-sessions/music-sessions.server";
import type { PublishedTerms } from "~/features/terms/published-terms";
import { TermsCard } from "~/features/terms/terms-card";
import type { TrustFigures } from "~/features/trust/trust";
import { getTrustFigures } from "~/features/trust/trust.server";
import { TrustLines } from "~/features/trust/trust-lines";
import { publicPageHeaders } from "~/lib/cache-headers";
import {
  addDays,
  daysInMonth,
  formatLongDate,
  type IsoMonth,
  isIsoDate,
  isIsoMonth,
  monthOf,
  todayIn,
} from "~/lib/dates";
import { fileUrl } from "~/lib/file-url";
import { notFound } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { renderMarkup } from "~/lib/server-markup.server";
import { RecentPerformances } from "~/pages/artist-profile/recent-performances";
import { renderSessionsSection } from "~/pages/sessions-and-portfolio/sessions-section.server";
import type { Route } from "./+types/artist";

// The calendar and the sessions' search and tabs are fetched when someone is about to use them;
// until then the page shows their server markup (decision 022).
const Calendar = partOnUse(
  () => import("~/features/availability/availability-section").then((m) => m.AvailabilitySection),
  <p className="text-slate-600">Loading calendar...</p>,
);
const Sessions = partOnUse(
  () =>
    import("~/pages/sessions-and-portfolio/sessions-section").then((m) => m.MusicSessionsSection),
  <p className="text-slate-600">Loading sessions...</p>,
);

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await getCurrentUser(request, context);
  const artist = await getArtistProfile(context, viewer, params.idOrSlug);
  if (!artist) notFound();
  // The artist's today: their calendar and booking rules follow their own zone.
  const today = todayIn(artist.timeZone);
  const url = new URL(request.url);
  const { month, view } = calendarQueryOf(url, today);
  // The next 120 days, and all of the month asked for (?month=) when it reaches further.
  const monthEnd = `${month}-${String(daysInMonth(month)).padStart(2, "0")}`;
  const until = addDays(today, 120) > monthEnd ? addDays(today, 120) : monthEnd;
  // The date searched for in discovery ("Available on"): the booking form starts on it.
  const asked = url.searchParams.get("date") ?? "";
  const startDate = isIsoDate(asked) && asked >= today ? asked : null;
  const [
    availability,
    busyDays,
    performances,
    portfolioId,
    sessions,
    collaboration,
    reviews,
    trust,
    cv,
    media,
  ] = await Promise.all([
    getAvailability(context, viewer, { artistId: artist.id, from: today, to: until }),
    getBusyDays(context, viewer, { artistId: artist.id, from: today, to: until }),
    getRecentPerformances(context, viewer, { artistId: artist.id }),
    getPublicPortfolioId(context, viewer, artist.id),
    loadSessionsSection(context, viewer, {
      artistId: artist.id,
      artistName: artist.artistName,
      query: sessionListQueryOf(new URL(request.url)),
    }),
    // A page that fails to count collaborations still shows the profile.
    getCollaborationInsight(context, viewer, artist.id).catch((error: unknown) => {
      context.logger.error({ err: error }, "collaboration insight failed");
      return null;
    }),
    listArtistReviews(context, viewer, { artistId: artist.id }),
    getTrustFigures(context, viewer, [artist.id]),
    getCvSummary(context, viewer, artist.id),
    cardMedia(context, [artist.id]),
  ]);
  const { userId: _owner, ...publicArtist } = artist;
  const terms: PublishedTerms = {
    depositBps: artist.depositBps,
    balanceDueDays: artist.balanceDueDays,
    policy: artist.cancellationPolicy,
  };
  const isOwner = canEditArtistProfile(viewer, artist);
  const parts: ProfileParts = {
    artist: publicArtist,
    isOwner,
    portfolioId,
    collaboration,
    trust: trust[artist.id],
    startDate,
    media: media[artist.id],
  };
  const description =
    `${artist.genre} · ${artist.location} · ${artist.verifiedSessions} verified sessions · rating ${formatRating(artist.rating)}. ${artist.bio}`.slice(
      0,
      200,
    );
  return {
    // What needs no JavaScript is drawn on the server only (decision 022); the calendar, the
    // sessions and the booking dialog are the page's own components.
    markup: {
      top: renderMarkup(
        { request, context },
        <>
          <ProfileTop {...parts} />
          <TermsCard terms={terms} />
        </>,
      ),
      performances: renderMarkup(
        { request, context },
        <RecentPerformances performances={performances} timeZone={artist.timeZone} />,
      ),
      bottom: renderMarkup(
        { request, context },
        <>
          <Reviews reviews={reviews} total={artist.totalReviews} />
          <VerifiedCv
            slug={artist.slug}
            artistName={artist.artistName}
            credentialCount={cv.credentialCount}
          />
        </>,
      ),
    },
    head: {
      title: `${artist.artistName} — ${artist.genre} artist in ${artist.location}`,
      description,
      canonical: new URL(`/artist/${artist.slug}`, context.env.appUrl).href,
    },
    // Anyone but the owner may fill the form in; a signed-out visitor signs in when sending it,
    // and comes back to it with what they chose (docs/product.md, "Bookings").
    booking: !isOwner
      ? {
          artist: requestArtistOf(artist),
          ...bookingFormDates(availability, busyDays, today),
          startDate: startDate ?? undefined,
          signedIn: viewer !== null,
        }
      : null,
    // What the calendar shows: a day the booking rule refuses is never green or blank.
    availability: shownDays(availability, busyDays),
    sessions: renderSessionsSection({ request, context }, sessions, { belowFirstScreen: true }),
    today,
    month,
    view,
  };
}

/**
 * Reached on the client, the page has no server markup of its calendar and sessions to show while
 * their code loads: the code is fetched beside the data, and the page appears with both.
 */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), Calendar.start(), Sessions.start()]);
  return data;
}

/**
 * The calendar's month and tab from the address (?month=YYYY-MM, ?view=upcoming), so the month
 * arrows and tabs work as plain links; a month before the artist's current one shows the current.
 */
function calendarQueryOf(url: URL, today: string): { month: IsoMonth; view: CalendarView } {
  const current = monthOf(today);
  const asked = url.searchParams.get("month") ?? "";
  const month = isIsoMonth(asked) && asked > current ? asked : current;
  const view: CalendarView = url.searchParams.get("view") === "upcoming" ? "upcoming" : "calendar";
  return { month, view };
}

// Anonymous visitors get a shared-cacheable page (see app/lib/cache-headers.ts).
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ data: loaded }) => {
  if (!loaded) return [{ title: "Artist Not Found | GigLedger" }];
  const { title, description, canonical } = loaded.head;
  return [
    ...pageMeta({ title, description }),
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

type ProfileParts = {
  artist: Omit<NonNullable<Awaited<ReturnType<typeof getArtistProfile>>>, "userId">;
  isOwner: boolean;
  portfolioId: string | null;
  collaboration: Awaited<ReturnType<typeof getCollaborationInsight>> | null;
  trust: TrustFigures | undefined;
  startDate: string | null;
  media: CardMedia | undefined;
};

/** The artist's card and figures (server markup). */
function ProfileTop({
  artist,
  isOwner,
  portfolioId,
  collaboration,
  trust,
  startDate,
  media,
}: ProfileParts) {
  return (
    <>
      {media?.coverPath ? (
        <img
          src={fileUrl(media.coverPath)}
          alt={`${artist.artistName} performing`}
          width={1200}
          height={400}
          decoding="async"
          className="aspect-[3/1] w-full rounded-2xl bg-slate-100 object-cover"
        />
      ) : null}
      <Card as="section" className="flex flex-col gap-6 sm:flex-row sm:items-start">
        <ArtistAvatar name={artist.artistName} avatarPath={artist.avatarPath} size="lg" />
        <div className="min-w-0 flex-1">
          <h1 className="text-3xl font-bold wrap-anywhere">{artist.artistName}</h1>
          <PillList label="About" className="mt-3 gap-2">
            <Pill as="li" tone="brand" size="md" icon={Music}>
              {artist.genre}
            </Pill>
            <Pill as="li" size="md" icon={MapPin}>
              {artist.location}
            </Pill>
            <Pill as="li" size="md" icon={Briefcase}>
              {artist.experience}
            </Pill>
            {artist.hourlyRate !== null ? (
              <Pill as="li" size="md" icon={IndianRupee}>
                {formatRupees(artist.hourlyRate)} per hour
              </Pill>
            ) : artist.startingPrice !== null ? (
              <Pill as="li" size="md" icon={IndianRupee}>
                {`From ${formatRupees(artist.startingPrice)}`}
              </Pill>
            ) : null}
            {artist.isAvailable ? (
              <Pill as="li" tone="success" size="md">
                Available
              </Pill>
            ) : null}
          </PillList>
          {collaboration ? (
            <div className="mt-3">
              <CollaborationIndicator insight={collaboration} artistName={artist.artistName} />
            </div>
          ) : null}
          <p className="mt-4 whitespace-pre-line text-slate-700 wrap-anywhere">{artist.bio}</p>
          {media?.clipPath ? <FeaturedClip path={media.clipPath} title={media.clipTitle} /> : null}
          {artist.occasions.length > 0 ? (
            <p className="mt-3 text-sm text-slate-700">
              <span className="font-medium">Plays:</span> {artist.occasions.join(" · ")}
            </p>
          ) : null}
          <TrustLines
            figures={trust}
            verifiedSessions={artist.verifiedSessions}
            className="mt-3 space-y-0.5 text-sm text-slate-700"
          />
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
            ) : (
              <BookingLink slug={artist.slug} startDate={startDate ?? undefined} />
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
      </Card>

      <section aria-label="Figures" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <VerifiedFigureCards artist={artist} />
        <StatCard
          icon={Guitar}
          label="Instruments"
          value={
            <span className="text-base wrap-anywhere">{artist.instruments || "Not specified"}</span>
          }
        />
      </section>
    </>
  );
}

export default function ArtistPage({ loaderData }: Route.ComponentProps) {
  const { markup, booking, availability, sessions, today, month, view } = loaderData;
  // A day picked in the calendar is where the booking form starts (also for a visitor who signs
  // in on the way: the form's address carries it).
  const [picked, setPicked] = useState<string | null>(null);
  const { book, dialog } = useBookingDialog(
    booking && picked && picked >= today ? { ...booking, startDate: picked } : booking,
  );
  return (
    <main id="main" className="mx-auto max-w-6xl space-y-8 px-4 py-8 sm:py-12">
      <ServerMarkup markup={markup.top} actions={{ book }} className="space-y-8" />

      <div className="grid grid-cols-1 gap-8 lg:grid-cols-2">
        <HydrateOnUse
          key={`${month}:${view}`}
          part={Calendar}
          props={{
            entries: availability,
            today,
            initialMonth: month,
            initialView: view,
            onSelectDate: setPicked,
          }}
        />
        <ServerMarkup markup={markup.performances} />
      </div>

      <ServerMarkup markup={markup.bottom} className="space-y-8" />

      <HydrateOnUse part={Sessions} props={{ data: sessions }} />
      {dialog}
    </main>
  );
}

/** The written reviews, newest gig first (see docs/product.md, Artist profiles). */
function Reviews({ reviews, total }: { reviews: ArtistReview[]; total: number }) {
  return (
    <Card as="section" aria-labelledby="reviews-title" className="drawn-when-near">
      <h2 id="reviews-title" className="text-lg font-semibold">
        Reviews
      </h2>
      {reviews.length === 0 ? (
        <p className="mt-4 text-slate-600">
          {total === 0 ? "No reviews yet" : "No written reviews yet"}
        </p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-100">
          {reviews.map((r) => (
            <li key={r.id} className="py-4 first:pt-0 last:pb-0">
              <figure>
                <p
                  className="flex items-center gap-0.5"
                  role="img"
                  aria-label={`Rated ${r.rating} out of 5`}
                >
                  {[1, 2, 3, 4, 5].map((n) => (
                    <Star
                      key={n}
                      aria-hidden
                      className={`h-4 w-4 ${n <= r.rating ? "fill-accent-500 text-accent-500" : "text-slate-300"}`}
                    />
                  ))}
                </p>
                <blockquote className="mt-2 whitespace-pre-line text-slate-800 wrap-anywhere">
                  {r.review}
                </blockquote>
                <figcaption className="mt-1 text-sm text-slate-600">
                  {r.clientFirstName ?? "A client"} ·{" "}
                  <time dateTime={r.eventDate}>{formatLongDate(r.eventDate)}</time>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function GoBack() {
  return (
    <button type="button" onClick={() => history.back()} className={buttonClasses("outline", "md")}>
      Go Back
    </button>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <RouteErrorBoundary
      error={error}
      notFound={{
        title: "Artist Not Found",
        message: "Artist profile not found.",
        actions: (
          <>
            <GoBack />
            <Link to="/artist-discovery" className={buttonClasses("primary", "md")}>
              Discover Artists
            </Link>
          </>
        ),
      }}
    />
  );
}
