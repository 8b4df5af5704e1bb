import SlidersHorizontal from "lucide-react/icons/sliders-horizontal";
import { useEffect, useRef, useState } from "react";
import {
  Form,
  Link,
  NavigationType,
  useLocation,
  useNavigation,
  useNavigationType,
} from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { buttonClasses } from "~/components/ui/button";
import { inputClasses } from "~/components/ui/input-classes";
import { ServerMarkup } from "~/components/ui/server-markup";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import { ArtistCard } from "~/features/artists/artist-card";
import {
  DISCOVERY_LAST_PAGE,
  DISCOVERY_PAGE_SIZE,
  FREE_COUNT_LIMIT,
} from "~/features/artists/artists.constants";
import { type DiscoveryQuery, parseDiscoveryQuery } from "~/features/artists/artists.schema";
import { loadDiscovery } from "~/features/artists/discovery.server";
import type { DiscoveryFacets, Facet } from "~/features/artists/discovery-facets.server";
import { matchText } from "~/features/artists/match-text";
import {
  GROUP_REQUEST_ARTISTS_READ,
  GROUP_REQUEST_MAX,
} from "~/features/bookings/bookings.constants";
import { TrustLines } from "~/features/trust/trust-lines";
import { publicPageHeaders } from "~/lib/cache-headers";
import { formatLongDate } from "~/lib/date-text";
import { isUuid } from "~/lib/ids";
import type { Markup } from "~/lib/markup";
import { pageMeta } from "~/lib/meta";
import { formatCount } from "~/lib/number-text";
import { renderMarkup } from "~/lib/server-markup.server";
import { useSearchAsYouType } from "~/lib/use-search-as-you-type";
import type { Route } from "./+types/artist-discovery";

// Anonymous visitors get a shared-cacheable page (see app/lib/cache-headers.ts).
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Discover Talented Artists",
    description:
      "Search musicians by name, genre or instrument, filter by location, and book them for your event.",
  });

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const query = parseDiscoveryQuery(params);
  const ticked = tickedOf(params);
  const viewer = await getCurrentUser(request, context);
  const { artists, hasMore, trust, matches, media, facets, freeCount, tickedElsewhere } =
    await loadDiscovery(context, viewer, query, { ticked });
  const results = renderMarkup(
    { request, context },
    <Results
      query={query}
      artists={artists}
      hasMore={hasMore}
      trust={trust}
      matches={matches}
      media={media}
      ticked={ticked}
      tickedElsewhere={tickedElsewhere}
    />,
  );
  const filters = renderMarkup({ request, context }, <Filters query={query} facets={facets} />);
  const freeText = query.date && freeCount !== null ? freeCountText(freeCount, query.date) : null;
  return { query, freeText, filters, results };
}

/** The search form's id: the results' ticks and page buttons belong to it (`form` attribute). */
const SEARCH_FORM = "discovery-search";

/**
 * The artists ticked for 'Ask together' so far: the address carries them from one page of
 * results to the next, and into a new search (decision 060). Ids only, each once, no more than
 * the request page reads.
 */
const tickedOf = (params: URLSearchParams) =>
  [...new Set(params.getAll("artist").filter(isUuid))].slice(0, GROUP_REQUEST_ARTISTS_READ);

/**
 * A filter's options: the values artists have, with how many the filter finds. A value in the
 * address that is not among them (a rare one, or none) stays selectable, without a count.
 */
function FacetOptions({ facets, selected }: { facets: Facet[]; selected: string }) {
  const listed = !selected || facets.some((f) => f.value === selected);
  // A value no artist has yet (an occasion nobody plays) is left out, unless chosen.
  const offered = facets.filter((f) => f.count > 0 || f.value === selected);
  return (
    <>
      {listed ? null : <option value={selected}>{selected}</option>}
      {offered.map((f) => (
        <option key={f.value} value={f.value}>
          {`${f.value} (${formatCount(f.count)})`}
        </option>
      ))}
    </>
  );
}

/** A filter of values artists have (genre, location, occasion), with its counts. */
function FacetSelect({
  name,
  label,
  any,
  facets,
  query,
}: {
  name: "genre" | "location" | "occasion";
  label: string;
  /** The first choice, which filters nothing. */
  any: string;
  facets: Facet[];
  query: DiscoveryQuery;
}) {
  return (
    <div>
      <label htmlFor={`${name}-filter`} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <select id={`${name}-filter`} name={name} defaultValue={query[name]} className={inputClasses}>
        <option value="">{any}</option>
        <FacetOptions facets={facets} selected={query[name]} />
      </select>
    </div>
  );
}

