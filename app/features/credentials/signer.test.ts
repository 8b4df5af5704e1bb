import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import { cryptosuite } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import * as vc from "@digitalbazaar/vc";
import { describe, expect, it } from "vitest";
import { isoInZone } from "~/lib/dates";
import {
  base58btcDecode,
  base58btcEncode,
  generateSecretKeyMultibase,
  publicKeyOfSecretKey,
} from "~/lib/ed25519-key.server";
import { didDocumentOf, didDocumentUrl, didOf } from "./did";
import { documentLoaderFor } from "./json-ld.server";
import { createIssuer } from "./signer.server";
import { encodeStatusList, statusBit, statusPlaceOf } from "./status-list";

/**
 * The published test vector of the W3C Data Integrity EdDSA Cryptosuites specification
 * (w3c/vc-di-eddsa, TestVectors/keyPair.json and TestVectors/eddsa-rdfc-2022/signedDataInt.json):
 * our signer must produce exactly this proof, so our proofs are the standard's, not merely
 * self-consistent.
 */
const VECTOR_KEYS = {
  publicKeyMultibase: "z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2",
  secretKeyMultibase: "z3u2en7t5LR2WtQH5PfFqMqwVHBeXouLzo6haApm8XHqvjxq",
};
const VECTOR_CONTROLLER = "https://vc.example/issuers/5678";
const VECTOR_UNSIGNED = {
  "@context": [
    "https://www.w3.org/ns/credentials/v2",
    "https://www.w3.org/ns/credentials/examples/v2",
  ],
  id: "urn:uuid:58172aac-d8ba-11ed-83dd-0b3aef56cc33",
  type: ["VerifiableCredential", "AlumniCredential"],
  name: "Alumni Credential",
  description: "A minimum viable example of an Alumni Credential.",
  issuer: "https://vc.example/issuers/5678",
  validFrom: "2023-01-01T00:00:00Z",
  credentialSubject: { id: "did:example:abcdefgh", alumniOf: "The School of Examples" },
};
const VECTOR_SIGNED = {
  ...VECTOR_UNSIGNED,
  proof: {
    type: "DataIntegrityProof",
    cryptosuite: "eddsa-rdfc-2022",
    created: "2023-02-24T23:36:38Z",
    verificationMethod:
      "https://vc.example/issuers/5678#z6MkrJVnaZkeFzdQyMZu1cgjg7k1pZZ6pvBQ7XJPt4swbTQ2",
    proofPurpose: "assertionMethod",
    proofValue:
      "z21EVs3eXERqTn4acNHT9viboqgzUaQ3kTmhPT3eA8qrVPE7CrQq78WkzctnMX5W4CrzcKnHw8V6dvy5pgWYCU5e9",
  },
};
// The examples context the vector uses (https://www.w3.org/ns/credentials/examples/v2), as
// published; no npm package ships it in a usable form, and it is needed by this test only.
const EXAMPLES_CONTEXT = new Map<string, unknown>([
  [
    "https://www.w3.org/ns/credentials/examples/v2",
    { "@context": { "@vocab": "https://www.w3.org/ns/credentials/examples#" } },
  ],
]);

describe("the eddsa-rdfc-2022 signer", () => {
  it("derives the vector's public key from its secret key", () => {
    expect(publicKeyOfSecretKey(VECTOR_KEYS.secretKeyMultibase)).toBe(
      VECTOR_KEYS.publicKeyMultibase,
    );
  });

  it("reproduces the W3C test vector byte for byte", async () => {
    const issuer = await createIssuer(VECTOR_CONTROLLER, VECTOR_KEYS.secretKeyMultibase, {
      extraContexts: EXAMPLES_CONTEXT,
    });
    const signed = await issuer.signCredential(VECTOR_UNSIGNED, new Date("2023-02-24T23:36:38Z"));
    expect(signed.proof.proofValue).toBe(VECTOR_SIGNED.proof.proofValue);
    expect(signed).toEqual(VECTOR_SIGNED);
  });

  it("verifies the published vector, and refuses it with one character changed", async () => {
    const loader = documentLoaderFor([], EXAMPLES_CONTEXT);
    const vmId = VECTOR_SIGNED.proof.verificationMethod;
    const documentLoader = async (url: string) => {
      const method = {
        "@context": "https://w3id.org/security/multikey/v1",
        id: vmId,
        type: "Multikey",
        controller: VECTOR_CONTROLLER,
        publicKeyMultibase: VECTOR_KEYS.publicKeyMultibase,
      };
      if (url === vmId) return { contextUrl: null, documentUrl: url, document: method };
      if (url === VECTOR_CONTROLLER)
        return {
          contextUrl: null,
          documentUrl: url,
          document: {
            "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"],
            id: VECTOR_CONTROLLER,
            assertionMethod: [method],
          },
        };
      return loader(url);
    };
    const suite = new DataIntegrityProof({ cryptosuite });
    const good = await vc.verifyCredential({ credential: VECTOR_SIGNED, suite, documentLoader });
    expect(good.verified).toBe(true);
    const tampered = structuredClone(VECTOR_SIGNED);
    tampered.credentialSubject.alumniOf = "The School of Exampleз";
    const bad = await vc.verifyCredential({ credential: tampered, suite, documentLoader });
    expect(bad.verified).toBe(false);
  });
});

