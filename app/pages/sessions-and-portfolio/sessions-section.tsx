import Plus from "lucide-react/icons/plus";
import Search from "lucide-react/icons/search";
import { lazy, Suspense, useId, useRef, useState } from "react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { inputClasses } from "~/components/ui/input-classes";
import { SelectField } from "~/components/ui/select-field";
import { ServerMarkup } from "~/components/ui/server-markup";
import { Spinner } from "~/components/ui/spinner";
import { segmentedTabClass, tabFromSearch, tabHref, useTabs } from "~/components/ui/tabs";
import type { SessionsSectionData } from "~/features/music-sessions/music-sessions.server";
import { SESSION_FILTERS } from "~/features/music-sessions/session-types";
import type { Markup } from "~/lib/markup";
import { withWholeStylesheet } from "~/lib/page-styles";
import { useEarlyInput } from "~/lib/use-early-input";
import { useSearchAsYouType } from "~/lib/use-search-as-you-type";

const SEARCH_PARAMS = new Set(["sq", "stype"]);
/** Only the owner sees the portfolio manager: a visitor's browser never fetches it. */
const PortfolioManager = lazy(() =>
  withWholeStylesheet(import("~/features/portfolio/portfolio-manager")).then((m) => ({
    default: m.PortfolioManager,
  })),
);

/** The address parameter of the Sessions / Portfolio tabs (no value: Sessions). */
const TAB_PARAM = "stab";

/** What 'Musical Sessions & Portfolio' shows in the browser: the list is server markup. */
export type SessionsSectionView = Pick<SessionsSectionData, "isOwner" | "query"> & {
  list: Markup;
  /**
   * Usually below the first screen (a profile's foot): the list is drawn only when near the
   * viewport. Only the list: a text field or select inside a skipped block makes the browser lay
   * the whole block out on the first paint anyway (decision 026).
   */
  belowFirstScreen: boolean;
};

/** 'Log Session', coming back to this page (with its search) once logged. */
export function logSessionHref(location: { pathname: string; search: string }) {
  return `/sessions/new?returnTo=${encodeURIComponent(location.pathname + location.search)}`;
}

/**
 * 'Musical Sessions & Portfolio': an artist's sessions (searchable, filtered by type) and
 * portfolio, for a public profile and for the owner's dashboard. Search, filter and the selected
 * tab live in the page URL (sq, stype, stab), so they work without JavaScript and survive a
 * reload; with JavaScript the tabs switch in place. Owner-only editors live on the session pages,
 * not in this bundle.
 */
export function MusicSessionsSection({ data }: { data: SessionsSectionView }) {
  const id = useId();
  const location = useLocation();
  const tabs = [
    { id: "sessions", label: "Sessions" },
    { id: "portfolio", label: "Portfolio" },
  ] as const;
  const ids = tabs.map((t) => t.id);
  const tabsState = useTabs(ids, tabFromSearch(location.search, TAB_PARAM, ids, "sessions"));
  return (
    <Card as="section" padding="fluid" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        Musical Sessions &amp; Portfolio
      </h2>
      <div
        role="tablist"
        aria-label="Sessions and portfolio"
        className="mt-4 inline-flex rounded-lg bg-slate-100 p-1"
      >
        {tabs.map((t) => (
          // A link without JavaScript (the page opens on that tab), a tab switched in place with it.
          <a
            key={t.id}
            {...tabsState.linkTabProps(t.id, tabHref(location, TAB_PARAM, t.id, "sessions"))}
            className={`${segmentedTabClass} inline-block px-4 py-1.5`}
          >
            {t.label}
          </a>
        ))}
      </div>
      <div {...tabsState.panelProps("sessions")} className="mt-4">
        <SessionsTab data={data} />
      </div>
      <div {...tabsState.panelProps("portfolio")} className="mt-4">
        {data.isOwner ? (
          <Suspense fallback={<p className="text-slate-600">Loading portfolio...</p>}>
            <PortfolioManager />
          </Suspense>
        ) : (
          <p className="text-slate-600">Portfolio management is only available to the artist</p>
        )}
      </div>
    </Card>
  );
}

function SessionsTab({ data }: { data: SessionsSectionView }) {
  const location = useLocation();
  const navigation = useNavigation();
  const search = useSearchAsYouType();
  const formRef = useRef<HTMLFormElement>(null);
  const [q, setQ] = useState(data.query.q);
  const searchBox = useRef<HTMLInputElement>(null);
  // The box follows the address when it changes (back, forward), not on the first render.
  const [searched, setSearched] = useState(data.query.q);
  if (searched !== data.query.q) {
    setSearched(data.query.q);
    setQ(data.query.q);
  }

  const here = new URLSearchParams(location.search);
  const kept = [...here.entries()].filter(([k]) => !SEARCH_PARAMS.has(k));
  const logHref = logSessionHref(location);

  const searching =
    navigation.state === "loading" &&
    navigation.location.pathname === location.pathname &&
    ["sq", "stype"].some(
      (k) => new URLSearchParams(navigation.location.search).get(k) !== here.get(k),
    );

  const submitSoon = (delay: number) => search.submitSoon(formRef.current, delay);
  // Words typed before the page's scripts ran are kept, and searched for as if typed now.
  useEarlyInput(searchBox, (input) => {
    if (input.value === data.query.q) return;
    setQ(input.value);
    submitSoon(350);
  });

  return (
    <>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <Form
          ref={formRef}
          method="get"
          role="search"
          className="flex flex-1 flex-col gap-2 sm:flex-row"
          preventScrollReset
        >
          {kept.map(([k, v]) => (
            <input key={`${k}=${v}`} type="hidden" name={k} value={v} />
          ))}
          <div className="relative flex-1">
            <label htmlFor="session-search" className="sr-only">
              Search sessions
            </label>
            <Search
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400"
            />
            <input
              ref={searchBox}
              id="session-search"
              type="search"
              name="sq"
              value={q}
              onChange={(e) => {
                setQ(e.target.value);
                submitSoon(350);
              }}
              placeholder="Search sessions..."
              className={`${inputClasses} pl-9`}
            />
          </div>
          <SelectField
            id="session-type"
            label="Session type"
            labelHidden
            name="stype"
            defaultValue={data.query.type}
            key={data.query.type}
            onChange={() => submitSoon(0)}
            className="sm:w-44"
          >
            {SESSION_FILTERS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </SelectField>
          {/* With JavaScript the list follows as you type or pick; without it, this applies both. */}
          <button type="submit" className={buttonClasses("outline", "md")}>
            Search
          </button>
        </Form>
        {data.isOwner ? (
          <Link to={logHref} className={buttonClasses("primary", "md", "shrink-0")}>
            <Plus aria-hidden className="h-4 w-4" /> Log Session
          </Link>
        ) : null}
      </div>

      <div
        aria-live="polite"
        aria-busy={searching}
        className={data.belowFirstScreen ? "mt-4 drawn-when-near" : "mt-4"}
      >
        {searching ? (
          <p className="flex items-center justify-center gap-2 py-10 text-slate-600">
            <Spinner /> Loading sessions...
          </p>
        ) : (
          <ServerMarkup markup={data.list} />
        )}
      </div>
    </>
  );
}
