import { data, redirect } from "react-router";
import { fieldErrors } from "~/features/accounts/accounts.schema";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import { type ArtistFormValues, ArtistProfileForm } from "~/features/artists/artist-profile-form";
import { ArtistProfileSchema } from "~/features/artists/artists.schema";
import { createArtistProfile } from "~/features/artists/artists.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/profile-setup";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Create Your Artist Profile",
    description: "Set up your GigLedger artist profile and start your verified history.",
  });

const DRAFT_KEY = "gigledger:profile-setup";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getCurrentUser(request, context);
  if (user?.artistProfileId) throw redirect(`/artist-dashboard/${user.artistProfileId}`);
  return { signedIn: Boolean(user) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await getCurrentUser(request, context);
  if (!user) {
    return redirectWithToast("/auth?redirectTo=%2Fprofile-setup", {
      title: "Error",
      description: "You must be logged in to create an artist profile.",
      variant: "destructive",
    });
  }
  const raw = Object.fromEntries(await request.formData()) as Record<string, string>;
  const values: ArtistFormValues = raw;
  const parsed = ArtistProfileSchema.safeParse(raw);
  if (!parsed.success)
    return data(
      { values, fieldErrors: fieldErrors(parsed.error), formError: undefined },
      { status: 400 },
    );
  try {
    const { id } = await createArtistProfile(context.db, user.id, parsed.data);
    return redirectWithToast(`/artist-dashboard/${id}`, {
      title: "Profile Created!",
      description: "Your artist profile is ready.",
    });
  } catch (error) {
    context.logger.error({ err: error }, "artist profile creation failed");
    const message =
      error instanceof Error && error.message.startsWith("Could not find a free address")
        ? error.message
        : "Failed to create artist profile. Please try again.";
    return data({ values, fieldErrors: {}, formError: message }, { status: 500 });
  }
}

export default function ProfileSetup({ loaderData, actionData }: Route.ComponentProps) {
  useToastOn(
    actionData,
    actionData?.formError
      ? { title: "Error", description: actionData.formError, variant: "destructive" }
      : null,
  );
  return (
    <main id="main" className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="text-3xl font-bold">Create Your Artist Profile</h1>
      <p className="mt-2 text-slate-600">
        Your public profile is where clients find and book you, and where your verified history
        lives.
      </p>
      {loaderData.signedIn ? null : (
        <p className="mt-4 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          You'll need to sign in to save your profile. What you type here is kept in this tab while
          you do.
        </p>
      )}
      <div className="mt-8 rounded-2xl border border-slate-200 bg-white p-6">
        <ArtistProfileForm
          mode="create"
          values={actionData?.values}
          fieldErrors={actionData?.fieldErrors}
          formError={actionData?.formError}
          draftKey={DRAFT_KEY}
        />
      </div>
    </main>
  );
}
