import { createHash } from "node:crypto";
import { canonicalJson } from "~/lib/canonical-json";
import { type PublishedTerms, publishedTermsDocument } from "./published-terms";

/**
 * The hash of an artist's published terms: the request form shows the terms with it, and a request
 * records the hash the client saw (a request whose hash is not the current one is refused).
 */
export function publishedTermsSha256(terms: PublishedTerms): string {
  return createHash("sha256")
    .update(canonicalJson(publishedTermsDocument(terms)), "utf8")
    .digest("hex");
}
