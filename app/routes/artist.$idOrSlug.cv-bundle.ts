import { getCurrentUser } from "~/features/accounts/accounts.server";
import { getCvBundle } from "~/features/credentials/cv.server";
import { notFoundText } from "~/lib/form.server";
import type { Route } from "./+types/artist.$idOrSlug.cv-bundle";

/** The CV with a did.json snapshot, as a download for checking offline. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await getCurrentUser(request, context);
  const bundle = await getCvBundle(context, viewer, params.idOrSlug);
  if (!bundle) return notFoundText("This artist has no verified sessions yet.");
  return new Response(bundle.json, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${bundle.slug}-cv-bundle.json"`,
      "Cache-Control": "public, max-age=60",
    },
  });
}
