import { createHash, sign } from "node:crypto";
import { didOf, keyIdOf } from "~/features/credentials/did";
import { canonicalJson } from "~/lib/canonical-json";
import { privateKeyOfSecretKey, publicKeyOfSecretKey } from "~/lib/ed25519-key.server";
import type { Env } from "~/lib/env.server";
import type { AgreementDocument, OfferDocument, SignedAgreement } from "./agreement-document";

// Hashing and signing offers and agreements with the key that signs the performance CV
// (docs/decisions/047). Checking them is agreement-check.ts, written without this file.

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** An offer's canonical JSON and its hash: what each party accepts. */
export function offerHashOf(offer: OfferDocument): { canonical: string; sha256: string } {
  const canonical = canonicalJson(offer);
  return { canonical, sha256: sha256Hex(canonical) };
}

/** agreement.json's exact bytes (canonical JSON), with the agreement's hash. */
export function sealAgreement(
  agreement: AgreementDocument,
  env: Pick<Env, "appUrl" | "credentialSigningKey">,
): { json: string; sha256: string; signed: SignedAgreement } {
  const sha256 = sha256Hex(canonicalJson(agreement));
  const key = privateKeyOfSecretKey(env.credentialSigningKey);
  const publicKeyMultibase = publicKeyOfSecretKey(env.credentialSigningKey);
  const did = didOf(env.appUrl);
  const signed: SignedAgreement = {
    agreement,
    signature: {
      type: "GigLedgerAgreementSignature",
      algorithm: "Ed25519",
      canonicalization: "RFC8785",
      hashAlgorithm: "SHA-256",
      sha256,
      signer: did,
      verificationMethod: keyIdOf(did, publicKeyMultibase),
      publicKeyMultibase,
      value: sign(null, Buffer.from(sha256, "hex"), key).toString("base64url"),
    },
  };
  return { json: canonicalJson(signed), sha256, signed };
}
