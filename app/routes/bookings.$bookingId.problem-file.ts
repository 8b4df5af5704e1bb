import { Readable } from "node:stream";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import { problemFileOf } from "~/features/problems/problem-files.server";
import { partyOf, problemBookingOf } from "~/features/problems/problems.server";
import { hasRole } from "~/lib/actor";
import { notFoundText } from "~/lib/form.server";
import type { Route } from "./+types/bookings.$bookingId.problem-file";

/**
 * A file of a problem report or answer: for the booking's two parties and operators only; to
 * anyone else it does not exist. Always a download, never run in the page.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await getCurrentUser(request, context);
  const file = await problemFileOf(context.db, params.fileId);
  if (!user || !file || file.bookingId !== params.bookingId) return notFoundText();
  if (!hasRole(user, "operator")) {
    const booking = await problemBookingOf(context.db, file.bookingId);
    if (!booking || !partyOf(user, booking)) return notFoundText();
  }
  const body = await context.storage.get(file.storageKey);
  if (!body) return notFoundText("The file is missing from storage");
  const name = file.name.replace(/[^\w.\- ]/g, "_");
  return new Response(Readable.toWeb(body.body) as ReadableStream, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.sizeBytes),
      "Content-Disposition": `attachment; filename="${name}"`,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": "private, no-store",
      Digest: `sha-256=${Buffer.from(file.sha256, "hex").toString("base64")}`,
    },
  });
}
