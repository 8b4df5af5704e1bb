import type { Actor, SignedInActor } from "~/lib/actor";
import type { FeedKind } from "./calendars.constants";

/**
 * Who has which calendar feed and who keeps imported calendars: pure rules for the server and the
 * UI. An artist's feed and imported calendars belong to their own profile; any signed-in user has
 * a client feed of their own bookings.
 */
export const canHaveFeed = (actor: Actor, kind: FeedKind): actor is SignedInActor =>
  actor !== null && (kind === "client" || actor.artistProfileId !== null);

export const canImportCalendars = (
  actor: Actor,
): actor is SignedInActor & { artistProfileId: string } =>
  actor !== null && actor.artistProfileId !== null;
