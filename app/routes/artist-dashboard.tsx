import BadgeCheck from "lucide-react/icons/badge-check";
import CalendarDays from "lucide-react/icons/calendar-days";
import Clock from "lucide-react/icons/clock";
import Music from "lucide-react/icons/eighth-notes";
import Eye from "lucide-react/icons/eye";
import Inbox from "lucide-react/icons/inbox";
import Pencil from "lucide-react/icons/pencil";
import Plus from "lucide-react/icons/plus";
import Star from "lucide-react/icons/star";
import { useState } from "react";
import { Link } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { buttonClasses } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { StatCard } from "~/components/ui/stat-card";
import { requireUser } from "~/features/accounts/accounts.server";
import { canEditArtistProfile } from "~/features/artists/artists.policy";
import { getArtistProfile, getOwnArtistProfile } from "~/features/artists/artists.server";
import { getDashboardCounts } from "~/features/artists/dashboard.server";
import { formatRating } from "~/features/artists/format";
import { ProfileLink, ShareButton } from "~/features/artists/share-profile";
import { getAvailability, getBusyDays } from "~/features/availability/availability.server";
import { calendarQueryOf } from "~/features/availability/calendar-query";
import { ScheduleEditor } from "~/features/availability/schedule-editor";
import { shownDays } from "~/features/availability/shown-days";
import { ArtistBookingCard } from "~/features/bookings/artist-booking-card";
import { BookingStatusBadge } from "~/features/bookings/booking-status-badge";
import { listArtistBookings } from "~/features/bookings/booking-views.server";
import { CalendarFeedLink } from "~/features/calendars/calendar-feed-link";
import { getFeedUrl } from "~/features/calendars/feeds.server";
import { ImportedCalendars } from "~/features/calendars/imported-calendars";
import { getImportedBusyDays, listImportedCalendars } from "~/features/calendars/imports.server";
import { sessionListQueryOf } from "~/features/music-sessions/music-sessions.schema";
import { loadSessionsSection } from "~/features/music-sessions/music-sessions.server";
import { getTrustFigures, listTrustReceipts } from "~/features/trust/trust.server";
import { TrustReceipts } from "~/features/trust/trust-receipts";
import type { SignedInActor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { formatHours, formatLongDate, todayIn } from "~/lib/dates";
import { notFound } from "~/lib/form.server";
import { isUuid } from "~/lib/ids";
import { pageMeta } from "~/lib/meta";
import { formatCount } from "~/lib/number-text";
import { MusicSessionsSection } from "~/pages/sessions-and-portfolio/sessions-section";
import { renderSessionsSection } from "~/pages/sessions-and-portfolio/sessions-section.server";
import type { Route } from "./+types/artist-dashboard";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Dashboard", description: "Your GigLedger artist dashboard." }),
  { name: "robots", content: "noindex" },
];

const TABS = ["dashboard", "bookings", "sessions", "schedule"] as const;
type Tab = (typeof TABS)[number];

/**
 * The artist whose dashboard this is: the viewer's own, or the one the address names by its id,
 * which must be theirs (someone else's dashboard looks exactly like one that does not exist).
 */
