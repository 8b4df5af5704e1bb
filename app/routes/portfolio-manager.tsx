import { data, Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { fieldErrors } from "~/features/accounts/accounts.schema";
import { requireUser } from "~/features/accounts/accounts.server";
import {
  FeatureMediaSchema,
  PORTFOLIO_TOASTS,
  PortfolioSettingsSchema,
} from "~/features/portfolio/portfolio.schema";
import {
  loadPortfolioManager,
  setMediaFeatured,
  updatePortfolioSettings,
} from "~/features/portfolio/portfolio.server";
import {
  type PortfolioActionData,
  PortfolioManager,
  type PortfolioManagerLoaderData,
} from "~/features/portfolio/portfolio-manager";
import { pageMeta } from "~/lib/meta";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/portfolio-manager";

// The owner's portfolio manager: a page of its own, the loader the embedded manager fetches, and
// the action behind every change it makes (feature, unfeature, bulk, settings).

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Portfolio", description: "Manage your GigLedger portfolio." }),
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const manager = await loadPortfolioManager(context.db, {
    viewer: user,
    appUrl: context.env.appUrl,
  });
  return { manager, timeZone: context.env.timeZone } satisfies PortfolioManagerLoaderData;
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData();
  const reply = (status: number, body: PortfolioActionData) => data(body, { status });

  if (form.get("intent") === "settings") {
    const parsed = PortfolioSettingsSchema.safeParse({
      title: form.get("title") ?? "",
      description: form.get("description") ?? "",
      isPublic: form.get("isPublic") ?? "",
    });
    if (!parsed.success) {
      return reply(400, {
        ok: false,
        fieldErrors: fieldErrors(parsed.error),
        toast: PORTFOLIO_TOASTS.saveFailed,
      });
    }
    try {
      const saved = await updatePortfolioSettings(context.db, user, parsed.data);
      if (!saved) return reply(404, { ok: false, toast: PORTFOLIO_TOASTS.saveFailed });
      return reply(200, { ok: true, toast: PORTFOLIO_TOASTS.saved });
    } catch (error) {
      context.logger.error({ err: error }, "portfolio settings update failed");
      return reply(500, { ok: false, toast: PORTFOLIO_TOASTS.saveFailed });
    }
  }

  const parsed = FeatureMediaSchema.safeParse({
    featured: form.get("featured"),
    mediaIds: form.getAll("mediaIds"),
  });
  if (!parsed.success) return reply(400, { ok: false, toast: PORTFOLIO_TOASTS.featureFailed });
  const { featured, mediaIds } = parsed.data;
  try {
    const changed = await setMediaFeatured(context.db, user, mediaIds, featured);
    // Media that is not in the artist's own sessions looks like media that does not exist.
    if (changed === 0) return reply(404, { ok: false, toast: PORTFOLIO_TOASTS.featureFailed });
    const what = changed === 1 ? "1 item" : `${changed} items`;
    return reply(200, {
      ok: true,
      toast: featured
        ? { ...PORTFOLIO_TOASTS.added, description: `${what} added to your portfolio.` }
        : { ...PORTFOLIO_TOASTS.removed, description: `${what} removed from your portfolio.` },
    });
  } catch (error) {
    context.logger.error({ err: error }, "portfolio media update failed");
    return reply(500, { ok: false, toast: PORTFOLIO_TOASTS.featureFailed });
  }
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
