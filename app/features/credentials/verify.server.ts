import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import { cryptosuite } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import * as vc from "@digitalbazaar/vc";
import jsigs from "jsonld-signatures";
import { levelStatedBy } from "./credential";
import { CV_BUNDLE_TYPE, MAX_CREDENTIALS_CHECKED } from "./credentials.constants";
import { type DidDocument, isDidDocument } from "./did";
import { type DocumentLoader, documentLoaderFor } from "./json-ld.server";
import { statusBit } from "./status-list";

/** What checking one credential found, in words a venue or a booker can read. */
export type CredentialCheck = {
  /** 1 for the first credential in the file, and so on. */
  position: number;
  id: string | null;
  name: string;
  /** The subject (the artist's profile address). */
  subject: string | null;
  achievementType: string | null;
  level: string | null;
  /** What it proves, in the issuer's words (the achievement's criteria). */
  narrative: string | null;
  date: string | null;
  issuer: string | null;
  authentic: boolean;
  /** true revoked, false not revoked, null could not be checked (offline, unknown list). */
  revoked: boolean | null;
  problem: string | null;
};

export type CvCheck = {
  kind: "presentation" | "credential";
  /** The presentation's own proof; null for a single credential. */
  presentationAuthentic: boolean | null;
  presentationProblem: string | null;
  credentials: CredentialCheck[];
  /** Every proof holds (the presentation's and each credential's). */
  allAuthentic: boolean;
};

export type CheckSources = {
  /** The issuer's did.json, or null when it cannot be had. */
  resolveDid(did: string, snapshot: DidDocument | null): Promise<DidDocument | null>;
  /** A status list credential (parsed JSON), or null when it cannot be had. */
  loadStatusList(url: string): Promise<unknown | null>;
  /** Test-only contexts. */
  extraContexts?: Map<string, unknown>;
};

export class CvFormatError extends Error {}

/**
 * Work caps, checked before any proof is (decision 037). A GigLedger credential holds about 100
 * JSON values and nests 6 deep; a document far past that is not one of ours, and its expansion
 * and canonicalization could cost minutes (a ring of 20,000 blank nodes took the server's whole
 * heap). The worker that runs the check (`check-cv.worker.ts`) still has a time and memory limit
 * for whatever gets past these.
 */
const MAX_VALUES_PER_CREDENTIAL = 400;
/** Values of the presentation (or bundle) outside its credentials: the proof, the holder. */
const MAX_VALUES_OUTSIDE_CREDENTIALS = 400;
const MAX_DEPTH = 16;
const TOO_COMPLEX =
  "This file is not a GigLedger CV: it is far larger or deeper than the credentials GigLedger signs.";

/** The JSON values in `value` (itself included), stopping once past `limit` or `MAX_DEPTH`. */
function valuesIn(value: unknown, limit: number): number {
  let count = 0;
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop() as { v: unknown; depth: number };
    count++;
    if (count > limit || depth > MAX_DEPTH) return Number.POSITIVE_INFINITY;
    if (typeof v === "object" && v !== null)
      for (const child of Array.isArray(v) ? v : Object.values(v))
        stack.push({ v: child, depth: depth + 1 });
  }
  return count;
}

