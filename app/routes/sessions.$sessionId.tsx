import { isRouteErrorResponse, Link, redirect } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { buttonClasses } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { getCurrentUser, requireUser } from "~/features/accounts/accounts.server";
import { answerLineup } from "~/features/music-sessions/lineup.server";
import { sharingModeOf } from "~/features/music-sessions/music-sessions.policy";
import {
  DeleteSessionSchema,
  EditSessionSchema,
  LineupAnswerSchema,
  SessionFormSchema,
} from "~/features/music-sessions/music-sessions.schema";
import {
  createSession,
  deleteSession,
  getSessionDetail,
  newSessionDefaults,
  updateSession,
} from "~/features/music-sessions/music-sessions.server";
import {
  DETAIL_TABS,
  type DetailPanel,
  type DetailTab,
  SessionDetailView,
} from "~/features/music-sessions/session-detail";
import { SessionForm } from "~/features/music-sessions/session-form";
import { ShareSessionSchema } from "~/features/sharing/sharing.schema";
import { createSharingLink } from "~/features/sharing/sharing.server";
import { zoneAbbreviation } from "~/lib/dates";
import { attempt, notFound, parseForm, readForm, replyError, replyOk } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { redirectWithToast } from "~/lib/toast.server";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/sessions.$sessionId";

const DEFAULT_RETURN = "/artist-dashboard?tab=sessions";

export const meta: Route.MetaFunction = ({ data: loaded, error }) => {
  if (!loaded)
    return isRouteErrorResponse(error) && error.status === 404
      ? pageMeta({ title: "Session Not Found", description: "This session does not exist." })
      : [];
  if (loaded.view === "new")
    return pageMeta({ title: "Log New Session", description: "Log a musical session." });
  return pageMeta({
    title: loaded.session.title,
    description: `${loaded.session.title} by ${loaded.session.artistName} on GigLedger.`,
  });
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  if (params.sessionId === "new") {
    const user = await requireUser(request, context);
    if (!user.artistProfileId) throw redirect("/profile-setup");
    const defaults = await newSessionDefaults(context, user);
    return {
      view: "new" as const,
      returnTo: safeRedirectPath(url.searchParams.get("returnTo"), DEFAULT_RETURN),
      now: defaults.now,
      timeZone: defaults.timeZone,
      zoneName: zoneAbbreviation(defaults.timeZone),
    };
  }
  const viewer = await getCurrentUser(request, context);
  const session = await getSessionDetail(context, viewer, params.sessionId);
  if (!session) notFound();
  const isOwner = session.canEdit;
  const tabParam = url.searchParams.get("tab");
  const panelParam = url.searchParams.get("panel");
  const panels: DetailPanel[] = isOwner ? ["share", "delete", "edit"] : [];
  return {
    view: "detail" as const,
    session,
    isOwner,
    tab: (DETAIL_TABS as readonly string[]).includes(tabParam ?? "")
      ? (tabParam as DetailTab)
      : "details",
    panel: panels.find((p) => p === panelParam) ?? null,
    mode: sharingModeOf(session),
    returnTo: safeRedirectPath(
      url.searchParams.get("returnTo"),
      isOwner ? DEFAULT_RETURN : `/artist/${session.artistSlug}`,
    ),
    mediaLimits: context.env.mediaLimitsMb,
  };
}

