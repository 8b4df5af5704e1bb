import BadgeCheck from "lucide-react/icons/badge-check";
import Calendar from "lucide-react/icons/calendar";
import CircleAlert from "lucide-react/icons/circle-exclamation-point";
import LogIn from "lucide-react/icons/log-in";
import MapPin from "lucide-react/icons/map-pin";
import UserPlus from "lucide-react/icons/user-plus";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button, buttonClasses } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Spinner } from "~/components/ui/spinner";
import { TextareaField } from "~/components/ui/textarea-field";
import {
  SESSION_TYPE_LABELS,
  type SessionType,
} from "~/features/music-sessions/music-sessions.schema";
import { formatDuration, formatWallClock } from "~/lib/dates";
import type { FormReply } from "~/lib/form";
import { usePending } from "~/lib/use-pending";
import { TRUST_SCORE_LABELS, type TrustScore } from "./sharing.schema";
import type { SharedSession } from "./sharing.server";

export function JoinCard({
  icon,
  title,
  children,
}: {
  icon?: ReactNode;
  title: string;
  children: ReactNode;
}) {
  return (
    <main id="main" className="mx-auto max-w-lg px-4 py-12">
      <Card className="text-center shadow-sm">
        {icon ? <div className="mx-auto mb-3 flex justify-center">{icon}</div> : null}
        <h1 className="text-2xl font-bold wrap-anywhere">{title}</h1>
        <div className="mt-3 text-slate-700">{children}</div>
      </Card>
    </main>
  );
}

export const warningIcon = <CircleAlert aria-hidden className="h-10 w-10 text-amber-500" />;

function SessionSummary({
  session,
  timeZone,
}: {
  session: SharedSession["session"];
  timeZone: string;
}) {
  return (
    <div className="min-w-0 rounded-xl bg-slate-50 p-4 text-left wrap-anywhere">
      <p className="text-sm font-medium text-brand-700">
        {SESSION_TYPE_LABELS[session.sessionType as SessionType]}
      </p>
      <p className="text-lg font-semibold">{session.title}</p>
      <p className="text-sm text-slate-600">by {session.artistName}</p>
      <p className="mt-2 flex items-center gap-1 text-sm text-slate-700">
        <Calendar aria-hidden className="h-4 w-4 shrink-0" />{" "}
        {formatWallClock(session.startTime, timeZone, { withZone: true })} ·{" "}
        {formatDuration(session.durationMinutes / 60)}
      </p>
      {session.venue || session.location ? (
        <p className="flex items-center gap-1 text-sm text-slate-700">
          <MapPin aria-hidden className="h-4 w-4 shrink-0" />{" "}
          {[session.venue, session.location].filter(Boolean).join(", ")}
        </p>
      ) : null}
    </div>
  );
}

export function JoinForm({
  shared,
  timeZone,
  reply,
}: {
  shared: SharedSession;
  timeZone: string;
  /** The answer to the last submit, if it was refused. */
  reply?: FormReply;
}) {
  const busy = usePending();
  const formError = reply?.formError;
  const errors = reply?.fieldErrors;
  const collaboration = shared.mode === "collaboration";
  return (
    <main id="main" className="mx-auto max-w-lg px-4 py-12">
      <Card className="shadow-sm">
        <div className="flex items-center gap-2">
          {collaboration ? (
            <UserPlus aria-hidden className="h-6 w-6 text-brand-600" />
          ) : (
            <BadgeCheck aria-hidden className="h-6 w-6 text-emerald-600" />
          )}
          <h1 className="text-2xl font-bold">
            {collaboration ? "Join Session" : "Verify Session"}
          </h1>
        </div>
        <p className="mt-2 wrap-anywhere text-slate-700">
          {collaboration
            ? `${shared.session.artistName} invited you to this upcoming session. Join it as a collaborator and it appears in your history.`
            : `${shared.session.artistName} asks you to confirm that this session took place. Choose how sure you are.`}
        </p>
        <div className="mt-4">
          <SessionSummary session={shared.session} timeZone={timeZone} />
        </div>
        {formError ? (
          <p className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700">
            {formError}
          </p>
        ) : null}
        <Form method="post" className="mt-5 space-y-4">
          <input type="hidden" name="intent" value={collaboration ? "join" : "verify"} />
          {collaboration ? null : (
            <fieldset>
              <legend className="mb-2 text-sm font-medium text-slate-800">Trust score</legend>
              <div className="grid gap-2">
                {([100, 75, 50, 25] as TrustScore[]).map((score) => (
                  <label
                    key={score}
                    className="flex cursor-pointer items-center gap-3 rounded-lg border border-slate-200 px-3 py-2 has-checked:border-brand-600 has-checked:bg-brand-50"
                  >
                    <input
                      type="radio"
                      name="trustScore"
                      value={score}
                      required
                      defaultChecked={String(score) === reply?.values?.trustScore}
                      className="accent-brand-600"
                    />
                    <span className="text-sm">{TRUST_SCORE_LABELS[score]}</span>
                  </label>
                ))}
              </div>
              {errors?.trustScore ? (
                <p className="mt-1 text-sm text-red-600">{errors.trustScore}</p>
              ) : null}
            </fieldset>
          )}
          <TextareaField
            label="Notes (optional)"
            name="notes"
            defaultValue={reply?.values?.notes}
            error={errors?.notes}
            maxLength={1000}
            placeholder={collaboration ? "Your part, instrument…" : "How do you know this session?"}
          />
          <Button type="submit" size="lg" className="w-full" disabled={busy}>
            {busy ? <Spinner /> : null}
            {collaboration ? "Join as Collaborator" : "Submit Verification"}
          </Button>
        </Form>
      </Card>
    </main>
  );
}

/**
 * A signed-out visitor of a share link sees which session it is and who invites them, then signs
 * in or signs up; either comes back to the link (after the confirmation mail, for a new account).
 */
export function SignInRequired({
  redirectTo,
  shared,
  timeZone,
}: {
  redirectTo: string;
  shared: Pick<SharedSession, "mode" | "session">;
  timeZone: string;
}) {
  const back = encodeURIComponent(redirectTo);
  const collaboration = shared.mode === "collaboration";
  return (
    <JoinCard
      icon={<LogIn aria-hidden className="h-10 w-10 text-brand-600" />}
      title="Sign In Required"
    >
      <p className="wrap-anywhere">
        {collaboration
          ? `${shared.session.artistName} invited you to join this session as a collaborator.`
          : `${shared.session.artistName} asks you to confirm that this session took place.`}
      </p>
      <div className="mt-4">
        <SessionSummary session={shared.session} timeZone={timeZone} />
      </div>
      <p className="mt-4">
        Please sign in to join or verify this session. You'll come straight back here.
      </p>
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        <Link to={`/auth?redirectTo=${back}`} className={buttonClasses("primary", "md")}>
          Sign In
        </Link>
        <Link to={`/auth?tab=signup&redirectTo=${back}`} className={buttonClasses("outline", "md")}>
          Sign Up
        </Link>
      </div>
    </JoinCard>
  );
}
