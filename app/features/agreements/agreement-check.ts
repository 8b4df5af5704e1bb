import { createHash, createPublicKey, verify } from "node:crypto";
import { isDidDocument, keyIdOf } from "~/features/credentials/did";
import { canonicalJson } from "~/lib/canonical-json";
import { base58btcDecode } from "~/lib/ed25519-key.server";

// Checking an agreement.json anyone hands us (the /verify page, `npm run verify-cv`): its hash,
// GigLedger's Ed25519 signature over it, and whether the signer's did.json lists the key
// (docs/decisions/047). Written apart from agreement-seal.server.ts, so a mistake in one is not
// copied into the other. Pure: the caller says where did.json comes from.

/** What the uploaded file itself says; nothing here comes from GigLedger's records. */
export type AgreementSummary = {
  artistName: string | null;
  clientName: string | null;
  /** "YYYY-MM-DD" as the file states it. */
  eventDate: string | null;
  totalPaise: number | null;
  policyName: string | null;
  frozenAt: string | null;
  /** The hash of the agreement this one replaces, or null. */
  supersedes: string | null;
};

export type AgreementCheck = {
  /** The agreement's hash recomputed from the file equals the hash that was signed. */
  intact: boolean;
  /** The Ed25519 signature over the signed hash holds with the file's key. */
  signatureValid: boolean;
  /** The signer's did.json lists the key to assert with; null when did.json could not be had. */
  keyPublished: boolean | null;
  signer: string;
  publicKeyMultibase: string;
  /** The hash the signature is over, as the file states it. */
  sha256: string;
  /** The hash of the agreement as the file holds it now. */
  computedSha256: string;
  summary: AgreementSummary;
  /** The first thing that fails, in plain words; null when nothing does. */
  problem: string | null;
};

export type DidSource = { resolveDid(did: string): Promise<unknown | null> };

/** The file is not a signed GigLedger agreement at all (its shape, not its signature). */
export class AgreementFormatError extends Error {
  override readonly name = "AgreementFormatError";
}

export const NOT_AN_AGREEMENT = "This file is not a GigLedger agreement.";
export const CHANGED = "The agreement was changed after it was signed: its hash does not match.";
export const BAD_SIGNATURE = "The signature does not match GigLedger's key.";
export const KEY_NOT_PUBLISHED = "This key is not among GigLedger's published keys.";

/**
 * Work caps, checked before anything walks the document: an agreement holds a few hundred JSON
 * values and nests 6 deep. Past these it is not one of ours, and canonicalizing it could cost
 * the server's stack.
 */
const MAX_VALUES = 5_000;
const MAX_DEPTH = 24;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const shortText = (v: unknown, max: number): v is string =>
  typeof v === "string" && v.length > 0 && v.length <= max;
const text = (v: unknown) => (typeof v === "string" ? v.slice(0, 300) : null);

function withinCaps(value: unknown): boolean {
  let count = 0;
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop() as { v: unknown; depth: number };
    if (++count > MAX_VALUES || depth > MAX_DEPTH) return false;
    if (typeof v === "object" && v !== null)
      for (const child of Array.isArray(v) ? v : Object.values(v))
        stack.push({ v: child, depth: depth + 1 });
  }
  return true;
}

/**
 * The deepest nesting of arrays and objects in JSON text, stopping past `limit`: a linear scan,
 * so a file of a million brackets is refused before JSON.parse spends its time on it.
 */
function nestingOf(json: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * The file's JSON when it presents itself as an agreement (agreement.json, or an agreement
 * without its signature), else null: then it is something else (a CV) for another checker.
 */
export function agreementFileOf(json: string): unknown | null {
  if (!json.includes("GigLedgerAgreement")) return null;
  if (nestingOf(json, MAX_DEPTH) > MAX_DEPTH) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  if (!isObject(parsed)) return null;
  const inner = isObject(parsed.agreement) ? parsed.agreement : parsed;
  return inner.type === "GigLedgerAgreement" ? parsed : null;
}

type Signed = { agreement: Json; signature: Json & SignatureFields };
type SignatureFields = {
  sha256: string;
  signer: string;
  verificationMethod: string;
  publicKeyMultibase: string;
  value: string;
};

