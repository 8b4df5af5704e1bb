import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import { NotFound } from "~/components/layout/not-found";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import { formatRating } from "~/features/artists/format";
import { PortfolioEventSchema } from "~/features/portfolio/portfolio.schema";
import {
  getPortfolioPage,
  portfolioUrl,
  recordPortfolioEvent,
} from "~/features/portfolio/portfolio.server";
import { PublicPortfolio } from "~/features/portfolio/public-portfolio";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/portfolio.$id";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await getCurrentUser(request, context);
  const page = await getPortfolioPage(context.db, params.id, viewer);
  // A private portfolio looks exactly like one that does not exist, except to its artist.
  if (!page) throw data(null, { status: 404 });
  const url = portfolioUrl(context.env.appUrl, page.id);
  const photo = page.media.find((m) => m.mediaType === "photo");
  const imageKey = photo ? (photo.previewPath ?? photo.filePath) : page.artist.avatarPath;
  return {
    page,
    url,
    image: imageKey ? new URL(`/files/${imageKey}`, context.env.appUrl).href : null,
  };
}

/** Reports from the page itself: a view after hydration, a play, a share. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const parsed = PortfolioEventSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ recorded: false }, { status: 400 });
  const viewer = await getCurrentUser(request, context);
  const recorded = await recordPortfolioEvent(context.db, {
    portfolioId: params.id,
    actor: viewer,
    event: parsed.data,
    visitorKey: viewer ? `user:${viewer.id}` : `ip:${context.clientIp}`,
  });
  return { recorded };
}

// Reporting an event changes nothing on the page: no reload of its data.
export function shouldRevalidate({
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  return formMethod?.toUpperCase() === "POST" ? false : defaultShouldRevalidate;
}

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

export function ErrorBoundary() {
  return (
    <>
      <title>Page not found | GigLedger</title>
      <NotFound />
    </>
  );
}
