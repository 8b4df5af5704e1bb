import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from "node:crypto";

/**
 * Ed25519 keys written as Multikey multibase strings (base58btc, "z…"), the form the W3C Data
 * Integrity specifications and `did.json` use: a secret key is the multicodec header 0x8026
 * (ed25519-priv) and the 32-byte seed; a public key is 0xed01 (ed25519-pub) and 32 bytes.
 */
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const SECRET_HEADER = [0x80, 0x26];
const PUBLIC_HEADER = [0xed, 0x01];
// PKCS#8 wrapping of a raw Ed25519 seed (RFC 8410), so Node's crypto can use it.
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

export function base58btcEncode(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = "";
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  return "1".repeat(zeros) + out;
}

export function base58btcDecode(text: string): Uint8Array | null {
  let n = 0n;
  let zeros = 0;
  while (zeros < text.length && text[zeros] === "1") zeros++;
  for (const ch of text) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) return null;
    n = n * 58n + BigInt(v);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n % 256n));
    n /= 256n;
  }
  return Uint8Array.from([...new Array(zeros).fill(0), ...bytes]);
}

function withHeader(header: number[], key: Uint8Array) {
  return `z${base58btcEncode(Uint8Array.from([...header, ...key]))}`;
}

/** The 32-byte seed of a secret key multibase, or null when it is not one. */
export function seedOfSecretKey(secretKeyMultibase: string): Uint8Array | null {
  if (!secretKeyMultibase.startsWith("z")) return null;
  const bytes = base58btcDecode(secretKeyMultibase.slice(1));
  if (bytes?.length !== 34 || bytes[0] !== SECRET_HEADER[0] || bytes[1] !== SECRET_HEADER[1])
    return null;
  return bytes.slice(2);
}

/** A new random Ed25519 secret key, as a multibase string. */
export function generateSecretKeyMultibase(): string {
  const { privateKey } = generateKeyPairSync("ed25519");
  const d = privateKey.export({ format: "jwk" }).d;
  if (!d) throw new Error("Ed25519 key without a seed");
  return withHeader(SECRET_HEADER, Buffer.from(d, "base64url"));
}

/** A secret key (multibase) as a Node KeyObject, for `crypto.sign`. */
export function privateKeyOfSecretKey(secretKeyMultibase: string): KeyObject {
  const seed = seedOfSecretKey(secretKeyMultibase);
  if (!seed) throw new Error("Not an Ed25519 secret key multibase");
  return createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, seed]),
    format: "der",
    type: "pkcs8",
  });
}

/** The public key (multibase) that belongs to a secret key (multibase). */
export function publicKeyOfSecretKey(secretKeyMultibase: string): string {
  const privateKey = privateKeyOfSecretKey(secretKeyMultibase);
  const x = createPublicKey(privateKey).export({ format: "jwk" }).x;
  if (!x) throw new Error("Ed25519 key without a public part");
  return withHeader(PUBLIC_HEADER, Buffer.from(x, "base64url"));
}
