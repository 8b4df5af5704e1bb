import { randomInt } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { addDays, monthOf, todayIn } from "~/lib/dates";
import { createArtistProfile, localDateTimeInput } from "./support/artist-helpers";
import { expect, newAccount, signUpConfirmed, test } from "./support/fixtures";

/**
 * Every page at 375 px, signed out, as an artist and as a client, with long names in the data:
 * none may scroll sideways, and axe may find no critical or serious violation on any of them.
 */
const PHONE = { width: 375, height: 812 };
const LONG = "Extraordinarily Long-Named Lakeside Wedding Orchestra of Greater Bengaluru";

async function phoneContext(browser: Browser) {
  return browser.newContext({
    viewport: PHONE,
    extraHTTPHeaders: { "X-Forwarded-For": `198.51.100.${randomInt(1, 255)}` },
  });
}

type Problem = { page: string; what: string };

async function check(page: Page, label: string, problems: Problem[]) {
  await page.waitForLoadState("networkidle");
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  if (scrollWidth > clientWidth)
    problems.push({ page: label, what: `scrolls sideways by ${scrollWidth - clientWidth} px` });
  const { violations } = await new AxeBuilder({ page }).analyze();
  for (const v of violations) {
    if (v.impact === "critical" || v.impact === "serious")
      problems.push({
        page: label,
        what: `axe ${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
      });
  }
}

async function visit(page: Page, path: string, problems: Problem[], label = path) {
  const res = await page.goto(path);
  expect(res?.status(), `${path} answers`).toBeLessThan(500);
  await check(page, label, problems);
}

/** The first matching link's address (a short wait: the page is already loaded). */
async function hrefOf(page: Page, selector: string) {
  const link = page.locator(selector).first();
  await expect(link, `a link ${selector} on ${page.url()}`).toBeAttached();
  return (await link.getAttribute("href")) as string;
}

async function post(context: BrowserContext, path: string, form: Record<string, string>) {
  const origin = `http://127.0.0.1:${process.env.E2E_PORT}`;
  return context.request.post(path, { form, headers: { Origin: origin }, maxRedirects: 0 });
}

// Two tests, so the two workers share the pages: signed out, and signed in as an artist and a client.
test("every signed-out page holds at 375 px and passes axe", async ({ browser }) => {
  test.setTimeout(300_000);
  const problems: Problem[] = [];
  const today = todayIn("Asia/Kolkata");

  // The public pages, with the demo data (which has long names too).
  const visitor = await phoneContext(browser);
  const page = await visitor.newPage();
  for (const path of [
    "/",
    "/artist-discovery",
    "/artist-discovery?q=zzzz-nobody",
    `/artist-discovery?date=${addDays(today, 7)}`,
    "/discover",
    "/verification",
    "/privacy-policy",
    "/data-deletion",
    "/verify",
    "/profile-setup",
    "/auth",
    "/auth?tab=signup",
    "/auth?tab=forgot",
    "/no-such-page",
  ])
    await visit(page, path, problems);
  await page.goto("/artist-discovery");
  const profileHref = await hrefOf(page, 'main a[href^="/artist/"]');
  await visit(page, profileHref, problems, "a demo artist profile");
  const portfolioLinks = page.locator('a[href^="/portfolio/"]');
  if ((await portfolioLinks.count()) > 0)
    await visit(page, await hrefOf(page, 'a[href^="/portfolio/"]'), problems, "a demo portfolio");

  expect(problems).toEqual([]);
  await visitor.close();
});

test("every signed-in page holds at 375 px and passes axe", async ({ browser }) => {
  test.setTimeout(300_000);
  const problems: Problem[] = [];
  const today = todayIn("Asia/Kolkata");

  // An artist with a long name, a session with a long title and venue.
  const artistContext = await phoneContext(browser);
  const artist = await artistContext.newPage();
  await signUpConfirmed(artist, newAccount({ firstName: "Phone" }));
  const artistName = `${LONG} ${Date.now().toString(36)}`;
  await createArtistProfile(artist, artistName);
  const created = await post(artistContext, "/sessions/new", {
    intent: "create",
    returnTo: "/artist-dashboard?tab=sessions",
    sessionType: "performance",
    title: "Planned showcase — Lakeside Lawns and Botanical Gardens Pavilion, North Wing Terrace",
    description: "A long evening set.",
    venue: "Lakeside Lawns and Botanical Gardens Pavilion, North Wing Terrace",
    location: "Bengaluru",
    startTime: localDateTimeInput(72),
    durationMinutes: "150",
  });
  expect(created.status(), "session created").toBeLessThan(400);
  await artist.goto("/artist-dashboard?tab=sessions");
  const sessionHref = await hrefOf(artist, 'a[href^="/sessions/"]:not([href^="/sessions/new"])');
  expect(sessionHref).toBeTruthy();
  const slugHref = await hrefOf(artist, 'a[href^="/artist/"]');

  // A client books the artist, with a long venue.
  const clientContext = await phoneContext(browser);
  const client = await clientContext.newPage();
  await signUpConfirmed(client, newAccount({ firstName: "Client" }));
  await client.goto(slugHref);
  const bookHref = await hrefOf(client, 'a[href^="/bookings?artist="]');
  await visit(client, bookHref, problems, "booking request page");
  const artistId = await client.locator('input[name="artistId"]').first().inputValue();
  const booked = await post(clientContext, bookHref, {
    artistId,
    eventDate: addDays(today, 12),
    startTime: "19:00",
    durationHours: "3",
    venue: "The Grand Lakeside Lawns and Botanical Gardens Pavilion, North Wing Terrace",
    eventType: "Wedding",
    message: "We would love a long evening of jazz standards for our wedding reception.",
  });
  expect(booked.status(), "booking requested").toBeLessThan(400);
  await client.goto("/client-bookings");
  const bookingHref = await hrefOf(client, 'a[href^="/bookings/"]');
  expect(bookingHref).toBeTruthy();
  for (const path of ["/client-bookings", bookingHref as string, "/settings"])
    await visit(client, path, problems, `client ${path.replace(/[0-9a-f-]{36}/, ":id")}`);
  // The artist answers, so the request counts and the dashboard lists it in its receipts.
  const answered = await post(artistContext, bookingHref, { intent: "message", message: "Yes!" });
  expect(answered.status(), "request answered").toBeLessThan(400);

  // A collaborator: an artist who only joined the session through its share link.
  const shared = await post(artistContext, sessionHref, { intent: "share", maxUses: "" });
  const token = /\/join-session\/([\w-]+)/.exec(await shared.text())?.[1];
  expect(token, "a share link").toBeTruthy();
  const collaboratorContext = await phoneContext(browser);
  const collaborator = await collaboratorContext.newPage();
  await signUpConfirmed(collaborator, newAccount({ firstName: "Joiner" }));
  await createArtistProfile(collaborator, `${LONG} Joiner ${Date.now().toString(36)}`);
  const joined = await post(collaboratorContext, `/join-session/${token}`, { notes: "" });
  expect(joined.status(), "session joined").toBeLessThan(400);
  for (const path of ["/artist-dashboard", "/artist-dashboard?tab=sessions"])
    await visit(collaborator, path, problems, `collaborator ${path}`);

  // An imported calendar (served here, on loopback) with a busy day: shown on the Schedule tab.
  const busyDay = addDays(today, 5);
  const ics = `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//E2E//EN\r\nBEGIN:VEVENT\r\nUID:busy\r\nDTSTART;VALUE=DATE:${busyDay.replaceAll("-", "")}\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`;
  const calendars = createServer((_req, res) => res.end(ics));
  await new Promise<void>((resolve) => calendars.listen(0, "127.0.0.1", resolve));
  const { port } = calendars.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/busy.ics`;
  await post(artistContext, "/calendars", { intent: "add-calendar", url });
  const schedule = `/artist-dashboard?tab=schedule&month=${monthOf(busyDay)}`;
  await visit(artist, schedule, problems, "artist schedule with an imported busy day");
  await expect(
    artist.getByRole("button", { name: /Unavailable, busy in 127\.0\.0\.1/ }),
  ).toHaveCount(1);
  calendars.close();

  // The artist's pages.
  for (const path of [
    "/artist-dashboard",
    "/artist-dashboard?tab=bookings",
    "/artist-dashboard?tab=sessions",
    "/artist-dashboard?tab=schedule",
    sessionHref as string,
    `${sessionHref}?tab=media`,
    "/sessions/new",
    bookingHref as string,
    "/artist-profile/edit",
    "/settings",
    "/settings/instagram",
    slugHref as string,
  ])
    await visit(artist, path, problems, `artist ${path.replace(/[0-9a-f-]{36}/, ":id")}`);
  await artist.goto("/portfolio-manager");
  for (const tab of ["Overview", "Media", "Settings", "Analytics"]) {
    await artist.getByRole("tab", { name: tab }).click();
    await check(artist, `portfolio manager, ${tab}`, problems);
  }

  // The artist accepts, then cancels: the client's page offers substitutes and a search.
  const accepted = await post(artistContext, bookingHref, { intent: "accept" });
  expect(accepted.status(), "booking accepted").toBeLessThan(400);
  const cancelled = await post(artistContext, bookingHref, {
    intent: "cancel",
    reason: "I'm ill and can't perform that night, with my sincere apologies to the couple.",
  });
  expect(cancelled.status(), "booking cancelled").toBeLessThan(400);
  await visit(client, bookingHref, problems, "client's cancelled booking with substitutes");
  await expect(client.locator("#substitutes-title")).toBeVisible();

  expect(problems).toEqual([]);
  await Promise.all([artistContext.close(), clientContext.close(), collaboratorContext.close()]);
});
