import { CONTEXT_VC_2 } from "./credentials.constants";

const DID_CONTEXT = "https://www.w3.org/ns/did/v1";
export const MULTIKEY_CONTEXT = "https://w3id.org/security/multikey/v1";

export type DidDocument = {
  "@context": string[];
  id: string;
  verificationMethod: {
    id: string;
    type: "Multikey";
    controller: string;
    publicKeyMultibase: string;
  }[];
  assertionMethod: string[];
};

/**
 * The issuer's did:web for the app's address: the host, with a port's ':' written %3A as did:web
 * requires (`did:web:localhost%3A3000`). Paths play no part: did.json lives at /.well-known/.
 */
export function didOf(appUrl: URL): string {
  return `did:web:${appUrl.host.replace(":", "%3A")}`;
}

/** Where a did:web's document is published; plain http only for this machine's own addresses. */
export function didDocumentUrl(did: string): URL | null {
  const match = /^did:web:([A-Za-z0-9.-]+(?:%3A\d{1,5})?)$/.exec(did);
  if (!match?.[1]) return null;
  const host = match[1].replace("%3A", ":");
  const hostname = host.split(":")[0] ?? "";
  const local = hostname === "localhost" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
  return new URL(`${local ? "http" : "https"}://${host}/.well-known/did.json`);
}

export const keyIdOf = (did: string, publicKeyMultibase: string) => `${did}#${publicKeyMultibase}`;

/** did.json: every key the issuer ever signed with, newest first, each one able to assert. */
export function didDocumentOf(did: string, publicKeys: string[]): DidDocument {
  const methods = publicKeys.map((publicKeyMultibase) => ({
    id: keyIdOf(did, publicKeyMultibase),
    type: "Multikey" as const,
    controller: did,
    publicKeyMultibase,
  }));
  return {
    "@context": [DID_CONTEXT, MULTIKEY_CONTEXT],
    id: did,
    verificationMethod: methods,
    assertionMethod: methods.map((m) => m.id),
  };
}

/** Is this a did.json we can use: the right shape, for this DID, with Ed25519 Multikeys only. */
export function isDidDocument(value: unknown, did: string): value is DidDocument {
  if (!value || typeof value !== "object") return false;
  const doc = value as Partial<DidDocument>;
  return (
    doc.id === did &&
    Array.isArray(doc.verificationMethod) &&
    Array.isArray(doc.assertionMethod) &&
    doc.verificationMethod.every(
      (m) =>
        m &&
        typeof m.id === "string" &&
        m.id.startsWith(`${did}#`) &&
        m.type === "Multikey" &&
        m.controller === did &&
        typeof m.publicKeyMultibase === "string" &&
        m.publicKeyMultibase.startsWith("z6Mk"),
    ) &&
    doc.assertionMethod.every((id) => typeof id === "string")
  );
}

export { CONTEXT_VC_2 };
