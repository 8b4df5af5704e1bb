import { redirect } from "react-router";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { forgetCurrentUser, getCurrentUser } from "~/features/accounts/accounts.server";
import { ArtistProfileForm, formValuesOf } from "~/features/artists/artist-profile-form";
import { canCreateArtistProfile } from "~/features/artists/artists.policy";
import { ArtistProfileSchema } from "~/features/artists/artists.schema";
import { createArtistProfile } from "~/features/artists/artists.server";
import { getProfileSuggestions } from "~/features/artists/discovery-facets.server";
import {
  draftOf,
  profileDraftHeaders,
  readProfileDraft,
} from "~/features/artists/profile-draft.server";
import { timeZoneOptions } from "~/features/artists/time-zones";
import { attempt, parseForm, readForm } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { redirectWithToast } from "~/lib/toast.server";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/profile-setup";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Create Your Artist Profile",
    description: "Set up your GigLedger artist profile and start your verified history.",
  });

/** Where to go once the profile exists: back to what asked for it (a share link), else its dashboard. */
function nextPath(request: Request, profileId: string | null) {
  const fallback = `/artist-dashboard/${profileId}`;
  return safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), fallback);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getCurrentUser(request, context);
  // One profile per account: someone who has one goes on (to its dashboard).
  if (user && !canCreateArtistProfile(user))
    throw redirect(nextPath(request, user.artistProfileId), {
      headers: profileDraftHeaders(null),
    });
  const defaultTimeZone = context.env.timeZone;
  return {
    signedIn: Boolean(user),
    // What this browser typed before (in another tab, before signing in): decision 040.
    draft: readProfileDraft(request),
    defaultTimeZone,
    timeZones: timeZoneOptions(defaultTimeZone),
    suggestions: await getProfileSuggestions(context, user),
  };
}

const FAILED = "Failed to create artist profile. Please try again.";

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const user = await getCurrentUser(request, context);
  if (!user) {
    const here = new URL(request.url);
    // Kept for after signing in, also when the confirmation mail opens another tab.
    const draft = draftOf(form);
    return redirectWithToast(
      `/auth?redirectTo=${encodeURIComponent(here.pathname + here.search)}`,
      {
        title: "Error",
        description: "You must be logged in to create an artist profile.",
        variant: "destructive",
      },
      { headers: draft ? profileDraftHeaders(draft) : undefined },
    );
  }
  const parsed = parseForm(ArtistProfileSchema, form);
  if (!parsed.ok) return parsed.reply;
  return attempt(
    async () => {
      const { id } = await createArtistProfile(context, user, {
        ...parsed.data,
        timeZone: parsed.data.timeZone ?? context.env.timeZone,
      });
      // The user now has the artist role and a profile: later loaders must not see the old ones.
      forgetCurrentUser(context);
      return redirectWithToast(
        nextPath(request, id),
        { title: "Profile Created!", description: "Your artist profile is ready." },
        { headers: profileDraftHeaders(null) },
      );
    },
    {
      values: parsed.values,
      toastTitle: "Error",
      failure: { message: FAILED, logger: context.logger, event: "create artist profile failed" },
    },
  );
}

export default function ProfileSetup({ loaderData, actionData }: Route.ComponentProps) {
  useToastOn(actionData, actionData?.toast);
  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="text-3xl font-bold">Create Your Artist Profile</h1>
      <p className="mt-2 text-slate-600">
        Your public profile is where clients find and book you, and where your verified history
        lives.
      </p>
      {loaderData.signedIn ? null : (
        <p className="mt-4 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          You'll need to sign in to save your profile. What you type here is kept in this browser
          while you do, also when the confirmation e-mail opens a new tab.
        </p>
      )}
      <div className="mt-8 rounded-2xl border border-slate-200 bg-white p-6">
        <ArtistProfileForm
          mode="create"
          values={
            actionData?.values ? formValuesOf(actionData.values) : (loaderData.draft ?? undefined)
          }
          fieldErrors={actionData?.fieldErrors}
          formError={actionData?.formError}
          keepDraftAt="/profile-setup/draft"
          timeZones={loaderData.timeZones}
          defaultTimeZone={loaderData.defaultTimeZone}
          suggestions={loaderData.suggestions}
        />
      </div>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
