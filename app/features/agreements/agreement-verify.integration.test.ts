import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { getRequestListener } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { didOf } from "~/features/credentials/did";
import { canonicalJson } from "~/lib/canonical-json";
import { generateSecretKeyMultibase, publicKeyOfSecretKey } from "~/lib/ed25519-key.server";
import { agreements, bookings, offers } from "~db/schema";
import { createArtist, createUser } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { freePort } from "../../../tests/support/free-port";
import { createTestDatabase } from "../../../tests/support/test-database";
import { BAD_SIGNATURE, CHANGED, KEY_NOT_PUBLISHED } from "./agreement-check";
import type { SignedAgreement } from "./agreement-document";
import { agreementFixture, offerFixture } from "./agreement-fixture.test-support";
import { offerHashOf, sealAgreement } from "./agreement-seal.server";

// /verify and `npm run verify-cv` with an agreement.json: what they say of the file, and what the
// site says of its hash (in force, superseded, cancelled) only when the file holds up.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let server: Server;
let appUrl: string;
const files = mkdtempSync(path.join(tmpdir(), "gl-agreement-"));

beforeAll(async () => {
  database = await createTestDatabase();
  // A real port on loopback, so `verify-cv` can read did.json over HTTP.
  const port = await freePort();
  appUrl = `http://127.0.0.1:${port}`;
  app = await startTestApp(database, { APP_URL: appUrl });
  server = createServer(
    getRequestListener((request) => {
      const url = new URL(request.url);
      return app.request(`${url.pathname}${url.search}`, { headers: request.headers });
    }),
  );
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await app?.close();
  await database?.dispose();
  rmSync(files, { recursive: true, force: true });
}, 60_000);

/** An agreement sealed with the app's key and stored with `status`, as a booking's would be. */
async function storedAgreement(status: "in_force" | "superseded" | "cancelled") {
  const artist = await createArtist({ db: database.db });
  const client = await createUser(database.db);
  const [booking] = await database.db
    .insert(bookings)
    .values({
      artistProfileId: artist.artistId,
      clientUserId: client.id,
      eventDate: "2027-02-14",
      startTime: "19:30",
      durationHours: 2.5,
      venue: "Bandra West, Mumbai",
      eventType: "Private Event",
      status: "confirmed",
      totalAmount: 125000,
    })
    .returning({ id: bookings.id });
  const bookingId = booking?.id ?? "";
  const offer = offerFixture({ bookingId });
  const { canonical, sha256: offerSha256 } = offerHashOf(offer);
  await database.db.insert(offers).values({
    id: offer.versionId,
    bookingId,
    version: offer.version,
    kind: "quote",
    status: "accepted",
    totalPaise: offer.price.totalPaise,
    canonical,
    sha256: offerSha256,
  });
  const sealed = sealAgreement(agreementFixture({ offer }), app.env);
  await database.db.insert(agreements).values({
    bookingId,
    offerId: offer.versionId,
    status,
    json: sealed.json,
    sha256: sealed.sha256,
    frozenAt: new Date(sealed.signed.agreement.frozenAt),
  });
  return sealed;
}

const upload = (content: string, name = "agreement.json") => {
  const form = new FormData();
  form.set("file", new File([content], name, { type: "application/json" }));
  return app.request("/verify", { method: "POST", body: form, headers: { Origin: appUrl } });
};
/** The page's text without markup, so words split by elements still read as one sentence. */
const pageText = async (res: Response) =>
  (await res.text())
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");
const changedTotal = (signed: SignedAgreement) => {
  const copy = JSON.parse(canonicalJson(signed)) as SignedAgreement;
  copy.agreement.offer.price.totalPaise += 1;
  return canonicalJson(copy);
};