/** "12 artists free on February 14, 2026" (a count at the limit reads "More than …"). */
function freeCountText(count: number, date: string) {
  const day = formatLongDate(date);
  if (count > FREE_COUNT_LIMIT)
    return `More than ${formatCount(FREE_COUNT_LIMIT)} artists free on ${day}`;
  return `${formatCount(count)} ${count === 1 ? "artist" : "artists"} free on ${day}`;
}

/** The hours a budget can be for (any half-hour step in the address still works). */
const BUDGET_HOURS = [1, 2, 3, 4, 5, 6, 8];
const hoursChoices = (chosen: number) =>
  BUDGET_HOURS.includes(chosen) ? BUDGET_HOURS : [...BUDGET_HOURS, chosen].sort((a, b) => a - b);

/** The "at least N Client-verified gigs" choices offered (any other N in the address still works). */
const CLIENT_VERIFIED_STEPS = [1, 3, 5, 10, 25];
/** Results that can show on a first screen (a row of three on a wide one); later ones are drawn when near. */
const FIRST_SCREEN_CARDS = 3;

/** Why a text search found the artist (where its words appear). */
function MatchLine({ text }: { text: string | null }) {
  if (!text) return null;
  return <p className="mt-2 text-sm text-brand-800 wrap-anywhere">{text}</p>;
}

/**
 * The filters under the search box: drawn on the server only (decision 022, as the results are),
 * so none of their code reaches the browser. Their counts are the whole catalogue's, not the
 * search's, so the page keeps them as first drawn (`KeptServerMarkup`) while results follow.
 */
function Filters({ query, facets }: { query: DiscoveryQuery; facets: DiscoveryFacets }) {
  return (
    <details
      open={Boolean(
        query.genre ||
          query.location ||
          query.occasion ||
          query.date ||
          query.budget ||
          query.clientVerified ||
          query.sort,
      )}
      className="group"
    >
      <summary className={buttonClasses("outline", "sm", "cursor-pointer list-none")}>
        <SlidersHorizontal aria-hidden className="h-4 w-4" /> Filters
      </summary>
      <div className="mt-3 grid gap-3 sm:grid-cols-3">
        <FacetSelect
          name="genre"
          label="Genre"
          any="All genres"
          facets={facets.genres}
          query={query}
        />
        <FacetSelect
          name="location"
          label="Location"
          any="All locations"
          facets={facets.locations}
          query={query}
        />
        <FacetSelect
          name="occasion"
          label="Occasion"
          any="Any occasion"
          facets={facets.occasions}
          query={query}
        />
        <div>
          <label htmlFor="date-filter" className="mb-1 block text-sm font-medium">
            Available on
          </label>
          <input
            id="date-filter"
            type="date"
            name="date"
            defaultValue={query.date}
            className={inputClasses}
          />
        </div>
        <fieldset>
          <legend className="mb-1 block text-sm font-medium">Budget</legend>
          <div className="flex items-center gap-2">
            <label htmlFor="budget-filter" className="sr-only">
              Up to (rupees)
            </label>
            <span aria-hidden className="shrink-0 whitespace-nowrap text-sm text-slate-600">
              Up to ₹
            </span>
            <input
              id="budget-filter"
              type="number"
              name="budget"
              min={0}
              step={500}
              inputMode="numeric"
              defaultValue={query.budget > 0 ? query.budget : ""}
              placeholder="Any"
              aria-describedby="budget-hint"
              className={`${inputClasses} min-w-0`}
            />
            <label htmlFor="hours-filter" className="sr-only">
              For how many hours
            </label>
            <select
              id="hours-filter"
              name="hours"
              defaultValue={String(query.hours)}
              className={`${inputClasses} w-auto`}
            >
              {hoursChoices(query.hours).map((h) => (
                <option key={h} value={h}>
                  for {h} {h === 1 ? "hour" : "hours"}
                </option>
              ))}
            </select>
          </div>
          <p id="budget-hint" className="mt-1 text-xs text-slate-600">
            Hourly rate × hours. Artists who quote each booking are left out.
          </p>
        </fieldset>
        <div>
          <label htmlFor="sort-order" className="mb-1 block text-sm font-medium">
            Sort by
          </label>
          <select id="sort-order" name="sort" defaultValue={query.sort} className={inputClasses}>
            <option value="">Best match</option>
            <option value="price">Price: low to high</option>
          </select>
        </div>
        <div>
          <label htmlFor="client-verified-filter" className="mb-1 block text-sm font-medium">
            Client-verified gigs
          </label>
          <select
            id="client-verified-filter"
            name="clientVerified"
            defaultValue={String(query.clientVerified)}
            aria-describedby="client-verified-hint"
            className={inputClasses}
          >
            <option value="0">Any</option>
            {CLIENT_VERIFIED_STEPS.includes(query.clientVerified) ||
            query.clientVerified === 0 ? null : (
              <option value={query.clientVerified}>At least {query.clientVerified}</option>
            )}
            {CLIENT_VERIFIED_STEPS.map((n) => (
              <option key={n} value={n}>
                At least {n}
              </option>
            ))}
          </select>
          <p id="client-verified-hint" className="mt-1 text-xs text-slate-600">
            Gigs booked, played and rated here.{" "}
            <Link to="/verification" className="text-brand-700 underline">
              About the levels
            </Link>
          </p>
        </div>
      </div>
    </details>
  );
}

