import BadgeCheck from "lucide-react/icons/badge-check";
import UserCheck from "lucide-react/icons/user-check";
import { data, Link } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { buttonClasses } from "~/components/ui/button";
import { getCurrentUser, requireUser } from "~/features/accounts/accounts.server";
import { getArtistProfile } from "~/features/artists/artists.server";
import type { SharingMode } from "~/features/music-sessions/music-sessions.policy";
import {
  JoinCard,
  JoinForm,
  SignInRequired,
  warningIcon,
} from "~/features/sharing/join-session-view";
import { hasUsedLinkOn } from "~/features/sharing/participants.server";
import { canJoinSession } from "~/features/sharing/sharing.policy";
import {
  INVALID_LINK_MESSAGE,
  JoinSessionSchema,
  NOT_ENDED_MESSAGE,
  TokenSchema,
  VerifySessionSchema,
} from "~/features/sharing/sharing.schema";
import {
  checkSharingToken,
  joinSessionAsCollaborator,
  submitPeerVerification,
} from "~/features/sharing/sharing.server";
import type { FormReply } from "~/lib/form";
import {
  attempt,
  parseForm,
  readForm,
  replyError,
  replyProblem,
  typedValues,
} from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import type { Problem } from "~/lib/problem";
import { redirectWithToast } from "~/lib/toast.server";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/join-session";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Join Session", description: "Join or verify a shared musical session." }),
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

const ALREADY = {
  collaboration: { title: "Already Joined", description: "You've already joined this session." },
  verification: { title: "Already Verified", description: "You've already verified this session." },
} as const;

export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!params.token) return { state: "no-token" as const };
  const token = TokenSchema.safeParse(params.token);
  if (!token.success) return { state: "invalid" as const, message: "Invalid token format" };
  const check = await checkSharingToken(context, token.data);
  if (!check.ok) return { state: "invalid" as const, message: check.message };
  const viewer = await getCurrentUser(request, context);
  const here = new URL(request.url).pathname;
  const { ok: _ok, ...shared } = check;
  const invitation = { mode: check.mode, session: check.session };
  // The session's times are wall-clock times in its artist's zone, the same for every viewer.
  const owner = await getArtistProfile(context, viewer, check.session.artistProfileId);
  const timeZone = owner?.timeZone ?? context.env.timeZone;
  // Signed out: which session, who invites, and sign-in or sign-up that come back here.
  if (!viewer) return { state: "sign-in" as const, redirectTo: here, shared: invitation, timeZone };
  if (!viewer.artistProfileId) return { state: "profile-required" as const, redirectTo: here };
  if (!canJoinSession(viewer, check.session))
    return { state: "own" as const, sessionId: check.session.id };
  if (await hasUsedLinkOn(context, viewer, { sessionId: check.session.id, mode: check.mode }))
    return { state: "already" as const, mode: check.mode };
  // Started but not over: confirmations count only after the fact (decision 046).
  const endsAt = check.session.startTime.getTime() + check.session.durationMinutes * 60_000;
  if (check.mode === "verification" && Date.now() < endsAt)
    return { state: "not-ended" as const, sessionId: check.session.id };
  return { state: "ready" as const, shared, timeZone };
}

const UNABLE = {
  collaboration: "Unable to join session. Please try again.",
  verification: "Unable to submit verification. Please try again.",
} as const;

const FAILED = {
  collaboration: "Failed to join session. Please try again.",
  verification: "Failed to submit verification. Please try again.",
} as const;

/** The answer to a refused join or verification, by its reason (UseRefusal), not its words. */
function refusal(problem: Problem, mode: SharingMode, values: Record<string, string>) {
  const { reason } = problem;
  // The link itself is no good: the page becomes 'Invalid Link' with the link's own message.
  if (reason === "invalid_link") return replyProblem(problem, { values });
  if (reason === "already") return replyProblem(problem, { values, toast: ALREADY[mode] });
  // Not over yet: its own plain words, whatever the page showed a moment ago.
  if (reason === "not_ended") return replyProblem(problem, { values });
  // Own session, wrong mode, no profile: the page already said so before the form was shown.
  const description = UNABLE[mode];
  return replyError(400, description, { title: "Error", description, variant: "destructive" });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const token = TokenSchema.safeParse(params.token ?? "");
  if (!token.success)
    return data<FormReply>(
      { ok: false, reason: "invalid_link", formError: "Invalid token format" },
      { status: 400 },
    );
  const form = await readForm(request);
  const mode: SharingMode = form.get("intent") === "verify" ? "verification" : "collaboration";
  const values = typedValues(form);
  const options = {
    values,
    reply: (problem: Problem) => refusal(problem, mode, values),
    failure: {
      message: FAILED[mode],
      logger: context.logger,
      event: mode === "verification" ? "peer verification failed" : "join session failed",
    },
  };
  if (mode === "verification") {
    const parsed = parseForm(VerifySessionSchema, form);
    if (!parsed.ok) return parsed.reply;
    return attempt(async () => {
      await submitPeerVerification(context, user, { token: token.data, ...parsed.data });
      return redirectWithToast("/artist-dashboard", {
        title: "Verification Submitted!",
        description: "Thank you for verifying this session.",
      });
    }, options);
  }
  const parsed = parseForm(JoinSessionSchema, form);
  if (!parsed.ok) return parsed.reply;
  return attempt(async () => {
    await joinSessionAsCollaborator(context, user, { token: token.data, ...parsed.data });
    return redirectWithToast("/artist-dashboard", {
      title: "Success!",
      description: "You've successfully joined the session as a collaborator.",
    });
  }, options);
}

