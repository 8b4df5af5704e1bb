import { data } from "react-router";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import type { AppContext } from "~/lib/context";
import { canSeeDiagnostics } from "./diagnostics.policy";
import { collectDiagnostics } from "./diagnostics.server";

/** The loader both diagnostic pages share: 404 for non-admins when the app is public. */
export async function loadDiagnostics(request: Request, context: AppContext) {
  const user = await getCurrentUser(request, context);
  if (!canSeeDiagnostics(context.env, user)) throw data(null, { status: 404 });
  return data(await collectDiagnostics(context), { headers: { "Cache-Control": "no-store" } });
}
