import { data, Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { FormError, inputClasses } from "~/components/ui/field";
import { Spinner } from "~/components/ui/spinner";
import { fieldErrors } from "~/features/accounts/accounts.schema";
import { requireUser } from "~/features/accounts/accounts.server";
import { ArtistAvatar } from "~/features/artists/artist-avatar";
import { type ArtistFormValues, ArtistProfileForm } from "~/features/artists/artist-profile-form";
import { ArtistProfileUpdateSchema } from "~/features/artists/artists.schema";
import {
  getArtistProfileOfUser,
  setArtistAvatar,
  updateArtistProfile,
} from "~/features/artists/artists.server";
import { AvatarError, storeAvatar } from "~/features/artists/avatar.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useToastOn } from "~/lib/use-toast-on";
import type { Route } from "./+types/artist-profile.edit";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Edit Profile", description: "Edit your GigLedger artist profile." }),
  { name: "robots", content: "noindex" },
];

async function requireOwnProfile(request: Request, context: Route.LoaderArgs["context"]) {
  const user = await requireUser(request, context);
  const artist = await getArtistProfileOfUser(context.db, user.id);
  if (!artist) throw data(null, { status: 404 });
  return { user, artist };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { artist } = await requireOwnProfile(request, context);
  const values: ArtistFormValues = {
    artistName: artist.artistName,
    genre: artist.genre,
    bio: artist.bio,
    location: artist.location,
    experience: artist.experience,
    instruments: artist.instruments,
    hourlyRate: artist.hourlyRate === null ? "" : String(artist.hourlyRate),
    instagram: artist.socialLinks.instagram ?? "",
    youtube: artist.socialLinks.youtube ?? "",
    facebook: artist.socialLinks.facebook ?? "",
    isAvailable: artist.isAvailable,
  };
  return { values, artistName: artist.artistName, avatarPath: artist.avatarPath };
}

type ActionData = {
  intent: string;
  values?: ArtistFormValues;
  fieldErrors?: Record<string, string>;
  formError?: string;
};

export async function action({ request, context }: Route.ActionArgs) {
  const { user, artist } = await requireOwnProfile(request, context);
  const form = await request.formData();
  if (form.get("intent") === "avatar") {
    const file = form.get("avatar");
    try {
      if (!(file instanceof File)) throw new AvatarError("Please choose an image file.");
      const key = await storeAvatar(context.storage, artist.id, file);
      const previous = await setArtistAvatar(context.db, user.id, key);
      if (previous) await context.storage.delete(previous).catch(() => {});
      return redirectWithToast("/artist-profile/edit", { title: "Profile picture updated" });
    } catch (error) {
      if (!(error instanceof AvatarError))
        context.logger.error({ err: error }, "avatar upload failed");
      const message =
        error instanceof AvatarError ? error.message : "Upload Failed. Please try again.";
      return data<ActionData>({ intent: "avatar", formError: message }, { status: 400 });
    }
  }
  const raw = Object.fromEntries(form) as Record<string, string>;
  const values: ArtistFormValues = { ...raw, isAvailable: raw.isAvailable === "on" };
  const parsed = ArtistProfileUpdateSchema.safeParse(raw);
  if (!parsed.success)
    return data<ActionData>(
      { intent: "profile", values, fieldErrors: fieldErrors(parsed.error) },
      { status: 400 },
    );
  await updateArtistProfile(context.db, user.id, parsed.data);
  return redirectWithToast("/artist-dashboard", {
    title: "Profile Updated",
    description: "Your artist profile has been saved.",
  });
}

export default function EditArtistProfile({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData as ActionData | undefined;
  useToastOn(
    result,
    result?.formError
      ? { title: "Upload Failed", description: result.formError, variant: "destructive" }
      : null,
  );
  const navigation = useNavigation();
  const uploading =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "avatar";
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
          <div className="flex-1 space-y-2">
            <FormError>{result?.intent === "avatar" ? result.formError : undefined}</FormError>
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
          values={result?.intent === "profile" && result.values ? result.values : loaderData.values}
          fieldErrors={result?.intent === "profile" ? result.fieldErrors : undefined}
        />
      </section>
    </main>
  );
}
