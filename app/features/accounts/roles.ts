import type { ROLES } from "~db/enums";

export type Role = (typeof ROLES)[number];

/** The role check used by server and UI alike: is `role` among the user's roles? */
export function hasRole(user: { roles: readonly Role[] } | null | undefined, role: Role): boolean {
  return Boolean(user?.roles.includes(role));
}
