import { redirect } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { Card } from "~/components/ui/card";
import { requireUser } from "~/features/accounts/accounts.server";
import { SessionFormSchema } from "~/features/music-sessions/music-sessions.schema";
import { createSession, newSessionDefaults } from "~/features/music-sessions/music-sessions.server";
import { SessionForm } from "~/features/music-sessions/session-form";
import { zoneAbbreviation } from "~/lib/dates";
import { attempt, parseForm, readForm, replyError } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { redirectWithToast } from "~/lib/toast.server";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/sessions.new";

const DEFAULT_RETURN = "/artist-dashboard?tab=sessions";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: "Log New Session", description: "Log a musical session." });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  if (!user.artistProfileId) throw redirect("/profile-setup");
  const defaults = await newSessionDefaults(context, user);
  return {
    returnTo: safeRedirectPath(new URL(request.url).searchParams.get("returnTo"), DEFAULT_RETURN),
    now: defaults.now,
    timeZone: defaults.timeZone,
    zoneName: zoneAbbreviation(defaults.timeZone),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  if (form.get("intent") !== "create") return replyError(400, "Unknown request.");
  if (!user.artistProfileId) throw redirect("/profile-setup");
  const parsed = parseForm(SessionFormSchema, form);
  if (!parsed.ok) return parsed.reply;
  // A failed create is answered in words, with what was typed kept.
  return attempt(
    async () => {
      await createSession(context, user, parsed.data);
      return redirectWithToast(safeRedirectPath(form.get("returnTo"), DEFAULT_RETURN), {
        title: "Session Created",
        description: "Your session has been logged successfully.",
      });
    },
    {
      values: parsed.values,
      toastTitle: "Error",
      failure: {
        message: "Failed to create session. Please try again.",
        logger: context.logger,
        event: "create session failed",
      },
    },
  );
}

export default function NewSessionPage({ loaderData, actionData }: Route.ComponentProps) {
  useToastOn(actionData, actionData?.toast);
  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-8">
      <h1 className="text-2xl font-bold">Log New Session</h1>
      <p className="mt-1 text-slate-600">Add a gig, rehearsal, jam or recording to your history.</p>
      <Card padding="fluid" className="mt-6">
        <SessionForm
          mode="create"
          values={actionData?.values}
          errors={actionData?.fieldErrors}
          formError={actionData?.formError}
          returnTo={loaderData.returnTo}
          cancelHref={loaderData.returnTo}
          now={loaderData.now}
          timeZone={loaderData.timeZone}
          zoneName={loaderData.zoneName}
        />
      </Card>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
