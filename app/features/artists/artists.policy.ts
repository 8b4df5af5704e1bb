import type { Actor } from "~/lib/actor";

/** Who may do what with an artist profile: pure rules, used by the server and the UI alike. */
export type ArtistRef = { id: string; userId: string | null };

/** Only the artist edits their own profile (and sees its dashboard). */
export function canEditArtistProfile(actor: Actor, artist: ArtistRef): boolean {
  return actor !== null && artist.userId !== null && actor.id === artist.userId;
}

/** Anyone signed in may request a booking, except the artist on their own profile. */
export function canBookArtist(actor: Actor, artist: ArtistRef): boolean {
  return actor !== null && !canEditArtistProfile(actor, artist);
}

/** Creating an artist profile: signed in, and not one already (one profile per account). */
export function canCreateArtistProfile(actor: Actor): boolean {
  return actor !== null && actor.artistProfileId === null;
}