/**
 * One request to several artists (decision 060): the cards' 'Ask together' boxes belong to the
 * search form, as do this bar's button (which sends the form to the request page instead,
 * starting on the date searched for) and the page buttons, so the ticks travel in the address
 * from page to page and into the next search. The bar stays at the bottom of the screen and lists
 * the artists ticked on other pages, to untick there. Plain HTML: it works without JavaScript.
 */
function AskTogether({
  tickedElsewhere,
}: {
  tickedElsewhere: { id: string; artistName: string }[];
}) {
  return (
    <div className="sticky bottom-0 z-10 mt-6 flex flex-wrap items-center justify-between gap-3 rounded-xl border border-slate-200 bg-white/95 p-3 shadow-md">
      <div className="min-w-0 text-sm text-slate-700">
        <p>Ask up to {GROUP_REQUEST_MAX} artists at once: tick “Ask together” on their cards.</p>
        {tickedElsewhere.length > 0 ? (
          <fieldset className="mt-1">
            <legend className="float-left mr-2">Also ticked:</legend>
            {tickedElsewhere.map((artist) => (
              <label key={artist.id} className="mr-3 inline-flex items-center gap-1 wrap-anywhere">
                <input
                  type="checkbox"
                  name="artist"
                  value={artist.id}
                  form={SEARCH_FORM}
                  defaultChecked
                  className="h-4 w-4 rounded border-slate-300"
                />
                {artist.artistName}
              </label>
            ))}
          </fieldset>
        ) : null}
      </div>
      <button
        type="submit"
        form={SEARCH_FORM}
        formAction="/bookings"
        name="ask"
        value="1"
        className={buttonClasses("primary", "md")}
      >
        Ask together
      </button>
    </div>
  );
}

/** A button to another page of the results: it sends the search form, ticks and all. */
function PageButton({ page, children }: { page: number; children: string }) {
  return (
    <button
      type="submit"
      form={SEARCH_FORM}
      name="page"
      value={page}
      className={buttonClasses("outline", "md")}
    >
      {children}
    </button>
  );
}

/** The artists found and the page links: drawn on the server only (decision 022). */
function Results({
  query,
  artists,
  hasMore,
  trust,
  matches,
  media,
  ticked,
  tickedElsewhere,
}: Pick<
  Awaited<ReturnType<typeof loadDiscovery>>,
  "artists" | "hasMore" | "trust" | "matches" | "media" | "tickedElsewhere"
> & {
  query: DiscoveryQuery;
  ticked: string[];
}) {
  // Several artists to choose from, here or across pages, or some already chosen.
  const askTogether =
    artists.length > 1 ||
    query.page > 1 ||
    hasMore ||
    tickedElsewhere.length > 0 ||
    artists.some((a) => ticked.includes(a.id));
  // More artists match, but the pages end here (decision 081): no Next, and a word why.
  const stopsHere = hasMore && query.page >= DISCOVERY_LAST_PAGE;
  return (
    <>
      {artists.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-slate-300 p-10 text-center">
          <h2 className="text-lg font-semibold">No artists found</h2>
          <p className="mt-1 text-slate-600">
            Try adjusting your search or filters to discover more talent.
          </p>
        </div>
      ) : (
        <div className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {artists.map((artist, i) => (
            <ArtistCard
              key={artist.id}
              artist={artist}
              availableOn={query.date || undefined}
              belowFirstScreen={i >= FIRST_SCREEN_CARDS}
              media={media[artist.id]}
            >
              <MatchLine text={matchText(query.q, matches[artist.id])} />
              <TrustLines figures={trust[artist.id]} verifiedSessions={artist.verifiedSessions} />
              {askTogether ? (
                <label className="mt-3 flex items-center gap-2 text-sm text-slate-800">
                  <input
                    type="checkbox"
                    name="artist"
                    value={artist.id}
                    form={SEARCH_FORM}
                    defaultChecked={ticked.includes(artist.id)}
                    aria-label={`Ask together: ${artist.artistName}`}
                    className="h-4 w-4 rounded border-slate-300"
                  />
                  Ask together
                </label>
              ) : null}
            </ArtistCard>
          ))}
        </div>
      )}
      {askTogether ? <AskTogether tickedElsewhere={tickedElsewhere} /> : null}
      {query.page > 1 || hasMore ? (
        <nav aria-label="Pages" className="mt-10 flex items-center justify-between">
          {query.page > 1 ? <PageButton page={query.page - 1}>Previous</PageButton> : <span />}
          <span className="text-sm text-slate-600">Page {query.page}</span>
          {hasMore && !stopsHere ? <PageButton page={query.page + 1}>Next</PageButton> : <span />}
        </nav>
      ) : null}
      {stopsHere ? (
        <p className="mt-4 text-center text-sm text-slate-700">
          These are the first {formatCount(DISCOVERY_LAST_PAGE * DISCOVERY_PAGE_SIZE)} artists
          found. To see others, narrow your search: a location, a date, an occasion or a budget.
        </p>
      ) : null}
    </>
  );
}