const FAILURES = {
  create: "Failed to create session. Please try again.",
  update: "Failed to update session. Please try again.",
  delete: "Failed to delete session. Please try again.",
} as const;

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  const intent = form.get("intent");
  const { sessionId } = params;
  // A failed create, update or delete is answered in words, with what was typed kept.
  const failure = (key: keyof typeof FAILURES) => ({
    message: FAILURES[key],
    logger: context.logger,
    event: `${key} session failed`,
  });

  const run = async () => {
    if (sessionId === "new" && intent === "create") {
      if (!user.artistProfileId) throw redirect("/profile-setup");
      const parsed = parseForm(SessionFormSchema, form);
      if (!parsed.ok) return parsed.reply;
      return attempt(
        async () => {
          await createSession(context, user, parsed.data);
          return redirectWithToast(safeRedirectPath(form.get("returnTo"), DEFAULT_RETURN), {
            title: "Session Created",
            description: "Your session has been logged successfully.",
          });
        },
        { values: parsed.values, toastTitle: "Error", failure: failure("create") },
      );
    }
    switch (intent) {
      case "update": {
        const parsed = parseForm(EditSessionSchema, form);
        if (!parsed.ok) return parsed.reply;
        return attempt(
          async () => {
            await updateSession(context, user, { ...parsed.data, sessionId });
            const back = safeRedirectPath(form.get("returnTo"), "");
            return redirectWithToast(
              `/sessions/${sessionId}${back ? `?returnTo=${encodeURIComponent(back)}` : ""}`,
              { title: "Session Updated", description: "Your changes have been saved." },
            );
          },
          { values: parsed.values, toastTitle: "Error", failure: failure("update") },
        );
      }
      case "delete": {
        const parsed = parseForm(DeleteSessionSchema, form);
        if (!parsed.ok) return parsed.reply;
        return attempt(
          async () => {
            await deleteSession(context, user, sessionId);
            const back = safeRedirectPath(parsed.data.returnTo, DEFAULT_RETURN);
            // The session's own page is gone: back to the list instead.
            return redirectWithToast(
              back.startsWith(`/sessions/${sessionId}`) ? DEFAULT_RETURN : back,
              { title: "Session Deleted", description: "The session has been removed." },
            );
          },
          { values: parsed.values, failure: failure("delete") },
        );
      }
      case "lineup": {
        const parsed = parseForm(LineupAnswerSchema, form);
        if (!parsed.ok) return parsed.reply;
        return attempt(
          async () => {
            await answerLineup(context, user, { sessionId, answer: parsed.data.answer });
            return redirectWithToast(`/sessions/${sessionId}?tab=verification`, {
              title:
                parsed.data.answer === "confirmed" ? "Thanks for confirming" : "Answer recorded",
              description:
                parsed.data.answer === "confirmed"
                  ? "You confirmed this session took place as logged."
                  : "You said this session did not take place as logged.",
            });
          },
          { toastTitle: "Error" },
        );
      }
      case "share": {
        const parsed = parseForm(ShareSessionSchema, form);
        if (!parsed.ok) return parsed.reply;
        return attempt(async () => {
          const share = await createSharingLink(context, user, {
            sessionId,
            maxUses: parsed.data.maxUses,
          });
          return replyOk(
            { url: share.url, maxUses: share.maxUses },
            {
              toast: {
                title: "Sharing Link Generated",
                description: "Copy the link and send it to the artists you played with.",
              },
            },
          );
        });
      }
      default:
        return replyError(400, "Unknown request.");
    }
  };

  return run();
}

export default function SessionPage({ loaderData, actionData }: Route.ComponentProps) {
  // A sharing link (`value`) is toasted by the share panel itself.
  useToastOn(actionData, actionData?.value ? null : actionData?.toast);
  if (loaderData.view === "new") {
    return (
      <main id="main" className="mx-auto max-w-2xl px-4 py-8">
        <h1 className="text-2xl font-bold">Log New Session</h1>
        <p className="mt-1 text-slate-600">
          Add a gig, rehearsal, jam or recording to your history.
        </p>
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
  return (
    <SessionDetailView
      session={loaderData.session}
      isOwner={loaderData.isOwner}
      tab={loaderData.tab}
      panel={loaderData.panel}
      mode={loaderData.mode}
      returnTo={loaderData.returnTo}
      mediaLimits={loaderData.mediaLimits}
      shareResult={loaderData.panel === "share" ? actionData : undefined}
      editResult={loaderData.panel === "edit" ? actionData : undefined}
    />
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <RouteErrorBoundary
      error={error}
      notFound={{
        title: "Session Not Found",
        message: "This session does not exist or was deleted.",
        actions: (
          <Link to="/artist-dashboard?tab=sessions" className={buttonClasses("primary", "md")}>
            Go to Dashboard
          </Link>
        ),
      }}
    />
  );
}
