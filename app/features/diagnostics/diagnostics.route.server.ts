import { data } from "react-router";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import type { AppContext } from "~/lib/context";
import { notFound } from "~/lib/form.server";
import { canSeeDiagnostics } from "./diagnostics.policy";
import { collectDiagnostics } from "./diagnostics.server";

/**
 * The loader of both diagnostic pages: a 404 for anyone the policy keeps out (a public server
 * shows them to admins only), never cached.
 */
export async function loadDiagnostics(request: Request, context: AppContext) {
  const user = await getCurrentUser(request, context);
  if (!canSeeDiagnostics(user, context.env)) notFound();
  return data(await collectDiagnostics(context), { headers: { "Cache-Control": "no-store" } });
}
