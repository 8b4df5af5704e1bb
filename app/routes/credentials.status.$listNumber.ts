import { getStatusListDocument } from "~/features/credentials/issuance.server";
import { notFoundText } from "~/lib/form.server";
import type { Route } from "./+types/credentials.status.$listNumber";

/** A signed Bitstring Status List credential, as the worker last signed it. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const listNumber = /^\d{1,7}$/.test(params.listNumber) ? Number(params.listNumber) : -1;
  const document = await getStatusListDocument(context, listNumber);
  if (!document) return notFoundText("No such status list");
  return new Response(document, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      // A revocation shows within a minute.
      "Cache-Control": "public, max-age=60",
      "Access-Control-Allow-Origin": "*",
    },
  });
}