/** Refuses a document past the caps above, before anything expands it. */
function checkSize(document: Json, credentials: Json[]) {
  for (const credential of credentials)
    if (valuesIn(credential, MAX_VALUES_PER_CREDENTIAL) > MAX_VALUES_PER_CREDENTIAL)
      throw new CvFormatError(TOO_COMPLEX);
  const rest = credentials.length === 1 && credentials[0] === document ? {} : { ...document };
  // What is not an object among the credentials is not checked as one, but is still signed over.
  if ("verifiableCredential" in rest)
    rest.verifiableCredential = asArray(document.verifiableCredential).filter((v) => !isObject(v));
  if (valuesIn(rest, MAX_VALUES_OUTSIDE_CREDENTIALS) > MAX_VALUES_OUTSIDE_CREDENTIALS)
    throw new CvFormatError(TOO_COMPLEX);
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const typesOf = (v: Json) => asArray(v.type).filter((t): t is string => typeof t === "string");

/** The CV inside a file: a bundle, a presentation or one credential. */
function unpackCv(input: unknown): {
  document: Json;
  kind: CvCheck["kind"];
  snapshots: DidDocument[];
} {
  if (!isObject(input)) throw new CvFormatError("This file is not a CV: it holds no JSON object.");
  if (input.type === CV_BUNDLE_TYPE) {
    const document = input.presentation;
    if (!isObject(document)) throw new CvFormatError("This bundle holds no CV.");
    const snapshots = asArray(input.didDocuments).filter(
      (d): d is DidDocument => isObject(d) && typeof d.id === "string" && isDidDocument(d, d.id),
    );
    return { document, kind: "presentation", snapshots };
  }
  const types = typesOf(input);
  if (types.includes("VerifiablePresentation"))
    return { document: input, kind: "presentation", snapshots: [] };
  if (types.includes("VerifiableCredential"))
    return { document: input, kind: "credential", snapshots: [] };
  throw new CvFormatError(
    "This file is not a CV: it is neither a Verifiable Presentation nor a credential.",
  );
}

const didOfMethod = (proof: unknown) => {
  const vm = isObject(proof) ? proof.verificationMethod : undefined;
  const id = typeof vm === "string" ? vm : isObject(vm) && typeof vm.id === "string" ? vm.id : "";
  return id.startsWith("did:") ? (id.split("#")[0] ?? null) : null;
};

const messageOf = (error: unknown): string => {
  if (!error) return "The proof does not hold.";
  if (Array.isArray(error)) return messageOf(error[0]);
  const e = error as { message?: string; errors?: unknown[] };
  if (e.errors?.length) return messageOf(e.errors[0]);
  return e.message ?? String(error);
};

function summaryOf(
  credential: Json,
): Omit<CredentialCheck, "position" | "authentic" | "revoked" | "problem"> {
  const subject = isObject(credential.credentialSubject) ? credential.credentialSubject : {};
  const achievement = isObject(subject.achievement) ? subject.achievement : {};
  const issuer = credential.issuer;
  const text = (v: unknown) => (typeof v === "string" ? v.slice(0, 300) : null);
  return {
    id: text(credential.id),
    name: text(credential.name) ?? text(achievement.name) ?? "Unnamed credential",
    subject: text(subject.id),
    achievementType: text(achievement.achievementType),
    level: text(levelStatedBy(credential)),
    narrative: isObject(achievement.criteria) ? text(achievement.criteria.narrative) : null,
    date: text(credential.validFrom),
    issuer: typeof issuer === "string" ? text(issuer) : isObject(issuer) ? text(issuer.id) : null,
  };
}

/**
 * Checks a CV: the presentation's proof, every credential's proof and issuer key, and each
 * credential's revocation bit where its status list can be had. Never throws on a hostile
 * document (only CvFormatError for what is not a CV at all).
 */
export async function checkCv(input: unknown, sources: CheckSources): Promise<CvCheck> {
  const { document, kind, snapshots } = unpackCv(input);
  const credentials = (
    kind === "presentation" ? asArray(document.verifiableCredential) : [document]
  ).filter(isObject);
  if (credentials.length > MAX_CREDENTIALS_CHECKED)
    throw new CvFormatError(`This CV holds more than ${MAX_CREDENTIALS_CHECKED} credentials.`);
  checkSize(document, credentials);

  // Every issuer named by a proof: its did.json from the sources (a snapshot only if they agree).
  const dids = new Set<string>();
  for (const doc of [document, ...credentials])
    for (const proof of asArray(doc.proof)) {
      const did = didOfMethod(proof);
      if (did) dids.add(did);
    }
  const didDocuments: DidDocument[] = [];
  for (const did of dids) {
    const snapshot = snapshots.find((s) => s.id === did) ?? null;
    const resolved = await sources.resolveDid(did, snapshot).catch(() => null);
    if (resolved && isDidDocument(resolved, did)) didDocuments.push(resolved);
  }
  const documentLoader = documentLoaderFor(didDocuments, sources.extraContexts);
  const suite = new DataIntegrityProof({ cryptosuite });
  const statusCache = new Map<string, Promise<{ list: Json; issuer: string } | null>>();

  const results: CredentialCheck[] = [];
  for (const credential of credentials) {
    // Checking a proof is CPU work (about 15 ms each here): the server runs this whole check in a
    // worker of its own (check-cv.worker.ts), so its main thread answers other requests meanwhile.
    const about = summaryOf(credential);
    const result = await vc
      .verifyCredential({
        credential,
        suite,
        documentLoader,
        // Revocation is checked below, so "revoked" and "not authentic" stay apart.
        checkStatus: async () => ({ verified: true }),
      })
      .catch((error: unknown) => ({ verified: false, error }));
    const authentic = result.verified;
    const revoked = authentic
      ? await revocationOf(credential, about.issuer, sources, documentLoader, suite, statusCache)
      : null;
    results.push({
      position: results.length + 1,
      ...about,
      authentic,
      revoked,
      problem: authentic ? null : messageOf(result.error),
    });
  }

  let presentationAuthentic: boolean | null = null;
  let presentationProblem: string | null = null;
  if (kind === "presentation") {
    const outcome = await jsigs
      .verify(document, {
        suite,
        purpose: new jsigs.purposes.AssertionProofPurpose(),
        documentLoader,
      })
      .catch((error: unknown) => ({ verified: false, error }));
    presentationAuthentic = outcome.verified;
    if (!outcome.verified) presentationProblem = messageOf(outcome.error);
  }
  return {
    kind,
    presentationAuthentic,
    presentationProblem,
    credentials: results,
    allAuthentic: presentationAuthentic !== false && results.every((r) => r.authentic),
  };
}

async function revocationOf(
  credential: Json,
  issuer: string | null,
  sources: CheckSources,
  documentLoader: DocumentLoader,
  suite: unknown,
  cache: Map<string, Promise<{ list: Json; issuer: string } | null>>,
): Promise<boolean | null> {
  const entry = asArray(credential.credentialStatus).find(
    (s): s is Json => isObject(s) && s.type === "BitstringStatusListEntry",
  );
  if (!entry) return credential.credentialStatus === undefined ? false : null;
  const url = entry.statusListCredential;
  const index = Number(entry.statusListIndex);
  if (typeof url !== "string" || !Number.isInteger(index) || entry.statusPurpose !== "revocation")
    return null;
  let pending = cache.get(url);
  if (!pending) {
    pending = (async () => {
      const list = await sources.loadStatusList(url).catch(() => null);
      if (!isObject(list)) return null;
      const checked = await vc
        .verifyCredential({ credential: list, suite, documentLoader })
        .catch(() => ({ verified: false }));
      const listIssuer = typeof list.issuer === "string" ? list.issuer : null;
      return checked.verified && listIssuer ? { list, issuer: listIssuer } : null;
    })();
    cache.set(url, pending);
  }
  const found = await pending;
  // A list that does not verify, or comes from another issuer, says nothing.
  if (!found || found.issuer !== issuer || found.list.id !== url) return null;
  const subject = isObject(found.list.credentialSubject) ? found.list.credentialSubject : {};
  if (subject.statusPurpose !== "revocation" || typeof subject.encodedList !== "string")
    return null;
  return statusBit(subject.encodedList, index);
}
