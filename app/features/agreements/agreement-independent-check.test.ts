import { createHash, createPublicKey, verify } from "node:crypto";
import { canonicalize } from "json-canonicalize";
import { describe, expect, it } from "vitest";
import { generateSecretKeyMultibase } from "~/lib/ed25519-key.server";
import { agreementFixture } from "./agreement-fixture.test-support";
import { sealAgreement } from "./agreement-seal.server";

// agreement.json checked the way a stranger would, from the file and the specifications alone:
// RFC 8785 by another library (json-canonicalize), SHA-256 and Ed25519 by node:crypto, the
// Multikey decoded by hand. None of GigLedger's own checking or canonicalizing code is used, so a
// mistake shared by our sealing and our checking cannot pass here.

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** base58btc (Bitcoin's alphabet) to bytes, leading '1's as zero bytes. */
function base58Decode(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const char of text) {
    let carry = BASE58.indexOf(char);
    if (carry < 0) throw new Error(`Not base58: ${char}`);
    for (let i = 0; i < bytes.length; i++) {
      carry += (bytes[i] as number) * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  for (const char of text) {
    if (char !== "1") break;
    bytes.push(0);
  }
  return Uint8Array.from(bytes.reverse());
}

type AgreementFile = {
  agreement: unknown;
  signature: { sha256: string; publicKeyMultibase: string; value: string; signer: string };
};

/** What a stranger concludes from agreement.json's text. */
function independentlyChecked(json: string) {
  const file = JSON.parse(json) as AgreementFile;
  const hash = createHash("sha256").update(canonicalize(file.agreement), "utf8").digest();
  const multikey = file.signature.publicKeyMultibase;
  expect(multikey.startsWith("z")).toBe(true);
  const keyBytes = base58Decode(multikey.slice(1));
  // Multicodec ed25519-pub (0xed 0x01), then the 32-byte key.
  expect([keyBytes.length, keyBytes[0], keyBytes[1]]).toEqual([34, 0xed, 0x01]);
  const key = createPublicKey({
    key: {
      kty: "OKP",
      crv: "Ed25519",
      x: Buffer.from(keyBytes.subarray(2)).toString("base64url"),
    },
    format: "jwk",
  });
  return {
    hashMatches: hash.toString("hex") === file.signature.sha256,
    // Over the hash this file's agreement has now, not the one the file states.
    signatureHolds: verify(null, hash, key, Buffer.from(file.signature.value, "base64url")),
    file,
  };
}

const env = {
  appUrl: new URL("https://gigledger.example"),
  credentialSigningKey: generateSecretKeyMultibase(),
};

describe("agreement.json, checked without GigLedger's code", () => {
  it("holds: the hash of the canonical agreement, signed by the key it names", () => {
    const { json } = sealAgreement(agreementFixture(), env);
    const { hashMatches, signatureHolds, file } = independentlyChecked(json);
    expect(hashMatches).toBe(true);
    expect(signatureHolds).toBe(true);
    // The file itself is canonical JSON too, and names the key by the signer's DID.
    expect(canonicalize(JSON.parse(json))).toBe(json);
    expect(file.signature.signer).toBe("did:web:gigledger.example");
  });

  it("fails once the agreement is changed, by one character of the total", () => {
    const { json, signed } = sealAgreement(agreementFixture(), env);
    const total = String(signed.agreement.offer.price.totalPaise);
    const changedTotal = `${total.slice(0, -1)}${total.endsWith("1") ? "2" : "1"}`;
    const tampered = json.replace(`"totalPaise":${total}`, `"totalPaise":${changedTotal}`);
    expect(tampered).not.toBe(json);
    const { hashMatches, signatureHolds } = independentlyChecked(tampered);
    expect(hashMatches).toBe(false);
    expect(signatureHolds).toBe(false);
  });

  it("decodes base58 as the reference vectors say", () => {
    // draft-msporny-base58: "Hello World!" and a leading zero byte.
    expect(Buffer.from(base58Decode("2NEpo7TZRRrLZSi2U")).toString()).toBe("Hello World!");
    expect([...base58Decode("11233QC4")]).toEqual([0, 0, 0x28, 0x7f, 0xb4, 0xcd]);
  });
});
