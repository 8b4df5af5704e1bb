import { Link } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { buttonClasses } from "~/components/ui/button";
import { requireUser } from "~/features/accounts/accounts.server";
import {
  FeatureMediaSchema,
  PortfolioSettingsSchema,
  ProfileMediaSchema,
} from "~/features/portfolio/portfolio.schema";
import {
  loadPortfolioManager,
  setMediaFeatured,
  updatePortfolioSettings,
} from "~/features/portfolio/portfolio.server";
import {
  PortfolioManager,
  type PortfolioManagerLoaderData,
} from "~/features/portfolio/portfolio-manager";
import { setProfileMedia } from "~/features/portfolio/profile-media.server";
import { attempt, parseForm, readForm, replyOk } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import type { ToastInput } from "~/lib/toast";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/portfolio-manager";

// The owner's portfolio manager: a page of its own, the loader the embedded manager fetches, and
// the action behind every change it makes (feature, unfeature, bulk, settings).

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Portfolio", description: "Manage your GigLedger portfolio." }),
  { name: "robots", content: "noindex" },
];

const TOASTS = {
  added: { title: "Added to Portfolio" },
  removed: { title: "Removed from Portfolio" },
  featureFailed: {
    title: "Error",
    description: "Failed to update media portfolio status.",
    variant: "destructive",
  },
  saved: { title: "Portfolio Updated", description: "Your portfolio settings have been saved." },
  coverSet: {
    title: "Cover Photo Chosen",
    description: "It now leads your card in discovery and your profile.",
  },
  coverCleared: { title: "Cover Photo Removed" },
  clipSet: {
    title: "Clip Featured",
    description: "Clients can hear it on your card in discovery and on your profile.",
  },
  clipCleared: { title: "Clip No Longer Featured" },
  saveFailed: {
    title: "Error",
    description: "Failed to update portfolio settings.",
    variant: "destructive",
  },
} satisfies Record<string, ToastInput>;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const manager = await loadPortfolioManager(context, user);
  return { manager, timeZone: context.env.timeZone } satisfies PortfolioManagerLoaderData;
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);

  if (form.get("intent") === "settings") {
    const parsed = parseForm(PortfolioSettingsSchema, form, TOASTS.saveFailed);
    if (!parsed.ok) return parsed.reply;
    return attempt(
      async () => {
        await updatePortfolioSettings(context, user, parsed.data);
        return replyOk(undefined, { toast: TOASTS.saved });
      },
      { values: parsed.values, toast: TOASTS.saveFailed, notFound: "reply" },
    );
  }

  const intent = form.get("intent");
  if (intent === "cover" || intent === "clip") {
    const parsed = parseForm(ProfileMediaSchema, form, TOASTS.featureFailed);
    if (!parsed.ok) return parsed.reply;
    const { mediaId, chosen } = parsed.data;
    return attempt(
      async () => {
        await setProfileMedia(context, user, { slot: parsed.data.intent, mediaId, chosen });
        return replyOk(undefined, {
          toast: TOASTS[`${parsed.data.intent}${chosen ? "Set" : "Cleared"}`],
        });
      },
      { values: parsed.values, toast: TOASTS.featureFailed, notFound: "reply" },
    );
  }

  const parsed = parseForm(FeatureMediaSchema, form, TOASTS.featureFailed);
  if (!parsed.ok) return parsed.reply;
  const { featured, mediaIds } = parsed.data;
  // Media that is not in the artist's own sessions looks like media that does not exist. Every
  // refusal, that one included, is a toast on the page rather than an error page, so a media item
  // deleted meanwhile does not take the whole page down.
  return attempt(
    async () => {
      const changed = await setMediaFeatured(context, user, { mediaIds, featured });
      const what = changed === 1 ? "1 item" : `${changed} items`;
      return replyOk(undefined, {
        toast: featured
          ? { ...TOASTS.added, description: `${what} added to your portfolio.` }
          : { ...TOASTS.removed, description: `${what} removed from your portfolio.` },
      });
    },
    { values: parsed.values, toast: TOASTS.featureFailed, notFound: "reply" },
  );
}

export default function PortfolioManagerPage({ loaderData, actionData }: Route.ComponentProps) {
  // Without JavaScript the forms post here; the result shows on this page.
  useToastOn(actionData, actionData?.toast);
  return (
    <main id="main" className="mx-auto max-w-6xl space-y-6 px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold">Portfolio</h1>
        {loaderData.manager ? (
          <Link to="/artist-dashboard?tab=sessions" className={buttonClasses("ghost", "sm")}>
            Back to Dashboard
          </Link>
        ) : null}
      </div>
      <section className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
        <PortfolioManager data={loaderData} />
      </section>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