/** The file's parts, or a format error: every field read later is checked here first. */
function unpack(input: unknown): Signed {
  if (!isObject(input)) throw new AgreementFormatError(NOT_AN_AGREEMENT);
  const { agreement, signature } = input;
  const bare = input.type === "GigLedgerAgreement";
  if (
    bare ||
    (isObject(agreement) && agreement.type === "GigLedgerAgreement" && !isObject(signature))
  )
    throw new AgreementFormatError(
      "This agreement has no signature: upload agreement.json as you downloaded it.",
    );
  if (!isObject(agreement) || agreement.type !== "GigLedgerAgreement" || !isObject(signature))
    throw new AgreementFormatError(NOT_AN_AGREEMENT);
  const shapeHolds =
    agreement.schemaVersion === 1 &&
    isObject(agreement.offer) &&
    Array.isArray(agreement.acceptances) &&
    signature.type === "GigLedgerAgreementSignature" &&
    signature.algorithm === "Ed25519" &&
    signature.canonicalization === "RFC8785" &&
    signature.hashAlgorithm === "SHA-256" &&
    shortText(signature.sha256, 128) &&
    shortText(signature.signer, 300) &&
    signature.signer.startsWith("did:") &&
    shortText(signature.publicKeyMultibase, 100) &&
    shortText(signature.value, 200) &&
    signature.verificationMethod === keyIdOf(signature.signer, signature.publicKeyMultibase);
  if (!shapeHolds || !withinCaps(agreement)) throw new AgreementFormatError(NOT_AN_AGREEMENT);
  return { agreement, signature: signature as Json & SignatureFields };
}

function summaryOf(agreement: Json): AgreementSummary {
  const offer = isObject(agreement.offer) ? agreement.offer : {};
  const part = (key: string) => {
    const v = offer[key];
    return isObject(v) ? v : {};
  };
  const total = part("price").totalPaise;
  return {
    artistName: text(part("artist").name),
    clientName: text(part("client").name),
    eventDate: text(part("event").date),
    totalPaise: Number.isSafeInteger(total) ? (total as number) : null,
    policyName: text(part("cancellation").policyName),
    frozenAt: text(agreement.frozenAt),
    supersedes: text(agreement.supersedes),
  };
}

/** The Ed25519 public key in a Multikey multibase ("z6Mk…": 0xed01 and 32 bytes), or null. */
function publicKeyOf(multibase: string) {
  const bytes = multibase.startsWith("z") ? base58btcDecode(multibase.slice(1)) : null;
  if (bytes?.length !== 34 || bytes[0] !== 0xed || bytes[1] !== 0x01) return null;
  const x = Buffer.from(bytes.slice(2)).toString("base64url");
  return createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x }, format: "jwk" });
}

function signatureHolds(signature: SignatureFields): boolean {
  if (!/^[0-9a-f]{64}$/.test(signature.sha256)) return false;
  if (!/^[A-Za-z0-9_-]{86}$/.test(signature.value)) return false;
  try {
    const key = publicKeyOf(signature.publicKeyMultibase);
    if (!key) return false;
    return verify(
      null,
      Buffer.from(signature.sha256, "hex"),
      key,
      Buffer.from(signature.value, "base64url"),
    );
  } catch {
    return false;
  }
}

/** Does the did.json (anything a resolver returned) list `keyId` with this key, to assert with. */
function keyListed(didJson: unknown, signer: string, publicKeyMultibase: string): boolean | null {
  if (!isDidDocument(didJson, signer)) return null;
  const keyId = keyIdOf(signer, publicKeyMultibase);
  return (
    didJson.assertionMethod.includes(keyId) &&
    didJson.verificationMethod.some(
      (m) => m.id === keyId && m.publicKeyMultibase === publicKeyMultibase,
    )
  );
}

/**
 * Checks a signed agreement (parsed agreement.json): the hash, the signature, the key. Throws
 * only AgreementFormatError, for what is not a signed GigLedger agreement at all; a hostile file
 * never gets another exception out of it.
 */
export async function checkAgreement(input: unknown, keys: DidSource): Promise<AgreementCheck> {
  let signed: Signed;
  let computedSha256: string;
  try {
    signed = unpack(input);
    computedSha256 = createHash("sha256")
      .update(canonicalJson(signed.agreement), "utf8")
      .digest("hex");
  } catch (error) {
    if (error instanceof AgreementFormatError) throw error;
    // canonicalJson refuses what GigLedger never signs (a fraction, a huge number).
    throw new AgreementFormatError(NOT_AN_AGREEMENT);
  }
  const { agreement, signature } = signed;
  const intact = computedSha256 === signature.sha256;
  const signatureValid = signatureHolds(signature);
  const didJson = await Promise.resolve()
    .then(() => keys.resolveDid(signature.signer))
    .catch(() => null);
  const keyPublished = keyListed(didJson, signature.signer, signature.publicKeyMultibase);
  const problem = !intact
    ? CHANGED
    : !signatureValid
      ? BAD_SIGNATURE
      : keyPublished === false
        ? KEY_NOT_PUBLISHED
        : null;
  return {
    intact,
    signatureValid,
    keyPublished,
    signer: signature.signer,
    publicKeyMultibase: signature.publicKeyMultibase,
    sha256: signature.sha256,
    computedSha256,
    summary: summaryOf(agreement),
    problem,
  };
}