async function dashboardArtist(context: AppContext, user: SignedInActor, artistId?: string) {
  if (!artistId) return getOwnArtistProfile(context, user);
  const artist = isUuid(artistId) ? await getArtistProfile(context, user, artistId) : null;
  if (!artist || !canEditArtistProfile(user, artist)) notFound();
  return artist;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const artist = await dashboardArtist(context, user, params.artistId);
  if (!artist) return { artist: null } as const;
  // The artist's today: their calendar follows their own zone.
  const today = todayIn(artist.timeZone);
  const tabParam = new URL(request.url).searchParams.get("tab");
  const tab: Tab = TABS.includes(tabParam as Tab) ? (tabParam as Tab) : "dashboard";
  const needsBookings = tab === "bookings" || tab === "schedule";
  const schedule = tab === "schedule" && artist.id === user.artistProfileId;
  const [counts, availability, bookings, sessions, trust, receipts, feedUrl, calendars] =
    await Promise.all([
      getDashboardCounts(context, user, { artist, today }),
      tab === "schedule" ? scheduleCalendar(context, user, artist, request, schedule) : null,
      needsBookings ? listArtistBookings(context, user) : Promise.resolve([]),
      tab === "sessions"
        ? loadSessionsSection(context, user, {
            artistId: artist.id,
            artistName: artist.artistName,
            query: sessionListQueryOf(new URL(request.url)),
          })
        : null,
      tab === "dashboard" ? getTrustFigures(context, user, [artist.id]) : null,
      tab === "dashboard" && artist.id === user.artistProfileId
        ? listTrustReceipts(context, user)
        : null,
      schedule ? getFeedUrl(context, user, "artist") : null,
      schedule ? listImportedCalendars(context, user) : [],
    ]);
  const { userId: _owner, ...publicArtist } = artist;
  // The Sessions tab lists the sessions they joined beside their own; so do these figures.
  const sessionFigures = {
    listed: artist.totalSessions + counts.joined.sessions,
    logged: artist.totalSessions,
    joined: counts.joined.sessions,
    verified: artist.verifiedSessions + counts.joined.verified,
    minutes: artist.totalMinutes + counts.joined.minutes,
  };
  return {
    artist: publicArtist,
    firstVisit: isFirstVisit(sessionFigures.listed, artist.totalReviews, counts),
    counts,
    sessionFigures,
    availability,
    bookings,
    sessions: sessions ? renderSessionsSection({ request, context }, sessions) : null,
    trust: trust?.[artist.id] ?? null,
    receipts,
    feedUrl,
    calendars,
    today,
    tab,
    profileUrl: new URL(`/artist/${artist.slug}`, context.env.appUrl).href,
  };
}

/**
 * The Schedule tab's calendar: the month and tab the address asks for (its arrows and tabs are
 * links), and its days as the booking rule has them: a day busy in an imported calendar or
 * holding a confirmed booking shows so, with the calendars' hosts to the artist.
 */
async function scheduleCalendar(
  context: AppContext,
  user: SignedInActor,
  artist: { id: string; timeZone: string },
  request: Request,
  own: boolean,
) {
  const today = todayIn(artist.timeZone);
  const { month, view, until } = calendarQueryOf(new URL(request.url), today);
  const days = { artistId: artist.id, from: today, to: until };
  const [marks, busy, busyIn] = await Promise.all([
    getAvailability(context, user, days),
    getBusyDays(context, user, days),
    own ? getImportedBusyDays(context, user, days) : {},
  ]);
  return { entries: shownDays(marks, busy, busyIn), month, view };
}

/**
 * A first visit is one to a profile with nothing on it yet: no sessions (logged or joined), no
 * dates scheduled, no pending requests and no reviews. It is greeted "Welcome", every later visit
 * "Welcome back".
 */
function isFirstVisit(
  sessions: number,
  reviews: number,
  counts: { pendingBookings: number; scheduledDates: number },
) {
  return (
    sessions === 0 && reviews === 0 && counts.pendingBookings === 0 && counts.scheduledDates === 0
  );
}

export default function ArtistDashboard({ loaderData }: Route.ComponentProps) {
  if (!loaderData.artist) {
    return (
      <main id="main" className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-2xl font-semibold">Dashboard</h1>
        <p className="mt-4 text-slate-600">
          No artist profile found. Please complete your profile setup to access the dashboard.
        </p>
        <Link to="/profile-setup" className={buttonClasses("primary", "md", "mt-8")}>
          Setup Profile
        </Link>
      </main>
    );
  }
  return <Dashboard {...loaderData} artist={loaderData.artist} />;
}

type DashboardData = Exclude<Route.ComponentProps["loaderData"], { artist: null }>;
type SessionFigures = DashboardData["sessionFigures"];

const sessionsWord = (n: number) => `${formatCount(n)} ${n === 1 ? "session" : "sessions"}`;

/** "1 logged · 2 joined": where the listed sessions come from. */
const sessionsSplit = ({ logged, joined }: SessionFigures) =>
  `${formatCount(logged)} logged · ${formatCount(joined)} joined`;

/** Recent Activity's sessions line, counting what the Sessions tab lists. */
function sessionsActivity(figures: SessionFigures) {
  if (figures.listed === 0) return "No sessions yet";
  const verified = `${formatCount(figures.verified)} verified`;
  if (figures.joined === 0) return `${sessionsWord(figures.logged)} logged, ${verified}`;
  return `${sessionsWord(figures.listed)} (${sessionsSplit(figures)}), ${verified}`;
}

