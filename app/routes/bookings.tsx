import { Link, redirect, useFetcher, useLocation } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { Card } from "~/components/ui/card";
import { forgetCurrentUser, getCurrentUser } from "~/features/accounts/accounts.server";
import { canBookArtist } from "~/features/artists/artists.policy";
import { getArtistProfile } from "~/features/artists/artists.server";
import { getAvailability, getBusyDays } from "~/features/availability/availability.server";
import { BookingRequestForm } from "~/features/bookings/booking-request-form";
import {
  createBookingRequest,
  createGroupRequest,
} from "~/features/bookings/booking-requests.server";
import { artistTodayFor } from "~/features/bookings/booking-views.server";
import {
  BOOKING_REFUSALS,
  GROUP_REQUEST_ARTISTS_READ,
  GROUP_REQUEST_MAX,
} from "~/features/bookings/bookings.constants";
import {
  BookingRequestSchema,
  bookingFormHref,
  bookingPrefillOf,
  GroupRequestSchema,
} from "~/features/bookings/bookings.schema";
import { bookingFormDates, groupFormDates } from "~/features/bookings/quick-picks";
import { requestArtistOf } from "~/features/bookings/request-artist.server";
import { addDays } from "~/lib/dates";
import type { FormReply } from "~/lib/form";
import { attempt, notFound, parseForm, readForm } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { namesList } from "~/lib/names-list";
import { requestOriginOf } from "~/lib/request-origin.server";
import { redirectWithToast } from "~/lib/toast.server";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/bookings";

export const meta: Route.MetaFunction = ({ data: loaded }) => {
  const artists = loaded && !loaded.nobody ? loaded.artists : [];
  return pageMeta({
    title:
      artists.length > 1
        ? `Ask ${artists.length} artists`
        : artists[0]
          ? `Book ${artists[0].artistName}`
          : "Book an artist",
    description: "Send a booking request.",
  });
};

/**
 * The booking form on a page of its own: where the profile's dialog leads without JavaScript, and
 * where discovery's 'Ask together' leads with two or three artists (`?artist=…&artist=…`, one
 * request to each; decision 060).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const asked = [...new Set(params.getAll("artist"))];
  // Discovery's 'Ask together' sent with no card ticked: back to the results, saying what to do.
  if (asked.length === 0 && params.get("ask") === "1") return { nobody: true } as const;
  // A NUL byte can't be in any slug or id: answered here, before a query sees it.
  if (asked.length === 0 || asked.some((a) => !a || a.includes("\u0000"))) notFound();
  const user = await getCurrentUser(request, context);
  const found = await Promise.all(
    asked.slice(0, GROUP_REQUEST_ARTISTS_READ).map((a) => getArtistProfile(context, user, a)),
  );
  if (asked.length === 1) {
    const [only] = found;
    if (!only) notFound();
    // A signed-out visitor fills the form in first; sending it takes them to sign in (action).
    if (user && !canBookArtist(user, only)) throw redirect(`/artist/${only.slug}`);
  }
  // Of several, an artist gone or the client's own profile is left out (the page lists who stays).
  // An artist named twice (by slug and by id) is listed once.
  const profiles = found.filter(
    (a, i): a is NonNullable<typeof a> =>
      a !== null &&
      (!user || canBookArtist(user, a)) &&
      found.findIndex((b) => b?.id === a.id) === i,
  );
  if (profiles.length === 0) notFound();
  const artists = await Promise.all(
    profiles.map(async (artist) => {
      // The artist's today: dates are wall-clock dates in their zone.
      const today = await artistTodayFor(context, user, artist.id);
      const days = { artistId: artist.id, from: today, to: addDays(today, 120) };
      const [entries, busyDays] = await Promise.all([
        getAvailability(context, user, days),
        getBusyDays(context, user, days),
      ]);
      return {
        ...requestArtistOf(artist),
        dates: bookingFormDates(entries, busyDays, today),
      };
    }),
  );
  return {
    nobody: false as const,
    artists: artists.map(({ dates: _, ...artist }) => artist),
    ...groupFormDates(artists),
    prefill: bookingPrefillOf(prefillParamsOf(params)),
    signedIn: user !== null,
    tooMany: asked.length > GROUP_REQUEST_MAX,
  };
}

/**
 * What the form starts with. Discovery's search form, which 'Ask together' sends here, always
 * holds its budget's hours: they are the event's only when a budget was searched for.
 */
function prefillParamsOf(params: URLSearchParams) {
  if (params.get("ask") !== "1" || Number(params.get("budget")) > 0) return params;
  const kept = new URLSearchParams(params);
  kept.delete("hours");
  return kept;
}

const TOAST_TITLES: Record<string, string> = {
  [BOOKING_REFUSALS.dateNotAvailable]: "Date Not Available",
  [BOOKING_REFUSALS.startTimePassed]: "Date Not Available",
  [BOOKING_REFUSALS.duplicateRequest]: "Request Already Sent",
  [BOOKING_REFUSALS.rateLimited]: "Too Many Requests",
  [BOOKING_REFUSALS.termsChanged]: "Terms Changed",
};

/** How a refused or failed request answers: the form again, with what was typed and why. */
const refusedRequest = (
  context: Route.ActionArgs["context"],
  values: Record<string, string>,
  event: string,
) => ({
  values,
  toastTitle: (problem: { reason?: string }) => TOAST_TITLES[problem.reason ?? ""] ?? "Error",
  failure: {
    message: "There was an error submitting your booking request. Please try again.",
    title: "Booking Failed",
    logger: context.logger,
    event,
  },
});

/**
 * Signed out: sign in or up first, then back to this form with what was chosen in it
 * (docs/product.md, "Bookings").
 */
