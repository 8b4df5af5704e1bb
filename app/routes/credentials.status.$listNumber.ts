import { getStatusListDocument } from "~/features/credentials/issuance.server";
import type { Route } from "./+types/credentials.status.$listNumber";

/** A signed Bitstring Status List credential, as the worker last signed it. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const listNumber = /^\d{1,7}$/.test(params.listNumber) ? Number(params.listNumber) : -1;
  const document = await getStatusListDocument(context, listNumber);
  if (!document)
    return new Response("No such status list", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  return new Response(document, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      // A revocation shows within a minute.
      "Cache-Control": "public, max-age=60",
      "Access-Control-Allow-Origin": "*",
    },
  });
}
