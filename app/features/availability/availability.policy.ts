import type { Actor, SignedInActor } from "~/lib/actor";

/**
 * Who may change a calendar: a pure rule, for the server and the UI alike. Reading one needs no
 * rule (the calendar is on the artist's public profile), and a change always goes to the actor's
 * own calendar, so no one can reach another artist's.
 */
export const canKeepCalendar = (
  actor: Actor,
): actor is SignedInActor & { artistProfileId: string } =>
  actor !== null && actor.artistProfileId !== null;
