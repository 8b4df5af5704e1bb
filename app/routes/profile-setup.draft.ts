import { draftOf, profileDraftHeaders } from "~/features/artists/profile-draft.server";
import { readForm } from "~/lib/form.server";
import type { Route } from "./+types/profile-setup.draft";

/**
 * Keeps the profile set-up form as typed so far in this browser (decision 040): no account
 * needed, nothing stored here. The page's script posts it with a plain fetch, not through React
 * Router, so keeping a draft never makes the page load its data again (decision 074).
 */
export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  return new Response(null, { status: 204, headers: profileDraftHeaders(draftOf(form)) });
}
