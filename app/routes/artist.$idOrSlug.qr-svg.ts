import { getCurrentUser } from "~/features/accounts/accounts.server";
import { getProfileQrSvg } from "~/features/credentials/cv.server";
import { notFoundText } from "~/lib/form.server";
import type { Route } from "./+types/artist.$idOrSlug.qr-svg";

/** A QR code leading to the artist's profile, drawn on the server (no JavaScript needed). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const viewer = await getCurrentUser(request, context);
  const svg = await getProfileQrSvg(context, viewer, params.idOrSlug);
  if (!svg) return notFoundText();
  return new Response(svg, {
    headers: {
      "Content-Type": "image/svg+xml; charset=utf-8",
      "Cache-Control": "public, max-age=86400",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
