import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { ServerMarkup } from "~/components/ui/server-markup";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import { formatRating } from "~/features/artists/format";
import { getPortfolioPage, portfolioUrl } from "~/features/portfolio/portfolio.server";
import { usePortfolioReports } from "~/features/portfolio/portfolio-reports";
import { publicPageHeaders } from "~/lib/cache-headers";
import { fileUrl } from "~/lib/file-url";
import { notFound } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { renderMarkup } from "~/lib/server-markup.server";
import { PublicPortfolio } from "~/pages/public-portfolio/public-portfolio";
import type { Route } from "./+types/portfolio.$id";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await getCurrentUser(request, context);
  const page = await getPortfolioPage(context, viewer, params.id);
  // A private portfolio looks exactly like one that does not exist, except to its artist.
  if (!page) notFound();
  const url = portfolioUrl(context.env.appUrl, page.id);
  const photo = page.media.find((m) => m.mediaType === "photo");
  const imageKey = photo ? (photo.previewPath ?? photo.filePath) : page.artist.avatarPath;
  const { artist } = page;
  const description = (
    page.description ??
    `${artist.artistName} · ${artist.genre} · ${artist.location} · ${artist.verifiedSessions} verified sessions · rating ${formatRating(artist.rating)}`
  ).slice(0, 200);
  return {
    // What the page shows; only its reports and "Share" run in the browser (decision 022).
    markup: renderMarkup({ request, context }, <PublicPortfolio page={page} />),
    report: { id: page.id, isOwner: page.isOwner, title: page.title, url },
    head: {
      title: page.title,
      description,
      url,
      image: imageKey ? new URL(fileUrl(imageKey), context.env.appUrl).href : null,
      isPublic: page.isPublic,
    },
  };
}

// Anonymous visitors get a shared-cacheable page (see app/lib/cache-headers.ts).
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ data: loaded }) => {
  if (!loaded) return [{ title: "Page Not Found | GigLedger" }];
  const { title, description, url, image, isPublic } = loaded.head;
  return [
    ...pageMeta({ title, description }),
    { property: "og:type", content: "profile" },
    { property: "og:url", content: url },
    ...(image ? [{ property: "og:image", content: image }] : []),
    { tagName: "link", rel: "canonical", href: url },
    ...(isPublic ? [] : [{ name: "robots", content: "noindex" }]),
  ];
};

export default function PortfolioRoute({ loaderData }: Route.ComponentProps) {
  const actions = usePortfolioReports(loaderData.report);
  return <ServerMarkup markup={loaderData.markup} actions={actions} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
