import type { ROLES } from "~db/enums";

export type Role = (typeof ROLES)[number];

/**
 * Who is acting: the one type every domain function and every policy receives. `null` is a
 * signed-out visitor. Resolved once per request by `getCurrentUser` (accounts), which returns a
 * superset of it (name and e-mail for the header).
 */
export type Actor = {
  id: string;
  roles: readonly Role[];
  artistProfileId: string | null;
} | null;

/** A signed-in actor (what `requireUser` returns). */
export type SignedInActor = NonNullable<Actor>;

/** The role check used by server and UI alike: is `role` among the actor's roles? */
export function hasRole(actor: { roles: readonly Role[] } | null | undefined, role: Role): boolean {
  return Boolean(actor?.roles.includes(role));
}
