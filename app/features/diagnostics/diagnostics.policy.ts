import { type Actor, hasRole } from "~/lib/actor";

/** What the diagnostics rule looks at: whether this server is on a public address. */
export type DiagnosticsServer = { isPublic: boolean };

/**
 * The diagnostic pages are open to everyone while the app runs locally, and only to admins once
 * it is on a public address (see docs/product.md, Other pages).
 */
export function canSeeDiagnostics(actor: Actor, server: DiagnosticsServer): boolean {
  return !server.isPublic || hasRole(actor, "admin");
}
