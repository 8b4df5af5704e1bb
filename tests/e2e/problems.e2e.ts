import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { addDays, todayIn } from "~/lib/dates";
import { formatPaise } from "~/lib/money-text";
import { type SpawnedServer, spawnServer, waitUntilReady } from "../support/spawn-server";
import { expect, newAccount, signUpConfirmed, test } from "./support/fixtures";
import { lookAt, lookAtWidths } from "./support/look-at";
import {
  accept,
  artistOf,
  badge,
  clientOf,
  figure,
  payAtCheckout,
  payments,
  personContext,
  post,
  reloadUntil,
  requestBooking,
  runJobs,
  setUpPayouts,
  totalPaiseOn,
  ZONE,
} from "./support/money";

/**
 * When something goes wrong (docs/product.md, "Problems" and "Operators"; issue 42) in Chromium on
 * the production build, on a server of this file's own: its first operator is made the documented
 * way (`npm run operator -- add <email>` while the app is stopped). A client pays a deposit, then
 * reports that the artist did not show up, with a photo; the client is offered who is free that
 * day; the artist answers; the operator refunds in full at the desk; the payout never releases;
 * the client requests a substitute, whose form carries the same terms. Once with JavaScript and
 * once without.
 */
test.describe.configure({ mode: "default", timeout: 300_000 });

const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);

let dataDir: string;
let server: SpawnedServer | undefined;
let operatorState: string;

async function start() {
  server = await spawnServer({ DATA_DIR: dataDir, SEED_DEMO_DATA: "false", TRUST_PROXY: "true" });
  await waitUntilReady(server);
  return server.url;
}

async function stop() {
  if (!server) return;
  server.process.kill("SIGTERM");
  await server.exited;
  server = undefined;
}