/**
 * Server markup kept as it was last drawn while `keep` holds: for fields a person is using (a
 * search's filters while the results follow their choices), which markup drawn again would take
 * their focus and their typing from. Drawn again with the page's markup when `keep` is false.
 * (Here, not beside `ServerMarkup`: only this page uses it, and the shared file is every public
 * page's weight.)
 */
function KeptServerMarkup({
  markup,
  keep,
  className,
}: {
  markup: Markup;
  keep: boolean;
  className?: string;
}) {
  const [kept, setKept] = useState(markup);
  if (!keep && kept !== markup) setKept(markup);
  return <ServerMarkup markup={keep ? kept : markup} className={className} />;
}

export default function ArtistDiscovery({ loaderData }: Route.ComponentProps) {
  const { query, freeText } = loaderData;
  const navigation = useNavigation();
  const { submitSoon } = useSearchAsYouType();
  const form = useRef<HTMLFormElement>(null);
  // The page's own searches as one types replace the history entry; any other way here (a link,
  // back or forward, Enter) draws the fields again from the address.
  const ownSearch = useNavigationType() === NavigationType.Replace;
  const { key } = useLocation();
  // The address the box was last drawn for: the page as first drawn keeps whatever was typed
  // before its scripts ran.
  const drawnFor = useRef(key);
  useEffect(() => {
    if (drawnFor.current === key) return;
    drawnFor.current = key;
    const box = form.current?.elements.namedItem("q");
    if (!ownSearch && box instanceof HTMLInputElement && box.value !== query.q) box.value = query.q;
  }, [key, ownSearch, query.q]);
  // Results follow the typing and the choices; each search replaces the last in history. A native
  // listener: the filters are server markup, whose fields React's onChange does not see.
  useEffect(() => {
    const element = form.current;
    if (!element) return;
    const onInput = () => submitSoon(element, 300);
    element.addEventListener("input", onInput);
    return () => element.removeEventListener("input", onInput);
  }, [submitSoon]);
  const loading =
    navigation.state === "loading" && navigation.location.pathname === "/artist-discovery";

  return (
    <main id="main" className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold">Discover Talented Artists</h1>
      <Form ref={form} id={SEARCH_FORM} method="get" role="search" className="mt-6 space-y-3">
        <div className="flex gap-2">
          <label htmlFor="artist-search" className="sr-only">
            Search artists
          </label>
          <input
            id="artist-search"
            type="search"
            name="q"
            defaultValue={query.q}
            placeholder="Search by name, genre, or instrument..."
            className={`${inputClasses} min-w-0`}
          />
          <button type="submit" className={buttonClasses("primary", "md")}>
            Search
          </button>
        </div>
        {/* Drawn on the server; kept while the results follow the person's own choices. */}
        <KeptServerMarkup markup={loaderData.filters} keep={ownSearch} />
      </Form>

      <div aria-live="polite" aria-busy={loading} className="mt-8">
        {loading ? <p className="mb-4 text-sm text-slate-600">Loading artists...</p> : null}
        {freeText ? <p className="mb-4 text-sm text-slate-700">{freeText}</p> : null}
        <ServerMarkup markup={loaderData.results} className={loading ? "opacity-60" : undefined} />
      </div>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <RouteErrorBoundary
      error={error}
      notFound={{
        title: "Discover Talented Artists",
        message: "Error loading artists. Please try again.",
      }}
    />
  );
}
