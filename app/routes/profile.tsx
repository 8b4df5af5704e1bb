import { redirect } from "react-router";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import { getArtistProfile } from "~/features/artists/artists.server";
import { notFound } from "~/lib/form.server";
import { isUuid } from "~/lib/ids";
import type { Route } from "./+types/profile";

/** /profile/{id} (links built from the profile id) → the artist's public address. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await getCurrentUser(request, context);
  const artist = isUuid(params.id) ? await getArtistProfile(context, viewer, params.id) : null;
  if (!artist) notFound();
  throw redirect(`/artist/${artist.slug}`, 301);
}