function Dashboard({
  artist,
  firstVisit,
  counts,
  sessionFigures,
  availability,
  bookings,
  sessions,
  trust,
  receipts,
  feedUrl,
  calendars,
  today,
  tab,
  profileUrl,
}: DashboardData) {
  // The greeting holds while the artist stays here: setting a first date must not turn it.
  const [welcome] = useState(firstVisit ? "Welcome" : "Welcome back");
  const pending = counts.pendingBookings;
  const tabs: { id: Tab; label: string; badge?: number }[] = [
    { id: "dashboard", label: "Dashboard" },
    { id: "bookings", label: "Bookings", badge: pending },
    { id: "sessions", label: "Sessions" },
    { id: "schedule", label: "Schedule" },
  ];
  const tabHref = (id: Tab) => (id === "dashboard" ? "?" : `?tab=${id}`);

  return (
    <main id="main" className="mx-auto max-w-6xl space-y-8 px-4 py-8">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold">Dashboard</h1>
          <p className="mt-1 text-lg wrap-anywhere">
            {welcome}, {artist.artistName}!
          </p>
          <p className="text-slate-600">Manage your musical journey</p>
          {/* Only requests that wait for an answer are shown in the warning colour. */}
          {pending === 0 ? (
            <p className="mt-2 text-sm text-slate-600">No pending booking requests</p>
          ) : (
            <p className="mt-2 text-sm font-medium text-orange-700">
              {pending} pending booking {pending === 1 ? "request" : "requests"}
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to={`/artist/${artist.slug}`} className={buttonClasses("outline", "md")}>
            <Eye aria-hidden className="h-4 w-4" /> View Profile
          </Link>
          <ShareButton url={profileUrl} title={`${artist.artistName} on GigLedger`} />
          <Link to="/artist-profile/edit" className={buttonClasses("outline", "md")}>
            <Pencil aria-hidden className="h-4 w-4" /> Edit Profile
          </Link>
        </div>
      </header>

      <ProfileLink url={profileUrl} />

      <section aria-label="Your figures" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatCard
          icon={Music}
          label="Sessions"
          value={sessionFigures.listed}
          detail={sessionFigures.joined > 0 ? sessionsSplit(sessionFigures) : undefined}
        />
        <StatCard icon={BadgeCheck} label="Verified" value={sessionFigures.verified} />
        <StatCard icon={Clock} label="Hours" value={formatHours(sessionFigures.minutes)} />
        <StatCard
          icon={Star}
          label="Rating"
          value={
            <>
              {formatRating(artist.rating)}
              {artist.rating > 0 ? (
                <span className="text-base font-normal text-slate-500"> / 5</span>
              ) : null}
            </>
          }
          detail={`${artist.totalReviews} ${artist.totalReviews === 1 ? "review" : "reviews"}`}
        />
      </section>

      <nav aria-label="Dashboard sections">
        <ul className="grid grid-cols-2 gap-2 md:flex md:gap-0 md:border-b md:border-slate-200">
          {tabs.map((t) => (
            <li key={t.id}>
              <Link
                to={tabHref(t.id)}
                preventScrollReset
                aria-current={tab === t.id ? "page" : undefined}
                className={`flex items-center justify-center gap-2 whitespace-nowrap rounded-lg px-4 py-2 md:inline-flex text-sm font-medium md:rounded-none md:border-b-2 ${
                  tab === t.id
                    ? "bg-brand-600 text-white md:border-brand-600 md:bg-transparent md:text-brand-700"
                    : "bg-slate-100 text-slate-700 md:border-transparent md:bg-transparent md:hover:text-slate-900"
                }`}
              >
                {t.label}
                {t.badge ? (
                  <span className="rounded-full bg-orange-500 px-2 py-0.5 text-xs font-semibold text-white">
                    {t.badge}
                    <span className="sr-only"> pending</span>
                  </span>
                ) : null}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      {tab === "dashboard" ? (
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <Card as="section" aria-labelledby="quick-title">
            <h2 id="quick-title" className="text-lg font-semibold">
              Quick Actions
            </h2>
            <div className="mt-4 grid gap-3">
              <Link to="?tab=sessions" className={buttonClasses("primary", "md", "justify-start")}>
                <Plus aria-hidden className="h-4 w-4" /> Log New Session
              </Link>
              <Link to="?tab=schedule" className={buttonClasses("outline", "md", "justify-start")}>
                <CalendarDays aria-hidden className="h-4 w-4" /> Update Schedule
              </Link>
              <Link to="?tab=bookings" className={buttonClasses("outline", "md", "justify-start")}>
                <Inbox aria-hidden className="h-4 w-4" /> View Bookings
              </Link>
            </div>
          </Card>
          <Card as="section" aria-labelledby="activity-title">
            <h2 id="activity-title" className="text-lg font-semibold">
              Recent Activity
            </h2>
            <ul className="mt-4 space-y-3 text-sm">
              <li className="flex items-center gap-2">
                <Music aria-hidden className="h-4 w-4 text-brand-600" />
                {sessionsActivity(sessionFigures)}
              </li>
              <li className="flex items-center gap-2">
                <CalendarDays aria-hidden className="h-4 w-4 text-brand-600" />
                {counts.scheduledDates === 0
                  ? "No availability set"
                  : `${counts.scheduledDates} dates scheduled`}
              </li>
              {pending > 0 ? (
                <li className="flex items-center justify-between gap-2 rounded-lg bg-orange-50 p-3 text-orange-900">
                  <span>
                    You have {pending} pending booking {pending === 1 ? "request" : "requests"}
                  </span>
                  <Link to="?tab=bookings" className={buttonClasses("outline", "sm")}>
                    View
                  </Link>
                </li>
              ) : null}
            </ul>
          </Card>
          {trust && receipts ? (
            <TrustReceipts
              figures={trust}
              requests={receipts.requests}
              confirmed={receipts.confirmed}
              timeZone={artist.timeZone}
            />
          ) : null}
        </div>
      ) : null}

      {tab === "bookings" ? (
        <Card as="section" aria-labelledby="bookings-title">
          <h2 id="bookings-title" className="text-lg font-semibold">
            Bookings
          </h2>
          {bookings.length === 0 ? (
            <div className="mt-6 text-center">
              <p className="font-medium">No bookings yet</p>
              <p className="mt-1 text-sm text-slate-600">
                When you receive booking requests, they'll appear here.
              </p>
            </div>
          ) : (
            <ul className="mt-4 grid grid-cols-1 gap-4 lg:grid-cols-2">
              {bookings.map((b) => (
                <li key={b.id} className="min-w-0">
                  <ArtistBookingCard booking={b} />
                </li>
              ))}
            </ul>
          )}
        </Card>
      ) : null}

      {tab === "sessions" && sessions ? <MusicSessionsSection data={sessions} /> : null}

      {tab === "schedule" ? (
        <Card as="section" id="schedule" aria-labelledby="schedule-title">
          <h2 id="schedule-title" className="mb-4 text-lg font-semibold">
            Schedule
          </h2>
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-[3fr_2fr]">
            {availability ? (
              <ScheduleEditor
                entries={availability.entries}
                today={today}
                month={availability.month}
                view={availability.view}
              />
            ) : null}
            <div className="min-w-0 space-y-4">
              <div className="rounded-xl bg-slate-50 p-4 text-sm text-slate-700">
                <p className="font-medium">How to update your schedule</p>
                <p className="mt-1">
                  Pick a status (Available, Booked or Unavailable), then click a date to set it, or
                  pick Clear to remove it. Green is available, red is booked, grey is unavailable.
                  Days busy in your other calendars show as unavailable.
                </p>
              </div>
              <div>
                <h3 className="font-medium">Bookings</h3>
                {bookings.length === 0 ? (
                  <p className="mt-2 text-sm text-slate-600">No bookings yet</p>
                ) : (
                  <ul className="mt-2 divide-y divide-slate-100 text-sm">
                    {bookings.map((b) => (
                      <li key={b.id} className="flex items-center justify-between gap-2 py-2">
                        <Link
                          to={`/bookings/${b.id}`}
                          className="min-w-0 truncate text-brand-700 underline"
                        >
                          {b.eventName ?? "Booking"}
                        </Link>
                        <span className="shrink-0 text-slate-600">
                          {b.eventDate ? formatLongDate(b.eventDate) : "Date TBD"}
                        </span>
                        <BookingStatusBadge status={b.status} />
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            </div>
          </div>
          <div className="mt-8 grid grid-cols-1 gap-8 border-t border-slate-100 pt-6 lg:grid-cols-2">
            <CalendarFeedLink kind="artist" url={feedUrl} />
            <ImportedCalendars calendars={calendars} timeZone={artist.timeZone} />
          </div>
        </Card>
      ) : null}
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
