import { Form } from "react-router";
import { z } from "zod";
import { RouteErrorBoundary } from "~/components/layout/route-error-boundary";
import { Button } from "~/components/ui/button";
import { FormError } from "~/components/ui/field";
import { inputClasses } from "~/components/ui/input-classes";
import { Spinner } from "~/components/ui/spinner";
import { requireUser } from "~/features/accounts/accounts.server";
import { ArtistAvatar } from "~/features/artists/artist-avatar";
import {
  type ArtistFormValues,
  ArtistProfileForm,
  formValuesOf,
} from "~/features/artists/artist-profile-form";
import { ArtistProfileUpdateSchema } from "~/features/artists/artists.schema";
import {
  getOwnArtistProfile,
  setArtistAvatar,
  updateArtistProfile,
} from "~/features/artists/artists.server";
import { getProfileSuggestions } from "~/features/artists/discovery-facets.server";
import { timeZoneOptions } from "~/features/artists/time-zones";
import { attempt, notFound, parseForm, readForm } from "~/lib/form.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { usePending } from "~/lib/use-pending";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/artist-profile.edit";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Edit Profile", description: "Edit your GigLedger artist profile." }),
  { name: "robots", content: "noindex" },
];

/** The avatar form: its button names the intent; the file must be a file. */
const AvatarSchema = z.object({
  avatar: z.instanceof(File, { message: "Please choose an image file." }),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  const artist = await getOwnArtistProfile(context, user);
  if (!artist) notFound();
  const values: ArtistFormValues = {
    artistName: artist.artistName,
    genre: artist.genre,
    bio: artist.bio,
    location: artist.location,
    experience: artist.experience,
    instruments: artist.instruments,
    hourlyRate: artist.hourlyRate === null ? "" : String(artist.hourlyRate),
    startingPrice: artist.startingPrice === null ? "" : String(artist.startingPrice),
    instagram: artist.socialLinks.instagram ?? "",
    youtube: artist.socialLinks.youtube ?? "",
    facebook: artist.socialLinks.facebook ?? "",
    isAvailable: artist.isAvailable,
    timeZone: artist.timeZone,
    depositBps: String(artist.depositBps),
    balanceDueDays: String(artist.balanceDueDays),
    cancellationPolicy: artist.cancellationPolicy,
    occasions: artist.occasions.join("\n"),
  };
  return {
    values,
    artistName: artist.artistName,
    avatarPath: artist.avatarPath,
    defaultTimeZone: context.env.timeZone,
    timeZones: timeZoneOptions(artist.timeZone, context.env.timeZone),
    suggestions: await getProfileSuggestions(context, user),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context);
  const form = await readForm(request);
  if (form.get("intent") === "avatar") {
    const parsed = parseForm(AvatarSchema, form, {
      title: "Upload Failed",
      description: "Please choose an image file.",
      variant: "destructive",
    });
    if (!parsed.ok) return parsed.reply;
    return attempt(
      async () => {
        await setArtistAvatar(context, user, parsed.data.avatar);
        return redirectWithToast("/artist-profile/edit", { title: "Profile picture updated" });
      },
      { values: parsed.values, toastTitle: "Upload Failed" },
    );
  }
  const parsed = parseForm(ArtistProfileUpdateSchema, form);
  if (!parsed.ok) return parsed.reply;
  return attempt(
    async () => {
      await updateArtistProfile(context, user, parsed.data);
      return redirectWithToast("/artist-dashboard", {
        title: "Profile Updated",
        description: "Your artist profile has been saved.",
      });
    },
    { values: parsed.values },
  );
}

export default function EditArtistProfile({ loaderData, actionData }: Route.ComponentProps) {
  useToastOn(actionData, actionData?.toast);
  const uploading = usePending({ intent: "avatar" });
  // Each form shows only its own answer: the avatar form's post names its intent.
  const avatarReply = actionData?.values?.intent === "avatar" ? actionData : undefined;
  const profileReply = actionData && !avatarReply ? actionData : undefined;
  return (
    <main id="main" className="mx-auto max-w-2xl space-y-6 px-4 py-10">
      <h1 className="text-3xl font-bold">Edit Profile</h1>
      <section
        aria-labelledby="avatar-title"
        className="rounded-2xl border border-slate-200 bg-white p-6"
      >
        <h2 id="avatar-title" className="text-lg font-semibold">
          Profile picture
        </h2>
        <Form
          method="post"
          encType="multipart/form-data"
          className="mt-4 flex flex-col gap-4 sm:flex-row sm:items-center"
        >
          <ArtistAvatar name={loaderData.artistName} avatarPath={loaderData.avatarPath} size="lg" />
          <div className="min-w-0 flex-1 space-y-2">
            <FormError>{avatarReply?.formError ?? avatarReply?.fieldErrors?.avatar}</FormError>
            <label htmlFor="avatar" className="block text-sm font-medium">
              Choose an image (JPG, PNG or WebP, at most 5 MB)
            </label>
            <input
              id="avatar"
              name="avatar"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              required
              className={inputClasses}
            />
            <Button
              type="submit"
              name="intent"
              value="avatar"
              variant="outline"
              disabled={uploading}
            >
              {uploading ? <Spinner /> : null} {uploading ? "Uploading..." : "Upload picture"}
            </Button>
          </div>
        </Form>
      </section>
      <section className="rounded-2xl border border-slate-200 bg-white p-6">
        <ArtistProfileForm
          mode="edit"
          values={profileReply?.values ? formValuesOf(profileReply.values) : loaderData.values}
          fieldErrors={profileReply?.fieldErrors}
          formError={profileReply?.formError}
          timeZones={loaderData.timeZones}
          defaultTimeZone={loaderData.defaultTimeZone}
          suggestions={loaderData.suggestions}
        />
      </section>
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorBoundary error={error} />;
}
