import { describe, expect, it } from "vitest";
import { didDocumentOf, didOf } from "~/features/credentials/did";
import { canonicalJson } from "~/lib/canonical-json";
import { generateSecretKeyMultibase, publicKeyOfSecretKey } from "~/lib/ed25519-key.server";
import {
  AgreementFormatError,
  agreementFileOf,
  BAD_SIGNATURE,
  CHANGED,
  checkAgreement,
  KEY_NOT_PUBLISHED,
  NOT_AN_AGREEMENT,
} from "./agreement-check";
import type { SignedAgreement } from "./agreement-document";
import { agreementFixture } from "./agreement-fixture.test-support";
import { sealAgreement } from "./agreement-seal.server";

const env = {
  appUrl: new URL("https://gigledger.example"),
  credentialSigningKey: generateSecretKeyMultibase(),
};
const did = didOf(env.appUrl);
const ourKey = publicKeyOfSecretKey(env.credentialSigningKey);
/** The site's did.json: the key in use and an older one. */
const published = {
  resolveDid: async (asked: string) =>
    asked === did
      ? didDocumentOf(did, [ourKey, publicKeyOfSecretKey(generateSecretKeyMultibase())])
      : null,
};
const offline = { resolveDid: async () => null };

const sealed = () => sealAgreement(agreementFixture(), env);
/** A deep copy of a sealed agreement to change, as someone with the file could. */
const copyOf = (signed: SignedAgreement): SignedAgreement => JSON.parse(canonicalJson(signed));

