import { randomInt } from "node:crypto";
import { type Browser, test as base, expect, type Page } from "@playwright/test";
import type { SpawnedServer } from "../../support/spawn-server";

/**
 * Each test browses from its own client address (the server runs with TRUST_PROXY=true in the
 * end-to-end suite), so per-IP rate limits see separate visitors, as they would in real life.
 * The addresses come from the documentation range 198.51.100.0/24: only a header, no traffic.
 */
export const test = base.extend({
  context: async ({ context }, use) => {
    await context.setExtraHTTPHeaders({
      "X-Forwarded-For": `198.51.100.${randomInt(1, 255)}, 203.0.113.${randomInt(1, 255)}`,
    });
    await use(context);
  },
});
export { expect };

let counter = 0;
export function uniqueEmail(prefix = "user") {
  counter++;
  return `${prefix}.${Date.now().toString(36)}${counter}${randomInt(1000, 9999)}@example.com`.toLowerCase();
}

export type TestAccount = { firstName: string; lastName: string; email: string; password: string };

export function newAccount(overrides: Partial<TestAccount> = {}): TestAccount {
  return {
    firstName: "Asha",
    lastName: "Rao",
    email: uniqueEmail("asha"),
    password: "s3cret-pass",
    ...overrides,
  };
}

/**
 * The mails to `to` whose subject matches, newest first, from the development outbox: each mail's
 * subject and its body's HTML.
 */
export async function outboxMails(
  page: Page,
  to: string,
  subject: RegExp,
): Promise<{ title: string; body: string }[]> {
  const html = await (await page.request.get(`/dev/outbox?to=${encodeURIComponent(to)}`)).text();
  return [
    ...html.matchAll(/<article aria-label="Mail to ([^"]+?): ([^"]+)"[^>]*>([\s\S]*?)<\/article>/g),
  ].flatMap(([, recipient, title = "", body = ""]) =>
    recipient === to && subject.test(title) ? [{ title, body }] : [],
  );
}

/** The first link of the newest mail to `to` whose subject matches, from the development outbox. */
export async function mailLink(page: Page, to: string, subject: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    for (const { body } of await outboxMails(page, to, subject)) {
      const href = /href="([^"]+)"/.exec(body)?.[1];
      if (href) return href.replaceAll("&amp;", "&");
    }
    await page.waitForTimeout(200);
  }
  throw new Error(`no mail to ${to} matching ${subject}`);
}

/**
 * Sends the sign-up form the page shows, as `account`, and waits for "Check your email". Only for
 * the journeys whose subject is that form (accounts.e2e.ts, and a sign-up on the way to a booking
 * in booking-handoff.e2e.ts): every other test signs its people up with `signUpConfirmed`.
 */
export async function submitSignUpForm(page: Page, account: TestAccount) {
  await page.getByLabel("First Name").fill(account.firstName);
  await page.getByLabel("Last Name").fill(account.lastName);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
}

/**
 * An account waiting for its confirmation mail, without going through the pages: the sign-up
 * form is posted over HTTP with the page's own cookie jar.
 */
export async function postSignUp(page: Page, account: TestAccount = newAccount()) {
  // The server this page talks to (tests may start their own): its origin for the form post.
  const origin = new URL((await page.request.get("/healthz")).url()).origin;
  const res = await page.request.post("/auth", {
    form: {
      intent: "signup",
      firstName: account.firstName,
      lastName: account.lastName,
      email: account.email,
      password: account.password,
    },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(res.status(), "sign-up answered").toBeLessThan(400);
  return account;
}

/**
 * A confirmed, signed-in account without going through the pages: `postSignUp`, then the
 * confirmation link followed over HTTP with the page's own cookie jar, so the browser is signed
 * in when the test first navigates. `accounts.e2e.ts` walks the same journey through the UI.
 */
export async function signUpConfirmed(page: Page, account: TestAccount = newAccount()) {
  await postSignUp(page, account);
  const confirmed = await page.request.get(
    await mailLink(page, account.email, /Confirm your GigLedger account/),
  );
  expect(confirmed.ok(), "confirmation link followed").toBe(true);
  return account;
}

/**
 * A page in a browser context of its own on a server the test started, browsing from client
 * address `ip` (the server trusts X-Forwarded-For): each person in the story is another visitor.
 */
export async function visitorPage(browser: Browser, server: SpawnedServer, ip: string) {
  const context = await browser.newContext({
    baseURL: server.url,
    extraHTTPHeaders: { "X-Forwarded-For": ip },
  });
  return context.newPage();
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

export async function signOut(page: Page) {
  if (!page.url().startsWith("http")) await page.goto("/");
  await page.getByRole("button", { name: /Account menu for/ }).click();
  await page.locator("#user-menu").getByRole("button", { name: "Sign out" }).click();
  await expect(
    page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Sign In" }),
  ).toBeVisible();
}

/**
 * Waits until React owns the page. A page's scripts start after its first paint (decision 024),
 * and until its hydration is committed a click does what it does without JavaScript (a link is
 * followed). A test that means the hydrated page, not the server-drawn one a quick visitor meets
 * first, waits for this. It reads React's root on the document (hydrateRoot marks its container):
 * test-only knowledge of React's internals, checked by `scripts-after-paint.e2e.ts`.
 */
export async function whenHydrated(page: Page) {
  await page.waitForFunction(() => {
    const key = Object.keys(document).find((name) => name.startsWith("__reactContainer$"));
    const root = key
      ? (document as unknown as Record<string, { stateNode?: HydratingRoot }>)[key]?.stateNode
      : undefined;
    return root?.current.memoizedState?.isDehydrated === false;
  });
}

type HydratingRoot = { current: { memoizedState?: { isDehydrated?: boolean } } };
