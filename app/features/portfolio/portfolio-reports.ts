import { useEffect, useRef } from "react";
import type { MarkupActions } from "~/components/ui/server-markup";
import { useShareLink } from "~/components/ui/share-button";

/**
 * Reports a visit, a play or a share to `/portfolio/{id}/report` (portfolio-report.server.ts): one
 * plain POST, with nothing for the router to discover or reload. A report changes nothing shown,
 * and a lost one is not worth bothering the visitor with.
 */
function report(portfolioId: string, fields: Record<string, string>) {
  fetch(`/portfolio/${encodeURIComponent(portfolioId)}/report`, {
    method: "POST",
    body: new URLSearchParams(fields),
  })
    // Read to the end: Chromium reports a response whose body nobody reads as never finished,
    // so the page would never look idle (to our tests, and to tools that wait for it).
    .then((answer) => answer.text())
    .catch(() => {});
}

/**
 * The public portfolio's behaviour (its markup is the server's, see `PublicPortfolio`): the visit
 * is reported once hydrated, so crawlers, link previews and prefetches are never counted; each
 * recording's first start is a play; "Share" shares or copies the link and counts a share. The
 * artist's own visits report nothing.
 */
export function usePortfolioReports(page: {
  id: string;
  isOwner: boolean;
  title: string;
  url: string;
}): MarkupActions {
  const share = useShareLink({
    title: "Link Copied",
    description: "Portfolio link copied to clipboard.",
  });
  const reportTo = page.isOwner ? null : page.id;
  const sent = useRef<string | null>(null);
  const played = useRef(new Set<string>());
  useEffect(() => {
    if (!reportTo || sent.current === reportTo) return;
    sent.current = reportTo;
    played.current.clear();
    report(reportTo, { intent: "view" });
  }, [reportTo]);
  // A player marked `data-report-play` (the markup's) reports its first start. "play" does not
  // bubble: it is caught on its way down.
  useEffect(() => {
    if (!reportTo) return;
    const onPlay = (event: Event) => {
      const mediaId = (event.target as HTMLElement).closest?.<HTMLElement>("[data-report-play]")
        ?.dataset.reportPlay;
      if (!mediaId || played.current.has(mediaId)) return;
      played.current.add(mediaId);
      report(reportTo, { intent: "play", mediaId });
    };
    document.addEventListener("play", onPlay, true);
    return () => document.removeEventListener("play", onPlay, true);
  }, [reportTo]);
  return {
    share: async () => {
      if ((await share(page.url, page.title)) && reportTo) report(reportTo, { intent: "share" });
    },
  };
}
