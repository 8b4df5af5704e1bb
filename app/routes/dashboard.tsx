import { redirect } from "react-router";
import { requireUser } from "~/features/accounts/accounts.server";
import { hasRole } from "~/lib/actor";
import type { Route } from "./+types/dashboard";

/** Artists go to their dashboard, clients to their bookings, everyone else to discovery. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, context);
  if (user.artistProfileId) throw redirect("/artist-dashboard");
  if (hasRole(user, "client")) throw redirect("/client-bookings");
  throw redirect("/artist-discovery");
}
