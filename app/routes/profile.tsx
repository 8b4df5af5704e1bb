import { data, redirect } from "react-router";
import { getArtistProfile } from "~/features/artists/artists.server";
import { isUuid } from "~/lib/ids";
import type { Route } from "./+types/profile";

/** /profile/{id} (links built from the profile id) → the artist's public address. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const artist = isUuid(params.id) ? await getArtistProfile(context.db, params.id) : null;
  if (!artist) throw data({ message: "Artist profile not found." }, { status: 404 });
  throw redirect(`/artist/${artist.slug}`, 301);
}
