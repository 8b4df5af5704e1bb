import { BadgeCheck, UserCheck } from "lucide-react";
import { data, Link } from "react-router";
import { buttonClasses } from "~/components/ui/button";
import { getCurrentUser, requireUser } from "~/features/accounts/accounts.server";
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
  TokenSchema,
  VerifySessionSchema,
} from "~/features/sharing/sharing.schema";
import {
  checkSharingToken,
  joinSessionAsCollaborator,
  submitPeerVerification,
  type UseOutcome,
} from "~/features/sharing/sharing.server";
import { pageMeta } from "~/lib/meta";
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
  const check = await checkSharingToken(context.db, token.data);
  if (!check.ok) return { state: "invalid" as const, message: check.message };
  const viewer = await getCurrentUser(request, context);
  const here = new URL(request.url).pathname;
  if (!viewer) return { state: "sign-in" as const, redirectTo: here };
  if (!viewer.artistProfileId) return { state: "profile-required" as const };
  if (!canJoinSession(viewer, check.session))
    return { state: "own" as const, sessionId: check.session.id };
  const { ok: _ok, ...shared } = check;
  if (await hasUsedLinkOn(context.db, viewer.artistProfileId, check.session.id, check.mode))
    return { state: "already" as const, mode: check.mode };
  return { state: "ready" as const, shared, timeZone: context.env.timeZone };
}

type ActionData = {
  formError?: string;
  invalid?: string;
  toast?: { title: string; description: string; variant?: "destructive" };
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const token = TokenSchema.safeParse(params.token ?? "");
  if (!token.success) return data<ActionData>({ invalid: "Invalid token format" }, { status: 400 });
  const form = await request.formData();
  const intent = form.get("intent");
  const verifying = intent === "verify";
  let outcome: UseOutcome;
  try {
    if (verifying) {
      const parsed = VerifySessionSchema.safeParse({
        notes: String(form.get("notes") ?? ""),
        trustScore: form.get("trustScore") ?? "100",
      });
      if (!parsed.success)
        return data<ActionData>({ formError: parsed.error.issues[0]?.message }, { status: 400 });
      outcome = await submitPeerVerification(context.db, user, token.data, parsed.data);
    } else {
      const parsed = JoinSessionSchema.safeParse({ notes: String(form.get("notes") ?? "") });
      if (!parsed.success)
        return data<ActionData>({ formError: parsed.error.issues[0]?.message }, { status: 400 });
      outcome = await joinSessionAsCollaborator(context.db, user, token.data, parsed.data);
    }
  } catch (error) {
    context.logger.error(
      { err: error },
      verifying ? "peer verification failed" : "join session failed",
    );
    const description = verifying
      ? "Failed to submit verification. Please try again."
      : "Failed to join session. Please try again.";
    return data<ActionData>(
      { formError: description, toast: { title: "Error", description, variant: "destructive" } },
      { status: 500 },
    );
  }
  if (outcome.ok) {
    return redirectWithToast(
      "/artist-dashboard",
      verifying
        ? { title: "Verification Submitted!", description: "Thank you for verifying this session." }
        : {
            title: "Success!",
            description: "You've successfully joined the session as a collaborator.",
          },
    );
  }
  switch (outcome.code) {
    case "invalid":
      return data<ActionData>({ invalid: outcome.message }, { status: 410 });
    case "already":
      return data<ActionData>(
        { toast: ALREADY[verifying ? "verification" : "collaboration"] },
        { status: 409 },
      );
    default: {
      const description = verifying
        ? "Unable to submit verification. Please try again."
        : "Unable to join session. Please try again.";
      return data<ActionData>(
        { formError: description, toast: { title: "Error", description, variant: "destructive" } },
        { status: 400 },
      );
    }
  }
}

export default function JoinSession({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as ActionData | undefined;
  useToastOn(result, result?.toast);
  if (result?.invalid) return <InvalidLink message={result.invalid} />;
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
      return <SignInRequired redirectTo={loaderData.redirectTo} />;
    case "profile-required":
      return (
        <JoinCard icon={warningIcon} title="Artist Profile Required">
          <p>You need an artist profile to join or verify sessions.</p>
          <Link to="/profile-setup" className={buttonClasses("primary", "md", "mt-6")}>
            Set Up Profile
          </Link>
        </JoinCard>
      );
    case "own":
      return (
        <JoinCard icon={warningIcon} title="Your Own Session">
          <p>
            This link is for the artists you played with: you can't join or verify your own session.
          </p>
          <Link
            to={`/sessions/${loaderData.sessionId}`}
            className={buttonClasses("primary", "md", "mt-6")}
          >
            View Session
          </Link>
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
      if (result?.toast && !result.formError) {
        const text = result.toast;
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
        <JoinForm
          shared={loaderData.shared}
          timeZone={loaderData.timeZone}
          formError={result?.formError}
        />
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
