import { createHash } from "node:crypto";
import { canonicalJson } from "~/lib/canonical-json";
import { type PublishedTerms, publishedTermsDocument } from "./published-terms";
import { publishedTermsLines } from "./terms-card";

/**
 * The hash of an artist's published terms: the request form shows the terms with it, and a request
 * records the hash the client saw (a request whose hash is not the current one is refused).
 */
export function publishedTermsSha256(terms: PublishedTerms): string {
  return createHash("sha256")
    .update(canonicalJson(publishedTermsDocument(terms)), "utf8")
    .digest("hex");
}

/** The terms as a booking request form carries them: in words (shown) and as their hash (posted). */
export function requestTermsOf(terms: PublishedTerms): { sha256: string; lines: string[] } {
  return { sha256: publishedTermsSha256(terms), lines: publishedTermsLines(terms) };
}