describe("keys, DIDs and status lists", () => {
  it("round-trips base58btc, leading zeros included", () => {
    for (const bytes of [
      Uint8Array.from([0, 0, 1, 2, 255]),
      Uint8Array.from([0xed, 0x01, ...new Array(32).fill(7)]),
    ])
      expect(base58btcDecode(base58btcEncode(bytes))).toEqual(bytes);
    expect(base58btcDecode("0OIl")).toBeNull();
  });

  it("makes a fresh key whose public part is an Ed25519 Multikey", () => {
    const key = generateSecretKeyMultibase();
    expect(key).toMatch(/^z3u2/);
    expect(publicKeyOfSecretKey(key)).toMatch(/^z6Mk/);
    expect(generateSecretKeyMultibase()).not.toBe(key);
  });

  it.each([
    [
      "https://gigledger.example",
      "did:web:gigledger.example",
      "https://gigledger.example/.well-known/did.json",
    ],
    [
      "http://localhost:3000",
      "did:web:localhost%3A3000",
      "http://localhost:3000/.well-known/did.json",
    ],
    [
      "https://gigledger.example:8443/app",
      "did:web:gigledger.example%3A8443",
      "https://gigledger.example:8443/.well-known/did.json",
    ],
    [
      "http://127.0.0.1:4100",
      "did:web:127.0.0.1%3A4100",
      "http://127.0.0.1:4100/.well-known/did.json",
    ],
  ])("writes %s as %s, published at %s", (appUrl, did, url) => {
    expect(didOf(new URL(appUrl))).toBe(did);
    expect(didDocumentUrl(did)?.href).toBe(url);
  });

  it("refuses DIDs that are not a plain host", () => {
    for (const did of [
      "did:web:evil.example/path",
      "did:key:z6Mk",
      "did:web:a%3Ab%3Ac",
      "did:web:",
    ])
      expect(didDocumentUrl(did)).toBeNull();
  });

  it("lists every key in did.json, each allowed to assert", () => {
    const doc = didDocumentOf("did:web:x.example", ["z6MkA", "z6MkB"]);
    expect(doc.assertionMethod).toEqual(["did:web:x.example#z6MkA", "did:web:x.example#z6MkB"]);
    expect(doc.verificationMethod.map((m) => m.controller)).toEqual([
      "did:web:x.example",
      "did:web:x.example",
    ]);
  });

  it("sets exactly the revoked bits, counted from the left", () => {
    const list = encodeStatusList([0, 9, 131_071]);
    expect(statusBit(list, 0)).toBe(true);
    expect(statusBit(list, 1)).toBe(false);
    expect(statusBit(list, 9)).toBe(true);
    expect(statusBit(list, 131_071)).toBe(true);
    expect(statusBit(list, 131_072)).toBeNull();
    expect(statusBit("u!!notgzip", 0)).toBeNull();
    expect(statusPlaceOf(131_073)).toEqual({ listNumber: 1, offset: 1 });
  });

  it("writes an instant in the artist's zone with its offset", () => {
    expect(isoInZone("2026-11-15T14:30:00Z", "Asia/Kolkata")).toBe("2026-11-15T20:00:00+05:30");
    expect(isoInZone("2026-07-01T16:00:05Z", "America/New_York")).toBe("2026-07-01T12:00:05-04:00");
    expect(isoInZone("2026-01-01T00:00:00Z", "UTC")).toBe("2026-01-01T00:00:00+00:00");
  });
});
