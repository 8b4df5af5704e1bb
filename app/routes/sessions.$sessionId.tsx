import { isRouteErrorResponse, Link } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { buttonClasses } from "~/components/ui/button";
import { getCurrentUser, requireUser } from "~/features/accounts/accounts.server";
import { listMedia } from "~/features/media/media.server";
import { answerLineup } from "~/features/music-sessions/lineup.server";
import { sharingModeOf } from "~/features/music-sessions/music-sessions.policy";
import {
  DeleteSessionSchema,
  EditSessionSchema,
  LineupAnswerSchema,
} from "~/features/music-sessions/music-sessions.schema";
import {
  deleteSession,
  getSessionDetail,
  updateSession,
} from "~/features/music-sessions/music-sessions.server";
import { ShareSessionSchema } from "~/features/sharing/sharing.schema";
import { createSharingLink } from "~/features/sharing/sharing.server";
import { attempt, notFound, parseForm, readForm, replyError, replyOk } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { redirectWithToast } from "~/lib/toast.server";
import { useToastOn } from "~/lib/use-toast-on";
import {
  DETAIL_TABS,
  type DetailPanel,
  type DetailTab,
  SessionDetailView,
} from "~/pages/session-detail/session-detail";
import type { Route } from "./+types/sessions.$sessionId";

const DEFAULT_RETURN = "/artist-dashboard?tab=sessions";

export const meta: Route.MetaFunction = ({ data: loaded, error }) => {
  if (!loaded)
    return isRouteErrorResponse(error) && error.status === 404
      ? pageMeta({ title: "Session Not Found", description: "This session does not exist." })
      : [];
  return pageMeta({
    title: loaded.session.title,
    description: `${loaded.session.title} by ${loaded.session.artistName} on GigLedger.`,
  });
};

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const viewer = await getCurrentUser(request, context);
  const [session, media] = await Promise.all([
    getSessionDetail(context, viewer, params.sessionId),
    listMedia(context, params.sessionId),
  ]);
  if (!session) notFound();
  const isOwner = session.canEdit;
  const tabParam = url.searchParams.get("tab");
  const panelParam = url.searchParams.get("panel");
  const panels: DetailPanel[] = isOwner ? ["share", "delete", "edit"] : [];
  return {
    session,
    media,
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
  return (
    <SessionDetailView
      session={loaderData.session}
      media={loaderData.media}
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
