import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { slugify } from "~/features/artists/slug";
import { spawnServer } from "../support/spawn-server";
import { expect, test } from "./support/fixtures";

/**
 * The signed CV as a venue meets it: downloaded from a demo artist's profile (whose verified
 * sessions the worker signed at start) and checked on /verify, the tampered copy without
 * JavaScript at all.
 */
const ARTIST = slugify("Maya Lindqvist");
const dir = mkdtempSync(path.join(tmpdir(), "gl-cv-e2e-"));
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a CV downloaded from a profile checks out on /verify; a changed copy does not", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The worker signs the demo history right after the server starts.
  await expect
    .poll(
      async () => {
        await page.goto(`/artist/${ARTIST}`);
        return page.getByRole("link", { name: "Download CV (JSON)" }).count();
      },
      { timeout: 60_000 },
    )
    .toBe(1);
  const section = page.getByRole("region", { name: "Verified CV" });
  await expect(section.getByRole("img", { name: /QR code leading to/ })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    section.getByRole("link", { name: "Download CV (JSON)" }).click(),
  ]);
  const file = path.join(dir, "cv.json");
  await download.saveAs(file);
  const cv = JSON.parse(readFileSync(file, "utf8")) as {
    verifiableCredential: { name: string }[];
  };
  expect(cv.verifiableCredential.length).toBeGreaterThan(0);

  await section.getByRole("link", { name: "Check it here" }).click();
  await expect(page.getByRole("heading", { name: "Check a performance CV" })).toBeVisible();
  await page.getByLabel(/CV file/).setInputFiles(file);
  await page.getByRole("button", { name: "Check CV" }).click();
  await expect(page.getByRole("heading", { name: "Every signature holds" })).toBeVisible();
  await expect(page.getByText("Authentic", { exact: true })).toHaveCount(
    cv.verifiableCredential.length,
  );
  await expect(page.getByText("Not revoked", { exact: true }).first()).toBeVisible();

  // One character changed in the first credential's name, checked with JavaScript off.
  const first = cv.verifiableCredential[0]?.name ?? "";
  const changed = readFileSync(file, "utf8").replace(
    JSON.stringify(first),
    JSON.stringify(`${first.slice(0, -1)}${first.endsWith("x") ? "y" : "x"}`),
  );
  const tamperedFile = path.join(dir, "tampered.json");
  writeFileSync(tamperedFile, changed);
  const noJs = await browser.newContext({ javaScriptEnabled: false });
  const plain = await noJs.newPage();
  await plain.goto("/verify");
  await plain.getByLabel(/CV file/).setInputFiles(tamperedFile);
  await plain.getByRole("button", { name: "Check CV" }).click();
  await expect(
    plain.getByRole("heading", { name: /This CV has been changed or was not signed/ }),
  ).toBeVisible();
  await expect(plain.getByText("Not authentic", { exact: true })).toHaveCount(1);
  await noJs.close();
});

test("a hostile CV (a ring of 20,000 blank nodes) is refused in words, the server answering /healthz throughout", async ({
  page,
  request,
}) => {
  const ring = {
    "@context": ["https://www.w3.org/ns/credentials/v2"],
    type: ["VerifiableCredential"],
    credentialSubject: {
      knows: Array.from({ length: 20_000 }, (_, i) => ({
        id: `_:blank-node-${i}`,
        next: { id: `_:blank-node-${(i + 1) % 20_000}` },
      })),
    },
  };
  const file = path.join(dir, "ring.json");
  writeFileSync(file, JSON.stringify(ring));
  let uploading = true;
  let slowest = 0;
  const probe = (async () => {
    while (uploading) {
      const started = Date.now();
      expect((await request.get("/healthz")).status()).toBe(200);
      slowest = Math.max(slowest, Date.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  await page.goto("/verify");
  await page.getByLabel(/CV file/).setInputFiles(file);
  await page.getByRole("button", { name: "Check CV" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "far larger or deeper" })).toBeVisible({
    timeout: 20_000,
  });
  uploading = false;
  await probe;
  // Checked in the main thread, this CV once held the server for 50 s (decision 037). In a worker
  // it takes one core; on CI's two, shared with the other test and its browser, /healthz has
  // taken just over 1 s to answer, so the bound is 5 s: far under a held main thread.
  expect(slowest).toBeLessThan(5_000);
});

test("the offline bundle holds the issuer's did.json", async ({ request }) => {
  const res = await request.get(`/artist/${ARTIST}/cv-bundle.json`);
  expect(res.headers()["content-disposition"]).toContain("attachment");
  const bundle = (await res.json()) as { didDocuments: { id: string }[] };
  const did = await (await request.get("/.well-known/did.json")).json();
  expect(bundle.didDocuments).toEqual([did]);
});

test("refuses to start publicly without CREDENTIAL_SIGNING_KEY, naming it", async () => {
  const server = await spawnServer({
    DATA_DIR: dir,
    APP_URL: "https://gigledger.example",
    BETTER_AUTH_SECRET: "e2e-secret-".padEnd(40, "k"),
    SMTP_URL: "smtp://127.0.0.1:2525",
  });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain("CREDENTIAL_SIGNING_KEY: required when APP_URL");
});
