import { hasRole, type Role } from "~/lib/actor";

/** decisions.md "Other pages": open to everyone while the app is local, to admins once public. */
export function canSeeDiagnostics(
  env: { isPublic: boolean },
  user: { roles: readonly Role[] } | null | undefined,
) {
  return !env.isPublic || hasRole(user, "admin");
}
