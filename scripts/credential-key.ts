// Prints a new Ed25519 secret key for CREDENTIAL_SIGNING_KEY (a public deployment needs one).
import { generateSecretKeyMultibase, publicKeyOfSecretKey } from "~/lib/ed25519-key.server";

const key = generateSecretKeyMultibase();
console.log(`CREDENTIAL_SIGNING_KEY=${key}`);
console.error(`(its public key, published in did.json: ${publicKeyOfSecretKey(key)})`);