describe("/verify with an agreement", () => {
  it("says an agreement in force is intact and signed by GigLedger, with the file's summary", async () => {
    const { json, sha256 } = await storedAgreement("in_force");
    const res = await upload(json);
    expect(res.status).toBe(200);
    const text = await pageText(res);
    expect(text).toContain("Intact and signed by GigLedger");
    expect(text).toContain(sha256);
    expect(text).toContain(didOf(app.env.appUrl));
    expect(text).toContain(publicKeyOfSecretKey(app.env.credentialSigningKey));
    expect(text).toContain("Yes, in GigLedger's did.json.");
    expect(text).toContain("In force");
    for (const said of ["Asha Rao", "विक्रम शर्मा", "February 14, 2027", "₹1,25,000.00", "Moderate"])
      expect(text).toContain(said);
    expect(text).toContain("2026-11-21 09:15 UTC");
    // The CV's result is not shown.
    expect(text).not.toContain("Every signature holds");
  });

  it("says a superseded or cancelled agreement is so, and an unknown hash is unknown", async () => {
    const superseded = await storedAgreement("superseded");
    expect(await pageText(await upload(superseded.json))).toContain(
      "a later agreement replaces this one",
    );
    const cancelled = await storedAgreement("cancelled");
    expect(await pageText(await upload(cancelled.json))).toContain(
      "The booking was cancelled after this agreement was made.",
    );
    const never = sealAgreement(agreementFixture(), app.env);
    const text = await pageText(await upload(never.json));
    expect(text).toContain("Intact and signed by GigLedger");
    expect(text).toContain("GigLedger holds no agreement with this hash.");
  });

  it("finds a changed total, and then says nothing of the stored agreement", async () => {
    const { signed } = await storedAgreement("in_force");
    const res = await upload(changedTotal(signed));
    expect(res.status).toBe(200);
    const text = await pageText(res);
    expect(text).toContain(CHANGED);
    expect(text).toContain("Not looked up");
    expect(text).not.toContain("In force");
    expect(text).toContain("₹1,25,000.01");
    expect(text).toContain("do not rely on it");
  });

  it("refuses another key, a signature over another hash, and another signer's DID", async () => {
    const strangerKey = generateSecretKeyMultibase();
    const stranger = sealAgreement(agreementFixture(), {
      appUrl: app.env.appUrl,
      credentialSigningKey: strangerKey,
    });
    const foreign = await pageText(await upload(stranger.json));
    expect(foreign).toContain(KEY_NOT_PUBLISHED);
    expect(foreign).toContain("No: GigLedger's did.json does not list this key.");
    expect(foreign).toContain("Not known");

    const { signed } = await storedAgreement("in_force");
    const swapped = JSON.parse(canonicalJson(signed)) as SignedAgreement;
    swapped.signature.value = stranger.signed.signature.value;
    const badSignature = await pageText(await upload(canonicalJson(swapped)));
    expect(badSignature).toContain(BAD_SIGNATURE);
    expect(badSignature).not.toContain("In force");

    const elsewhere = sealAgreement(agreementFixture(), {
      appUrl: new URL("https://elsewhere.example"),
      credentialSigningKey: app.env.credentialSigningKey,
    });
    const other = await pageText(await upload(elsewhere.json));
    expect(other).toContain("names another signer, whose keys this site does not check");
    expect(other).not.toContain("Intact and signed by GigLedger");
  });

  it("answers hostile agreement files with 4xx and a plain message, never 5xx", async () => {
    const bare = await upload(JSON.stringify(agreementFixture()));
    expect(bare.status).toBe(400);
    expect(await bare.text()).toContain("This agreement has no signature");
    const notOurs = await upload(
      JSON.stringify({ agreement: { type: "GigLedgerAgreement" }, signature: {} }),
    );
    expect(notOurs.status).toBe(400);
    expect(await notOurs.text()).toContain("This file is not a GigLedger agreement.");
    const { signed } = await storedAgreement("in_force");
    const fraction = canonicalJson(signed).replace(/"totalPaise":(\d+)/, '"totalPaise":$1.5');
    expect((await upload(fraction)).status).toBe(400);
    const deep = `{"agreement":{"type":"GigLedgerAgreement","x":${"[".repeat(100_000)}${"]".repeat(100_000)}}}`;
    expect((await upload(deep)).status).toBe(400);
    const badUtf8 = new Uint8Array([
      ...Buffer.from('{"agreement":{"type":"GigLedgerAgreement"'),
      0xff,
    ]);
    const form = new FormData();
    form.set("file", new File([badUtf8], "agreement.json", { type: "application/json" }));
    const binary = await app.request("/verify", {
      method: "POST",
      body: form,
      headers: { Origin: appUrl },
    });
    expect(binary.status).toBe(400);
    const huge = JSON.stringify({
      agreement: { type: "GigLedgerAgreement", note: "x".repeat(3 * 1024 * 1024) },
    });
    expect((await upload(huge)).status).toBe(400);
  });
});

function runVerifyCv(...args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.resolve("node_modules/.bin/tsx"), ["scripts/verify-cv.ts", ...args], {
      env: { ...process.env, NODE_OPTIONS: "" },
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ code: code ?? -1, output }));
  });
}

describe("npm run verify-cv with an agreement", () => {
  it("passes a sealed agreement offline and online, and fails a changed one", async () => {
    const { json, sha256 } = await storedAgreement("in_force");
    const good = path.join(files, "agreement.json");
    writeFileSync(good, json);
    const offline = await runVerifyCv(good, "--offline");
    expect(offline.output).toContain(`Agreement ${sha256}: intact, signed by`);
    expect(offline.output).toContain("key published: not checked (offline)");
    expect(offline.output).toContain("Total: ₹1,25,000.00");
    expect(offline.code).toBe(0);

    // Online it reads the app's did.json at the signer's did:web address (asked here first, so
    // Vite has compiled its route before the script's five seconds run).
    expect((await app.request("/.well-known/did.json")).status).toBe(200);
    const online = await runVerifyCv(good);
    expect(online.output).toContain("key published: yes");
    expect(online.code).toBe(0);

    const tampered = path.join(files, "tampered.json");
    writeFileSync(tampered, changedTotal(JSON.parse(json) as SignedAgreement));
    const bad = await runVerifyCv(tampered, "--offline");
    expect(bad.output).toContain(`FAILED: ${CHANGED}`);
    expect(bad.code).toBe(1);
  }, 60_000);

  it("fails online when the key is not in did.json, and a file that is no agreement", async () => {
    const stranger = sealAgreement(agreementFixture(), {
      appUrl: app.env.appUrl,
      credentialSigningKey: generateSecretKeyMultibase(),
    });
    expect((await app.request("/.well-known/did.json")).status).toBe(200);
    const file = path.join(files, "stranger.json");
    writeFileSync(file, stranger.json);
    const online = await runVerifyCv(file);
    expect(online.output).toContain("key published: NO");
    expect(online.code).toBe(1);
    const bare = path.join(files, "bare.json");
    writeFileSync(
      bare,
      JSON.stringify({ agreement: { type: "GigLedgerAgreement" }, signature: {} }),
    );
    const refused = await runVerifyCv(bare, "--offline");
    expect(refused.output).toContain("FAILED: This file is not a GigLedger agreement.");
    expect(refused.code).toBe(1);
  }, 60_000);
});