/** `npm run operator -- add <email>` on the stopped app's data directory. */
async function addOperatorByCommand(email: string) {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/operator.ts", "add", email], {
    env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d) => {
    out += d;
  });
  child.stderr?.on("data", (d) => {
    out += d;
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  expect(code, out).toBe(0);
  expect(out).toContain(`${email} is an operator`);
}

test.beforeAll(async ({ browser }) => {
  dataDir = mkdtempSync(path.join(tmpdir(), "gigledger-e2e-problems-"));
  const url = await start();
  const context = await browser.newContext({ baseURL: url });
  const page = await context.newPage();
  const account = await signUpConfirmed(
    page,
    newAccount({ firstName: "Desk", lastName: "Operator" }),
  );
  operatorState = JSON.stringify(await context.storageState());
  await context.close();
  await stop();
  await addOperatorByCommand(account.email);
  await start();
});

test.afterAll(async () => {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const problemPage = (page: Page, bookingId: string) => page.goto(`/bookings/${bookingId}/problem`);

async function story(
  browser: Browser,
  js: boolean,
  look: (page: Page, name: string) => Promise<void>,
) {
  const baseURL = server?.url ?? "";
  const eventDate = addDays(todayIn(ZONE), js ? 20 : 21);
  const artist = await artistOf(browser, baseURL, js);
  await setUpPayouts(artist.page, "Kavya Iyer");
  // Another artist, free that day, for the client's substitute.
  const other = await artistOf(browser, baseURL, true);
  const client = await clientOf(browser, baseURL, js);
  const bookingId = await requestBooking(client.page, artist.name, eventDate, "Lotus Hall");
  const totalPaise = await totalPaiseOn(client.page);
  await accept(artist.page, bookingId);
  await client.page.goto(`/bookings/${bookingId}`);
  const deposit = payments(client.page).getByRole("button", { name: /^Pay deposit / });
  const depositPaise = Math.round(
    Number(((await deposit.textContent()) ?? "").replace(/[^\d.]/g, "")) * 100,
  );
  await payAtCheckout(
    client.page,
    bookingId,
    `Pay deposit ${formatPaise(depositPaise)}`,
    depositPaise,
  );
  await reloadUntil(client.page, bookingId, (p) => badge(p).filter({ hasText: /^Confirmed$/ }));

  // ── The client reports a no-show, with a photo ─────────────────────────────────────────────
  await client.page.getByRole("link", { name: "Report a problem" }).click();
  await expect(
    client.page.getByRole("heading", { name: "Problems with this booking" }),
  ).toBeVisible();
  await client.page
    .getByLabel("What went wrong?")
    .selectOption({ label: "The artist did not show up" });
  await client.page
    .getByLabel("What happened")
    .fill("We waited at Lotus Hall from 7 to 9; nobody came and the phone was off.");
  await client.page
    .getByLabel("Files (optional)")
    .setInputFiles({ name: "empty-stage.png", mimeType: "image/png", buffer: PNG });
  await client.page.getByRole("button", { name: "Report the problem" }).click();
  const hold = client.page.getByText(
    /^On hold: a problem was reported on .+; a decision is due by .+\.$/,
  );
  await expect(hold).toBeVisible();
  await expect(client.page.getByRole("link", { name: "empty-stage.png" })).toBeVisible();
  await look(client.page, `problem-client-${js ? "js" : "nojs"}`);
  // On the booking page: the hold, and who is free that day.
  await client.page.goto(`/bookings/${bookingId}`);
  await expect(client.page.getByRole("region", { name: "Problems" })).toContainText("On hold:");
  const substitutes = client.page.getByRole("region", { name: /^Artists free on / });
  await expect(substitutes.getByRole("link", { name: `Request ${other.name}` })).toBeVisible();

  // ── The artist answers once ────────────────────────────────────────────────────────────────
  await problemPage(artist.page, bookingId);
  await expect(artist.page.getByText(/^On hold: a problem was reported on/)).toBeVisible();
  await artist.page
    .getByLabel("Your answer (once)")
    .fill("My car broke down on the way; I called the venue at 6.");
  await artist.page.getByRole("button", { name: "Send answer" }).click();
  await expect(
    artist.page.getByText("My car broke down on the way; I called the venue at 6."),
  ).toBeVisible();
  await expect(artist.page.getByLabel("Your answer (once)")).toHaveCount(0);

  // ── The operator decides: a full refund ─────────────────────────────────────────────────────
  const desk = await personContext(browser, baseURL, js, operatorState);
  const op = await desk.newPage();
  await op.goto("/admin");
  await expect(op.getByRole("heading", { name: "Operator's desk" })).toBeVisible();
  await look(op, `admin-${js ? "js" : "nojs"}`);
  await op.getByRole("link", { name: "The artist did not show up" }).first().click();
  await expect(op.getByText("We waited at Lotus Hall from 7 to 9")).toBeVisible();
  await expect(op.getByText("My car broke down on the way")).toBeVisible();
  await op.getByRole("radio", { name: "Full refund to the client" }).check();
  await op
    .getByLabel("The reason both parties will read")
    .fill("The artist confirms they did not reach the venue.");
  await op.getByRole("button", { name: "Decide" }).click();
  await expect(op.getByRole("region", { name: "Decision" })).toContainText(
    "Full refund to the client",
  );
  await look(op, `admin-problem-${js ? "js" : "nojs"}`);
  await runJobs(op, "payments.commands", "dev-psp-webhook", "payments.events");

  // Both see the decision; the client the refund; the booking is the artist's cancellation.
  await problemPage(client.page, bookingId);
  await expect(client.page.getByText(/^Decided on .+: Full refund to the client/)).toBeVisible();
  await expect(
    client.page.getByText("The artist confirms they did not reach the venue."),
  ).toBeVisible();
  await reloadUntil(client.page, bookingId, (p) => payments(p).getByText("Refund sent"));
  await expect(badge(client.page)).toHaveText("Cancelled");

  // ── The payout never releases, however late it gets ───────────────────────────────────────
  try {
    await post(op, "/dev/clock", { advance: `P${js ? 25 : 26}D` });
    await runJobs(op, "payments.release", "payments.commands");
    await artist.page.goto(`/bookings/${bookingId}`);
    await expect(figure(artist.page, "Released to you")).toHaveCount(0);
  } finally {
    await post(op, "/dev/clock", { reset: true }).catch(() => {});
  }

  // ── The substitute, on the same terms ───────────────────────────────────────────────────────
  await client.page.goto(`/bookings/${bookingId}`);
  await client.page.getByRole("link", { name: `Request ${other.name}` }).click();
  const details = client.page.getByLabel("Additional Details (optional)");
  await expect(details).toHaveValue(
    new RegExp(
      `on the same terms: ${formatPaise(totalPaise).replace(/[.]/g, "\\.")} for 3 hours \\(Wedding\\)`,
    ),
  );
  await expect(client.page.getByLabel("Event Date")).toHaveValue(eventDate);
  await expect(client.page.getByLabel("Venue")).toHaveValue("Lotus Hall");
  await client.page.getByRole("button", { name: "Send Booking Request" }).click();
  await client.page.waitForURL(/\/bookings\/[0-9a-f-]{36}$/);
  await expect(client.page.getByText(other.name).first()).toBeVisible();

  for (const party of [artist, other, client]) await party.context.close();
  await desk.close();
}

test("a reported no-show, answered, refunded in full by an operator; a substitute on the same terms (JavaScript)", async ({
  browser,
}, info) => {
  await story(browser, true, (page, name) => lookAt(page, name, info));
});

test("the same without JavaScript", async ({ browser }) => {
  // Without scripts, the widths only: the screenshots and axe are the JavaScript test's.
  await story(browser, false, lookAtWidths);
});