describe("checkAgreement", () => {
  it("passes a sealed agreement: intact, signed, key published, with the file's summary", async () => {
    const { signed, sha256 } = sealed();
    const check = await checkAgreement(JSON.parse(canonicalJson(signed)), published);
    expect(check).toMatchObject({
      intact: true,
      signatureValid: true,
      keyPublished: true,
      signer: did,
      publicKeyMultibase: ourKey,
      sha256,
      computedSha256: sha256,
      problem: null,
      summary: {
        artistName: "Asha Rao",
        clientName: "विक्रम शर्मा",
        eventDate: "2027-02-14",
        totalPaise: 12500000,
        policyName: "Moderate",
        frozenAt: "2026-11-21T09:15:00.000Z",
        supersedes: null,
      },
    });
  });

  it("says the key could not be checked (null) when did.json cannot be had, and nothing fails", async () => {
    const check = await checkAgreement(copyOf(sealed().signed), offline);
    expect(check).toMatchObject({ intact: true, signatureValid: true, keyPublished: null });
    expect(check.problem).toBeNull();
    const throwing = {
      resolveDid: () => {
        throw new Error("network down");
      },
    };
    expect((await checkAgreement(copyOf(sealed().signed), throwing)).keyPublished).toBeNull();
  });

  it("finds a changed total: not intact, the signature still over the old hash", async () => {
    const changed = copyOf(sealed().signed);
    changed.agreement.offer.price.totalPaise += 100;
    const check = await checkAgreement(changed, published);
    expect(check).toMatchObject({ intact: false, signatureValid: true, problem: CHANGED });
    expect(check.computedSha256).not.toBe(check.sha256);
    // The summary is what the file says now, changed or not.
    expect(check.summary.totalPaise).toBe(12500100);
  });

  it("finds one changed character in a name", async () => {
    const changed = copyOf(sealed().signed);
    changed.agreement.offer.client.name = "विक्रम शर्मी";
    expect((await checkAgreement(changed, published)).problem).toBe(CHANGED);
  });

  it("finds a new hash written into the signature: intact again, but the signature fails", async () => {
    const changed = copyOf(sealed().signed);
    changed.agreement.offer.price.totalPaise = 1;
    changed.signature.sha256 = (await checkAgreement(changed, published)).computedSha256;
    const check = await checkAgreement(changed, published);
    expect(check).toMatchObject({ intact: true, signatureValid: false, problem: BAD_SIGNATURE });
  });

  it("refuses a signature by another key that claims GigLedger's key", async () => {
    const other = sealAgreement(agreementFixture(), {
      ...env,
      credentialSigningKey: generateSecretKeyMultibase(),
    });
    const forged = copyOf(sealed().signed);
    forged.agreement = other.signed.agreement;
    forged.signature.sha256 = other.sha256;
    forged.signature.value = other.signed.signature.value;
    const check = await checkAgreement(forged, published);
    expect(check).toMatchObject({ intact: true, signatureValid: false, problem: BAD_SIGNATURE });
    // A signature that is not even 64 bytes fails the same way.
    forged.signature.value = "AAAA";
    expect((await checkAgreement(forged, published)).signatureValid).toBe(false);
  });

  it("refuses a key that did.json does not list, though its own signature holds", async () => {
    const stranger = sealAgreement(agreementFixture(), {
      ...env,
      credentialSigningKey: generateSecretKeyMultibase(),
    });
    const check = await checkAgreement(copyOf(stranger.signed), published);
    expect(check).toMatchObject({
      intact: true,
      signatureValid: true,
      keyPublished: false,
      problem: KEY_NOT_PUBLISHED,
    });
    // A did.json for another DID, or not a did.json at all, says nothing about the key.
    const wrongDoc = { resolveDid: async () => didDocumentOf("did:web:elsewhere.example", []) };
    expect((await checkAgreement(copyOf(stranger.signed), wrongDoc)).keyPublished).toBeNull();
  });

  const garbage: Array<[string, unknown]> = [
    ["null", null],
    ["an array", []],
    ["a number", 7],
    ["a string", "agreement"],
    ["{agreement: 1}", { agreement: 1 }],
    ["an agreement without a signature", { agreement: agreementFixture() }],
    ["the bare agreement", agreementFixture()],
    ["a signature that is a string", { agreement: agreementFixture(), signature: "x" }],
    [
      "a huge signer",
      (() => {
        const s = copyOf(sealed().signed);
        s.signature.signer = `did:web:${"a".repeat(5_000_000)}`;
        return s;
      })(),
    ],
    [
      "a huge key",
      (() => {
        const s = copyOf(sealed().signed);
        s.signature.publicKeyMultibase = `z6Mk${"x".repeat(1_000_000)}`;
        s.signature.verificationMethod = `${s.signature.signer}#${s.signature.publicKeyMultibase}`;
        return s;
      })(),
    ],
    [
      "a verification method naming another key",
      (() => {
        const s = copyOf(sealed().signed);
        s.signature.verificationMethod = `${did}#z6MkOther`;
        return s;
      })(),
    ],
    [
      "a fraction in the agreement",
      (() => {
        const s = copyOf(sealed().signed) as unknown as { agreement: { offer: { x?: number } } };
        s.agreement.offer.x = 1.5;
        return s;
      })(),
    ],
    [
      "an agreement nested 10,000 deep",
      (() => {
        const s = copyOf(sealed().signed) as unknown as { agreement: { notes?: unknown } };
        let deep: unknown = [];
        for (let i = 0; i < 10_000; i++) deep = [deep];
        s.agreement.notes = deep;
        return s;
      })(),
    ],
    [
      "an agreement with a million values",
      (() => {
        const s = copyOf(sealed().signed) as unknown as { agreement: { notes?: unknown } };
        s.agreement.notes = new Array(1_000_000).fill(0);
        return s;
      })(),
    ],
    [
      "a wrong algorithm",
      (() => {
        const s = copyOf(sealed().signed) as unknown as { signature: { algorithm: string } };
        s.signature.algorithm = "none";
        return s;
      })(),
    ],
    ["a Map", new Map([["agreement", {}]])],
    [
      "an object that is not plain",
      (() => {
        const s = copyOf(sealed().signed) as unknown as { agreement: { offer: unknown } };
        s.agreement.offer = Object.assign(new (class Offer {})(), { type: "x" });
        return s;
      })(),
    ],
  ];

  it.each(garbage)("refuses %s with the format error only", async (_name, input) => {
    const outcome = await checkAgreement(input, published).then(
      () => "passed",
      (error: unknown) => error,
    );
    expect(outcome).toBeInstanceOf(AgreementFormatError);
    expect((outcome as Error).message).toMatch(/agreement/);
  });

  it("names the bare agreement's missing signature, and anything else as not an agreement", async () => {
    await expect(checkAgreement({ agreement: agreementFixture() }, published)).rejects.toThrow(
      /no signature/,
    );
    await expect(checkAgreement(agreementFixture(), published)).rejects.toThrow(/no signature/);
    await expect(checkAgreement({ agreement: 1 }, published)).rejects.toThrow(NOT_AN_AGREEMENT);
    const unsigned = { agreement: { type: "GigLedgerAgreement" }, signature: {} };
    await expect(checkAgreement(unsigned, published)).rejects.toThrow(NOT_AN_AGREEMENT);
  });
});

describe("agreementFileOf", () => {
  it("takes agreement.json and a bare agreement, and leaves anything else to another checker", () => {
    const { json } = sealed();
    expect(agreementFileOf(json)).toEqual(JSON.parse(json));
    expect(agreementFileOf(JSON.stringify(agreementFixture(), null, 2))).not.toBeNull();
    expect(agreementFileOf('{"type":"VerifiablePresentation"}')).toBeNull();
    // A CV whose session is called "GigLedgerAgreement" is still a CV.
    expect(agreementFileOf('{"type":"VerifiablePresentation","name":"GigLedgerAgreement"}')).toBe(
      null,
    );
    expect(agreementFileOf('"GigLedgerAgreement"')).toBeNull();
    expect(agreementFileOf("GigLedgerAgreement{")).toBeNull();
    // A million brackets are not parsed at all.
    const deep = `{"agreement":{"type":"GigLedgerAgreement","x":${"[".repeat(1e6)}${"]".repeat(1e6)}}}`;
    const started = performance.now();
    expect(agreementFileOf(deep)).toBeNull();
    expect(performance.now() - started).toBeLessThan(200);
    // Brackets inside strings are text, not nesting.
    const inText = JSON.stringify({ agreement: { type: "GigLedgerAgreement", n: "[".repeat(50) } });
    expect(agreementFileOf(inText)).not.toBeNull();
  });
});
