import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import { formatRating } from "~/features/artists/format";
import { getPortfolioPage, portfolioUrl } from "~/features/portfolio/portfolio.server";
import { PublicPortfolio } from "~/features/portfolio/public-portfolio";
import { publicPageHeaders } from "~/lib/cache-headers";
import { notFound } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/portfolio.$id";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await getCurrentUser(request, context);
  const page = await getPortfolioPage(context, viewer, params.id);
  // A private portfolio looks exactly like one that does not exist, except to its artist.
  if (!page) notFound();
  const url = portfolioUrl(context.env.appUrl, page.id);
  const photo = page.media.find((m) => m.mediaType === "photo");
  const imageKey = photo ? (photo.previewPath ?? photo.filePath) : page.artist.avatarPath;
  return {
    page,
    url,
    image: imageKey ? new URL(`/files/${imageKey}`, context.env.appUrl).href : null,
  };
}

// Anonymous visitors get a shared-cacheable page (see app/lib/cache-headers.ts).
export const headers = publicPageHeaders;

export const meta: Route.MetaFunction = ({ data: loaded }) => {
  if (!loaded) return [{ title: "Page Not Found | GigLedger" }];
  const { page, url, image } = loaded;
  const { artist } = page;
  const description = (
    page.description ??
    `${artist.artistName} · ${artist.genre} · ${artist.location} · ${artist.verifiedSessions} verified sessions · rating ${formatRating(artist.rating)}`
  ).slice(0, 200);
  return [
    ...pageMeta({ title: page.title, description }),
    { property: "og:type", content: "profile" },
    { property: "og:url", content: url },
    ...(image ? [{ property: "og:image", content: image }] : []),
    { tagName: "link", rel: "canonical", href: url },
    ...(page.isPublic ? [] : [{ name: "robots", content: "noindex" }]),
  ];
};

export default function PortfolioRoute({ loaderData }: Route.ComponentProps) {
  return <PublicPortfolio page={loaderData.page} url={loaderData.url} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
