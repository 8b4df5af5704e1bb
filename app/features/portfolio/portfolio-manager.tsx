import BarChart3 from "lucide-react/icons/chart-column";
import PlayCircle from "lucide-react/icons/circle-play";
import ExternalLink from "lucide-react/icons/external-link";
import Eye from "lucide-react/icons/eye";
import FileAudio from "lucide-react/icons/file-headphone";
import Image from "lucide-react/icons/image";
import Share2 from "lucide-react/icons/share-2";
import Video from "lucide-react/icons/video";
import { useEffect } from "react";
import { useFetcher, useLocation } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { StatCard } from "~/components/ui/stat-card";
import { segmentedTabClass, tabFromSearch, tabHref, useTabs } from "~/components/ui/tabs";
import { MANAGER_ACTION } from "./manager-action";
import type { PortfolioManagerData } from "./portfolio.server";
import { NOT_THE_ARTIST } from "./portfolio.texts";
import { PortfolioCard } from "./portfolio-card";
import { PortfolioMediaTab } from "./portfolio-media-tab";
import { PortfolioSettingsTab } from "./portfolio-settings-tab";

/** What /portfolio-manager's loader answers: null when the viewer is not an artist. */
export type PortfolioManagerLoaderData = {
  manager: PortfolioManagerData | null;
  timeZone: string;
};

const TABS = [
  { id: "overview", label: "Overview" },
  { id: "media", label: "Media" },
  { id: "settings", label: "Settings" },
  { id: "analytics", label: "Analytics" },
] as const;
type Tab = (typeof TABS)[number]["id"];
/** The search parameter naming the tab a link opens the manager on (it works without JavaScript). */
const TAB_PARAM = "portfolioTab";

/**
 * The owner's portfolio manager: Overview, Media, Settings and Analytics tabs. Given `data` (a
 * page loader) it shows it; without, it loads /portfolio-manager itself, so a page can embed it
 * with no loader changes.
 */
export function PortfolioManager({ data }: { data?: PortfolioManagerLoaderData }) {
  const loader = useFetcher<PortfolioManagerLoaderData>();
  useEffect(() => {
    if (!data && loader.state === "idle" && !loader.data) loader.load(MANAGER_ACTION);
  }, [data, loader]);
  const current = data ?? loader.data;
  if (!current) {
    return (
      <div aria-live="polite" className="py-10 text-center text-slate-600">
        <p className="flex items-center justify-center gap-2">
          <Spinner /> Loading portfolio...
        </p>
        <noscript>
          <a href={MANAGER_ACTION} className="mt-2 inline-block text-brand-700 underline">
            Open the portfolio manager
          </a>
        </noscript>
      </div>
    );
  }
  if (!current.manager) return <p className="text-slate-600">{NOT_THE_ARTIST}</p>;
  return <ManagerTabs data={current.manager} timeZone={current.timeZone} />;
}

function ManagerTabs({ data, timeZone }: { data: PortfolioManagerData; timeZone: string }) {
  const location = useLocation();
  const ids = TABS.map((t) => t.id);
  const tabs = useTabs<Tab>(ids, tabFromSearch(location.search, TAB_PARAM, ids, "overview"));
  const { portfolio, counts, analytics } = data;
  return (
    <div>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div
          role="tablist"
          aria-label="Portfolio manager"
          className="grid grid-cols-4 rounded-lg bg-slate-100 p-1 sm:inline-flex"
        >
          {TABS.map((t) => (
            <a
              key={t.id}
              {...tabs.linkTabProps(t.id, tabHref(location, TAB_PARAM, t.id, "overview"))}
              className={`${segmentedTabClass} px-1 py-1.5 text-center sm:px-4`}
            >
              {t.label}
            </a>
          ))}
        </div>
        {portfolio.url ? (
          <a
            href={portfolio.url}
            target="_blank"
            rel="noopener"
            className={buttonClasses("outline", "sm", "self-start sm:self-auto")}
          >
            <Eye aria-hidden className="h-4 w-4" /> Preview
            <ExternalLink aria-hidden className="h-3 w-3" />
          </a>
        ) : null}
      </div>

      {TABS.map((t) => (
        <div key={t.id} {...tabs.panelProps(t.id)} className="mt-4">
          {t.id === "overview" ? (
            <div className="space-y-4">
              <section
                aria-label="Featured media"
                className="grid grid-cols-1 gap-3 sm:grid-cols-3"
              >
                <StatCard icon={FileAudio} label="Audio Tracks" value={counts.audio} />
                <StatCard icon={Video} label="Videos" value={counts.video} />
                <StatCard icon={Image} label="Photos" value={counts.photo} />
              </section>
              <PortfolioCard portfolio={portfolio} timeZone={timeZone} />
            </div>
          ) : t.id === "media" ? (
            <PortfolioMediaTab media={data.media} />
          ) : t.id === "settings" ? (
            <PortfolioSettingsTab portfolio={portfolio} />
          ) : (
            <section aria-label="Analytics" className="space-y-3">
              <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
                <StatCard icon={BarChart3} label="Portfolio Views" value={analytics.views} />
                <StatCard icon={PlayCircle} label="Media Plays" value={analytics.plays} />
                <StatCard icon={Share2} label="Shares" value={analytics.shares} />
              </div>
              <p className="text-sm text-slate-600">
                Last {analytics.days} days. Your own visits are not counted.
              </p>
            </section>
          )}
        </div>
      ))}
    </div>
  );
}