export default function JoinSession({ loaderData, actionData }: Route.ComponentProps) {
  useToastOn(actionData, actionData?.toast);
  if (actionData?.reason === "invalid_link") return <InvalidLink message={actionData.formError} />;
  switch (loaderData.state) {
    case "no-token":
      return (
        <JoinCard icon={warningIcon} title="No Token Provided">
          <p>This URL is missing a sharing token.</p>
          <HomeLink />
        </JoinCard>
      );
    case "invalid":
      return <InvalidLink message={loaderData.message} />;
    case "sign-in":
      return (
        <SignInRequired
          redirectTo={loaderData.redirectTo}
          shared={loaderData.shared}
          timeZone={loaderData.timeZone}
        />
      );
    case "profile-required":
      return (
        <JoinCard icon={warningIcon} title="Artist Profile Required">
          <p>You need an artist profile to join or verify sessions.</p>
          <Link
            to={`/profile-setup?redirectTo=${encodeURIComponent(loaderData.redirectTo)}`}
            className={buttonClasses("primary", "md", "mt-6")}
          >
            Set Up Profile
          </Link>
        </JoinCard>
      );
    case "not-ended":
      return (
        <JoinCard icon={warningIcon} title="Not Over Yet">
          <p>{NOT_ENDED_MESSAGE}</p>
          <ViewSessionLink sessionId={loaderData.sessionId} />
        </JoinCard>
      );
    case "own":
      return (
        <JoinCard icon={warningIcon} title="Your Own Session">
          <p>
            This link is for the artists you played with: you can't join or verify your own session.
          </p>
          <ViewSessionLink sessionId={loaderData.sessionId} />
        </JoinCard>
      );
    case "already": {
      const text = ALREADY[loaderData.mode];
      return (
        <JoinCard
          icon={
            loaderData.mode === "collaboration" ? (
              <UserCheck aria-hidden className="h-10 w-10 text-emerald-600" />
            ) : (
              <BadgeCheck aria-hidden className="h-10 w-10 text-emerald-600" />
            )
          }
          title={text.title}
        >
          <p>{text.description}</p>
          <Link to="/artist-dashboard" className={buttonClasses("primary", "md", "mt-6")}>
            Go to Dashboard
          </Link>
        </JoinCard>
      );
    }
    case "ready":
      if (actionData?.reason === "already") {
        const text = ALREADY[loaderData.shared.mode];
        return (
          <JoinCard title={text.title}>
            <p>{text.description}</p>
            <Link to="/artist-dashboard" className={buttonClasses("primary", "md", "mt-6")}>
              Go to Dashboard
            </Link>
          </JoinCard>
        );
      }
      return (
        <JoinForm shared={loaderData.shared} timeZone={loaderData.timeZone} reply={actionData} />
      );
  }
}

function InvalidLink({ message }: { message?: string }) {
  return (
    <JoinCard icon={warningIcon} title="Invalid Link">
      <p>{message || INVALID_LINK_MESSAGE}</p>
      <HomeLink />
    </JoinCard>
  );
}

function HomeLink() {
  return (
    <Link to="/" className={buttonClasses("outline", "md", "mt-6")}>
      Go Home
    </Link>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}

/** Back to the session the link is for, from a card that explains why it cannot be used. */
function ViewSessionLink({ sessionId }: { sessionId: string }) {
  return (
    <Link to={`/sessions/${sessionId}`} className={buttonClasses("primary", "md", "mt-6")}>
      View Session
    </Link>
  );
}
