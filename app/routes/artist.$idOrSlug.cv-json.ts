import { getCurrentUser } from "~/features/accounts/accounts.server";
import { getArtistCv } from "~/features/credentials/cv.server";
import { notFoundText } from "~/lib/form.server";
import type { Route } from "./+types/artist.$idOrSlug.cv-json";

/** The artist's whole CV: one signed Verifiable Presentation, served as stored. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await getCurrentUser(request, context);
  const gzip = /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
  const cv = await getArtistCv(context, viewer, { idOrSlug: params.idOrSlug, gzip });
  if (!cv) return notFoundText("This artist has no verified sessions yet.");
  return new Response(cv.body, {
    headers: {
      ...(cv.gzipped ? { "Content-Encoding": "gzip" } : {}),
      Vary: "Accept-Encoding",
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "public, max-age=60",
      "Access-Control-Allow-Origin": "*",
      "Last-Modified": cv.updatedAt.toUTCString(),
    },
  });
}
