import { getIssuerDidDocument } from "~/features/credentials/issuance.server";
import type { Route } from "./+types/well-known.did-json";

/** The issuer's did:web document: every key GigLedger signs or signed credentials with. */
export async function loader({ context }: Route.LoaderArgs) {
  const document = await getIssuerDidDocument(context);
  return new Response(JSON.stringify(document, null, 2), {
    headers: {
      "Content-Type": "application/did+json; charset=utf-8",
      "Cache-Control": "public, max-age=300",
      "Access-Control-Allow-Origin": "*",
    },
  });
}
