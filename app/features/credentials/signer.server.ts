import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
import { cryptosuite } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import * as vc from "@digitalbazaar/vc";
import jsigs from "jsonld-signatures";
import { publicKeyOfSecretKey } from "~/lib/ed25519-key.server";
import type { Env } from "~/lib/env.server";
import { didOf, keyIdOf } from "./did";
import { documentLoaderFor } from "./json-ld.server";

type SignedDocument = Record<string, unknown> & { proof: Record<string, unknown> };

export type Issuer = {
  did: string;
  publicKeyMultibase: string;
  keyId: string;
  /** Adds an `eddsa-rdfc-2022` Data Integrity proof (assertionMethod) to a credential. */
  signCredential(credential: Record<string, unknown>, date?: Date): Promise<SignedDocument>;
  /** The same proof on a Verifiable Presentation (the issuer presents, it does not log in). */
  signPresentation(presentation: Record<string, unknown>, date?: Date): Promise<SignedDocument>;
};

const signingLoader = documentLoaderFor([]);
const issuers = new Map<string, Promise<Issuer>>();

/** The issuer for this app's address and key (kept: building the key pair is not free). */
export function issuerFor(env: Pick<Env, "appUrl" | "credentialSigningKey">): Promise<Issuer> {
  const did = didOf(env.appUrl);
  const cacheKey = `${did} ${env.credentialSigningKey}`;
  let issuer = issuers.get(cacheKey);
  if (!issuer) {
    issuer = createIssuer(did, env.credentialSigningKey);
    issuers.set(cacheKey, issuer);
  }
  return issuer;
}

/** `extraContexts` serves contexts beyond the bundled ones (the W3C test vector's, in tests). */
export async function createIssuer(
  did: string,
  secretKeyMultibase: string,
  options: { extraContexts?: Map<string, unknown> } = {},
): Promise<Issuer> {
  const documentLoader = options.extraContexts
    ? documentLoaderFor([], options.extraContexts)
    : signingLoader;
  const publicKeyMultibase = publicKeyOfSecretKey(secretKeyMultibase);
  const keyId = keyIdOf(did, publicKeyMultibase);
  const keyPair = await Ed25519Multikey.from({
    "@context": "https://w3id.org/security/multikey/v1",
    type: "Multikey",
    id: keyId,
    controller: did,
    publicKeyMultibase,
    secretKeyMultibase,
  });
  const suite = (date?: Date) =>
    new DataIntegrityProof({ signer: keyPair.signer(), cryptosuite, date: date ?? new Date() });
  return {
    did,
    publicKeyMultibase,
    keyId,
    async signCredential(credential, date) {
      return (await vc.issue({
        credential: structuredClone(credential),
        suite: suite(date),
        documentLoader,
      })) as SignedDocument;
    },
    async signPresentation(presentation, date) {
      return (await vc.signPresentation({
        presentation: structuredClone(presentation),
        suite: suite(date),
        purpose: new jsigs.purposes.AssertionProofPurpose(),
        documentLoader,
      })) as SignedDocument;
    },
  };
}
