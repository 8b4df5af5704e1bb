/**
 * Checks a GigLedger performance CV (cv.json, a bundle, or one credential) without trusting the
 * site: every proof, every issuer key, and each credential's revocation where its status list can
 * be reached. Usage: npm run verify-cv -- <file> [--offline]
 * Exit 0 when every proof holds and nothing is revoked, 1 otherwise (2 for a usage error).
 *
 * A booking agreement (agreement.json) is checked too: its hash, GigLedger's signature over it,
 * and (online) that the signer's did.json lists the key. Exit 0 only when all of those hold;
 * offline the key is not checked.
 */
import { readFileSync } from "node:fs";
import {
  type AgreementCheck,
  AgreementFormatError,
  agreementFileOf,
  checkAgreement,
} from "~/features/agreements/agreement-check";
import { didDocumentUrl } from "~/features/credentials/did";
import { type CvCheck, CvFormatError, checkCv } from "~/features/credentials/verify.server";
import { formatPaise } from "~/lib/money-text";

const args = process.argv.slice(2);
const offline = args.includes("--offline");
const file = args.find((a) => !a.startsWith("--"));
if (!file) {
  console.error("Usage: npm run verify-cv -- <cv.json, bundle or agreement.json> [--offline]");
  process.exit(2);
}

async function fetchJson(url: string): Promise<unknown | null> {
  if (offline || !/^https?:\/\//.test(url)) return null;
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(5000),
      headers: { Accept: "application/json" },
      redirect: "error",
    });
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

const keySources = new Map<string, string>();
let unreachableStatus = false;

function print(result: CvCheck) {
  if (result.kind === "presentation")
    console.log(
      `CV (Verifiable Presentation): its own proof ${result.presentationAuthentic ? "holds" : `DOES NOT HOLD: ${result.presentationProblem}`}`,
    );
  for (const [did, source] of keySources) console.log(`Issuer ${did}: keys from ${source}`);
  console.log(`${result.credentials.length} credential(s):`);
  for (const c of result.credentials) {
    const revocation =
      c.revoked === true
        ? "REVOKED"
        : c.revoked === false
          ? "not revoked"
          : "revocation not checked";
    const mark = c.authentic && c.revoked !== true ? "✓" : "✗";
    console.log(
      `${mark} ${c.position}. ${c.authentic ? "authentic" : "NOT AUTHENTIC"}, ${c.authentic ? revocation : "-"} | ${c.level ?? "no level"} | ${c.achievementType ?? "?"} | ${c.date ?? "?"} | ${c.name}`,
    );
    if (!c.authentic && c.problem) console.log(`     ${c.problem}`);
  }
  if (result.credentials.some((c) => c.authentic && c.revoked === null))
    console.log(
      offline || unreachableStatus
        ? "Could not check revocation: the status list was not reachable (offline)."
        : "Could not check revocation for some credentials.",
    );
}

let didJsonSource = "";

function printAgreement(result: AgreementCheck) {
  const keyPublished =
    result.keyPublished === true
      ? "yes"
      : result.keyPublished === false
        ? "NO"
        : offline
          ? "not checked (offline)"
          : `not checked (${didJsonSource || "its did.json"} not reachable)`;
  console.log(
    `Agreement ${result.sha256}: ${result.intact ? "intact" : "CHANGED (its hash does not match)"}, ${result.signatureValid ? "signed" : "SIGNATURE DOES NOT HOLD, claims to be signed"} by ${result.signer} (key ${result.publicKeyMultibase}), key published: ${keyPublished}`,
  );
  if (!result.intact) console.log(`  Hash of the agreement in the file: ${result.computedSha256}`);
  const { summary: s } = result;
  const or = (v: string | null, none = "not stated") => v ?? none;
  console.log(`  Artist: ${or(s.artistName)}`);
  console.log(`  Client: ${or(s.clientName)}`);
  console.log(`  Event date: ${or(s.eventDate)}`);
  console.log(`  Total: ${s.totalPaise === null ? "not stated" : formatPaise(s.totalPaise)}`);
  console.log(`  Cancellation policy: ${or(s.policyName)}`);
  console.log(`  Frozen at: ${or(s.frozenAt)}`);
  console.log(`  Replaces: ${or(s.supersedes, "no earlier agreement")}`);
}

async function verifyAgreement(input: unknown): Promise<never> {
  const result = await checkAgreement(input, {
    async resolveDid(did) {
      const url = didDocumentUrl(did);
      didJsonSource = url?.href ?? "";
      return url ? await fetchJson(url.href) : null;
    },
  });
  printAgreement(result);
  const ok = result.intact && result.signatureValid && (offline || result.keyPublished === true);
  if (ok) console.log("OK: the agreement is intact and its signature holds.");
  else
    console.log(
      `FAILED: ${result.problem ?? "the signer's did.json could not be read, so the key is not checked (--offline skips it)."}`,
    );
  process.exit(ok ? 0 : 1);
}

try {
  const text = readFileSync(file, "utf8");
  const agreement = agreementFileOf(text);
  if (agreement !== null) await verifyAgreement(agreement);
  const input = JSON.parse(text) as unknown;
  const result = await checkCv(input, {
    async resolveDid(did, snapshot) {
      if (snapshot) {
        keySources.set(did, "the bundle's did.json snapshot");
        return snapshot;
      }
      const url = didDocumentUrl(did);
      const fetched = url ? await fetchJson(url.href) : null;
      keySources.set(did, fetched ? `${url?.href}` : "nowhere (not reachable): proofs cannot hold");
      return fetched as never;
    },
    async loadStatusList(url) {
      const list = await fetchJson(url);
      if (!list) unreachableStatus = true;
      return list;
    },
  });
  print(result);
  const ok = result.allAuthentic && result.credentials.every((c) => c.revoked !== true);
  console.log(ok ? "OK: every proof holds." : "FAILED: see above.");
  process.exit(ok ? 0 : 1);
} catch (error) {
  const message =
    error instanceof CvFormatError ||
    error instanceof AgreementFormatError ||
    error instanceof SyntaxError
      ? error.message
      : String((error as Error)?.message ?? error);
  console.error(`FAILED: ${message}`);
  process.exit(1);
}
