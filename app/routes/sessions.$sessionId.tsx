import { data, Link, redirect } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { type FieldErrors, fieldErrors } from "~/features/accounts/accounts.schema";
import { getCurrentUser, requireUser } from "~/features/accounts/accounts.server";
import { safeRedirectPath } from "~/features/accounts/auth-errors";
import { canEditSession, sharingModeOf } from "~/features/music-sessions/music-sessions.policy";
import {
  SessionFormSchema,
  sessionFormInput,
} from "~/features/music-sessions/music-sessions.schema";
import {
  createSession,
  deleteSession,
  getSessionDetail,
} from "~/features/music-sessions/music-sessions.server";
import {
  DETAIL_TABS,
  type DetailTab,
  SessionDetailView,
} from "~/features/music-sessions/session-detail";
import { SessionForm, type SessionFormValues } from "~/features/music-sessions/session-form";
import type { ShareResult } from "~/features/sharing/share-panel";
import { ShareSessionSchema } from "~/features/sharing/sharing.schema";
import { createSharingLink } from "~/features/sharing/sharing.server";
import { nowInZone } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/sessions.$sessionId";

const DEFAULT_RETURN = "/artist-dashboard?tab=sessions";

export const meta: Route.MetaFunction = ({ data: loaded }) => {
  if (!loaded)
    return pageMeta({ title: "Session Not Found", description: "This session does not exist." });
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
    return {
      view: "new" as const,
      returnTo: safeRedirectPath(url.searchParams.get("returnTo"), DEFAULT_RETURN),
      nowInAppZone: nowInZone(context.env.timeZone),
    };
  }
  const [viewer, session] = await Promise.all([
    getCurrentUser(request, context),
    getSessionDetail(context.db, params.sessionId),
  ]);
  if (!session) throw data(null, { status: 404 });
  const isOwner = canEditSession(viewer, session);
  const tabParam = url.searchParams.get("tab");
  const panelParam = url.searchParams.get("panel");
  return {
    view: "detail" as const,
    session,
    isOwner,
    tab: (DETAIL_TABS as readonly string[]).includes(tabParam ?? "")
      ? (tabParam as DetailTab)
      : "details",
    panel: (isOwner && (panelParam === "share" || panelParam === "delete") ? panelParam : null) as
      | "share"
      | "delete"
      | null,
    mode: sharingModeOf(session) as "collaboration" | "verification",
    returnTo: safeRedirectPath(
      url.searchParams.get("returnTo"),
      isOwner ? DEFAULT_RETURN : `/artist/${session.artistSlug}`,
    ),
    timeZone: context.env.timeZone,
    mediaLimits: context.env.mediaLimitsMb,
  };
}

type CreateResult = {
  intent: "create";
  fieldErrors?: FieldErrors;
  formError?: string;
  values: SessionFormValues;
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");

  if (params.sessionId === "new" && intent === "create") {
    const raw = sessionFormInput(form);
    const values: SessionFormValues = {
      ...raw,
      instruments: raw.instruments.filter(Boolean),
      genres: raw.genres.filter(Boolean),
      tags: raw.tags.filter(Boolean),
    };
    if (!user.artistProfileId) throw redirect("/profile-setup");
    const parsed = SessionFormSchema.safeParse(raw);
    if (!parsed.success)
      return data<CreateResult>(
        { intent, fieldErrors: fieldErrors(parsed.error), values },
        { status: 400 },
      );
    try {
      await createSession(context.db, user, parsed.data, context.env.timeZone);
    } catch (error) {
      context.logger.error({ err: error }, "create session failed");
      return data<CreateResult>(
        { intent, formError: "Failed to create session. Please try again.", values },
        { status: 500 },
      );
    }
    return redirectWithToast(safeRedirectPath(form.get("returnTo"), DEFAULT_RETURN), {
      title: "Session Created",
      description: "Your session has been logged successfully.",
    });
  }

  switch (intent) {
    case "delete": {
      let deleted: boolean;
      try {
        deleted = await deleteSession(context.db, context.storage, user, params.sessionId);
      } catch (error) {
        context.logger.error({ err: error }, "delete session failed");
        return data(
          {
            intent,
            toast: {
              title: "Error",
              description: "Failed to delete session. Please try again.",
              variant: "destructive" as const,
            },
          },
          { status: 500 },
        );
      }
      if (!deleted) throw data(null, { status: 404 });
      const back = safeRedirectPath(form.get("returnTo"), DEFAULT_RETURN);
      return redirectWithToast(
        back.startsWith(`/sessions/${params.sessionId}`) ? DEFAULT_RETURN : back,
        {
          title: "Session Deleted",
          description: "The session has been removed.",
        },
      );
    }
    case "share": {
      const parsed = ShareSessionSchema.safeParse({ maxUses: String(form.get("maxUses") ?? "") });
      if (!parsed.success)
        return data<ShareResult>(
          { intent, fieldErrors: fieldErrors(parsed.error) },
          { status: 400 },
        );
      const share = await createSharingLink(context.db, user, params.sessionId, {
        maxUses: parsed.data.maxUses,
        origin: new URL(context.env.appUrl).origin,
      });
      if (!share) throw data(null, { status: 404 });
      return data<ShareResult>({
        intent,
        share: { url: share.url, maxUses: share.maxUses },
        toast: {
          title: "Sharing Link Generated",
          description: "Copy the link and send it to the artists you played with.",
        },
      });
    }
    default:
      return data({ intent, formError: "Unknown request." }, { status: 400 });
  }
}

export default function SessionPage({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as
    | (CreateResult | ShareResult | { intent: "delete"; toast?: ShareResult["toast"] })
    | undefined;
  useToastOn(
    result,
    result?.intent === "create" && result.formError
      ? { title: "Error", description: result.formError, variant: "destructive" }
      : result?.intent === "delete"
        ? result.toast
        : null,
  );
  if (loaderData.view === "new") {
    const create = result?.intent === "create" ? result : undefined;
    return (
      <main id="main" className="mx-auto max-w-2xl px-4 py-8">
        <h1 className="text-2xl font-bold">Log New Session</h1>
        <p className="mt-1 text-slate-600">
          Add a gig, rehearsal, jam or recording to your history.
        </p>
        <div className="mt-6 rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
          <SessionForm
            values={create?.values}
            errors={create?.fieldErrors}
            formError={create?.formError}
            returnTo={loaderData.returnTo}
            nowInAppZone={loaderData.nowInAppZone}
          />
        </div>
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
      timeZone={loaderData.timeZone}
      mediaLimits={loaderData.mediaLimits}
      shareResult={result?.intent === "share" ? result : undefined}
    />
  );
}

export function ErrorBoundary() {
  return (
    <main id="main" className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <title>Session Not Found | GigLedger</title>
      <h1 className="text-2xl font-semibold">Session Not Found</h1>
      <p className="mt-2 text-slate-600">This session does not exist or was deleted.</p>
      <Link to="/artist-dashboard?tab=sessions" className={buttonClasses("primary", "md", "mt-8")}>
        Go to Dashboard
      </Link>
    </main>
  );
}