const signInFirst = (artists: string[], request: Parameters<typeof bookingFormHref>[1]) =>
  redirect(`/auth?reason=book&redirectTo=${encodeURIComponent(bookingFormHref(artists, request))}`);

export async function action({ request, context }: Route.ActionArgs) {
  const user = await getCurrentUser(request, context);
  const form = await readForm(request);
  if (form.has("artistIds")) return sendToSeveral(request, context, user, form);
  const parsed = parseForm(BookingRequestSchema, form);
  if (!parsed.ok) return parsed.reply;
  if (!user) return signInFirst([parsed.data.artistId], parsed.data);
  return attempt(
    async () => {
      const booked = await createBookingRequest(
        context,
        user,
        parsed.data,
        requestOriginOf(request, context),
      );
      // The first request made this user a client: the next look-up must see the new role.
      forgetCurrentUser(context);
      // The request's own page confirms it (also without JavaScript), with its messages.
      return redirectWithToast(`/bookings/${booked.id}`, {
        title: "Booking Request Sent!",
        description: `Your booking request for ${booked.artistName} has been submitted. You'll receive a confirmation email soon.`,
      });
    },
    refusedRequest(context, parsed.values, "booking request failed"),
  );
}

/** One request to two or three artists: on to the first booking's page, which lists the others. */
async function sendToSeveral(
  request: Request,
  context: Route.ActionArgs["context"],
  user: Awaited<ReturnType<typeof getCurrentUser>>,
  form: FormData,
) {
  const parsed = parseForm(GroupRequestSchema, form);
  if (!parsed.ok) return parsed.reply;
  if (!user) return signInFirst(parsed.data.artistIds, parsed.data);
  return attempt(
    async () => {
      const sent = await createGroupRequest(
        context,
        user,
        parsed.data,
        requestOriginOf(request, context),
      );
      forgetCurrentUser(context);
      return redirectWithToast(`/bookings/${sent[0]?.id}`, {
        title: "Booking Requests Sent!",
        description: `Your request went to ${namesList(sent.map((s) => s.artistName))}. You'll receive a confirmation email soon.`,
      });
    },
    refusedRequest(context, parsed.values, "group booking request failed"),
  );
}

export default function BookPage({ loaderData, actionData }: Route.ComponentProps) {
  if (loaderData.nobody) return <NobodyChosen />;
  return <RequestPage loaderData={loaderData} actionData={actionData} />;
}

/** 'Ask together' with no card ticked. */
function NobodyChosen() {
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-10">
      <h1 className="text-2xl font-bold">Choose the artists to ask</h1>
      <p className="mt-3 text-slate-700">
        Tick “Ask together” on the cards of up to {GROUP_REQUEST_MAX} artists, then choose “Ask
        together” again.
      </p>
      <p className="mt-4">
        <Link to="/artist-discovery" className="text-brand-700 underline">
          ← Back to Discover Artists
        </Link>
      </p>
    </main>
  );
}

/** This page's address without one artist: the others, and the date and hours it started on. */
function withoutArtist(search: string, artists: { id: string; slug: string }[], removed: string) {
  const params = new URLSearchParams(search);
  params.delete("artist");
  for (const other of artists) if (other.id !== removed) params.append("artist", other.slug);
  return params.toString();
}

function RequestPage({
  loaderData,
  actionData,
}: {
  loaderData: Extract<Route.ComponentProps["loaderData"], { nobody: false }>;
  actionData: Route.ComponentProps["actionData"];
}) {
  const fetcher = useFetcher<FormReply>();
  const result = fetcher.data ?? actionData;
  useToastOn(result, result?.toast);
  const { artists } = loaderData;
  const { search } = useLocation();
  const several = artists.length > 1;
  const [first] = artists;
  const form = (
    <BookingRequestForm
      fetcher={fetcher}
      result={result}
      artists={artists}
      quickPicks={loaderData.quickPicks}
      blockedDates={loaderData.blockedDates}
      today={loaderData.today}
      prefill={loaderData.prefill}
      signedIn={loaderData.signedIn}
    />
  );
  if (!several && first) {
    return (
      <main id="main" className="mx-auto max-w-xl px-4 py-10">
        <p className="text-sm wrap-anywhere">
          <Link to={`/artist/${first.slug}`} className="text-brand-700 underline">
            ← Back to {first.artistName}
          </Link>
        </p>
        <h1 className="mt-3 text-2xl font-bold wrap-anywhere">Book {first.artistName}</h1>
        <Card className="mt-6">{form}</Card>
      </main>
    );
  }
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-10">
      <p className="text-sm">
        <Link to="/artist-discovery" className="text-brand-700 underline">
          ← Back to Discover Artists
        </Link>
      </p>
      <h1 className="mt-3 text-2xl font-bold">{`Ask ${artists.length} artists at once`}</h1>
      <p className="mt-2 text-sm text-slate-600">
        One request, sent to each of them. Each answers on their own booking; when you agree with
        one, we withdraw the others and tell those artists.
      </p>
      {loaderData.tooMany ? (
        <p role="alert" className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
          {`One request can go to at most ${GROUP_REQUEST_MAX} artists. Remove ${artists.length - GROUP_REQUEST_MAX} to send it.`}
        </p>
      ) : null}
      <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200">
        {artists.map((a) => (
          <li key={a.id} className="flex items-center justify-between gap-3 p-3 text-sm">
            <Link to={`/artist/${a.slug}`} className="font-medium wrap-anywhere underline">
              {a.artistName}
            </Link>
            <Link
              to={`/bookings?${withoutArtist(search, artists, a.id)}`}
              className="shrink-0 text-brand-700 underline"
              aria-label={`Remove ${a.artistName} from this request`}
            >
              Remove
            </Link>
          </li>
        ))}
      </ul>
      <Card className="mt-6">{form}</Card>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
