import type { Page } from "@playwright/test";
import sharp from "sharp";
import { createArtistProfile } from "./support/artist-helpers";
import {
  expect,
  newAccount,
  signOut,
  signUpConfirmed,
  test,
  whenHydrated,
} from "./support/fixtures";

async function createProfile(page: Page, name: string) {
  await createArtistProfile(page, name, {
    Genre: "Jazz Fusion",
    Bio: "Fusion trio for clubs and weddings.",
    Experience: "6 years",
    "Hourly Rate (₹)": "2500",
    Instruments: "Theremin, Keytar",
    Instagram: "https://instagram.com/example",
  });
}

test("create a profile, find it in discovery, open it by id and by slug, see it on the dashboard", async ({
  page,
}) => {
  await signUpConfirmed(page);
  const name = `Zyx Quartet ${Date.now().toString(36)}`;
  const slug = name.toLowerCase().replaceAll(" ", "-");

  // Validation first: nothing is saved without the required fields.
  await page.goto("/profile-setup");
  await page.getByRole("button", { name: "Create Profile" }).click();
  await expect(page.getByText("Artist name is required")).toBeVisible();
  await expect(page.getByText("Instruments is required")).toBeVisible();

  await createProfile(page, name);
  await expect(page.getByText("Profile Created!")).toBeVisible();
  await expect(page).toHaveURL(/\/artist-dashboard\/[0-9a-f-]{36}$/);
  const dashboardUrl = page.url();
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  // A brand-new profile is a first visit.
  await expect(page.getByText(`Welcome, ${name}!`)).toBeVisible();
  await expect(page.getByLabel("Your profile link")).toHaveValue(new RegExp(`/artist/${slug}$`));
  // The setup page now leads to the dashboard.
  await page.goto("/profile-setup");
  await expect(page).toHaveURL(dashboardUrl);

  // Discovery by name, genre and instrument, and by filters.
  for (const q of [name.slice(0, 8), "fusion", "KEYTAR"]) {
    await page.goto(`/artist-discovery?q=${encodeURIComponent(q)}`);
    await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();
  }
  await page.goto("/artist-discovery");
  await page.getByLabel("Search artists").fill("theremin");
  await page.getByText("Filters").click();
  await page.getByLabel("Genre").selectOption("Jazz");
  await page.getByLabel("Location").selectOption("Chicago IL");
  await expect(page).toHaveURL(/genre=Jazz/);
  await expect(page).toHaveURL(/location=Chicago\+IL/);
  await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();
  await page.getByLabel("Location").selectOption("New Delhi");
  await expect(page.getByText("No artists found")).toBeVisible();
  await expect(
    page.getByText("Try adjusting your search or filters to discover more talent."),
  ).toBeVisible();
  await page.goBack();
  await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();

  const card = page.getByRole("article", { name });
  await card.getByRole("link", { name: "View Profile & Book" }).click();
  await expect(page).toHaveURL(/\/artist\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page.getByText("Theremin, Keytar")).toBeVisible();
  // The owner sees the dashboard, not the booking button; no public portfolio yet.
  await expect(page.getByRole("link", { name: "Book Performance" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "View Portfolio" })).toHaveCount(0);
  await expect(page.getByText("New", { exact: true })).toBeVisible();
  await expect(page.getByText("No performances recorded yet")).toBeVisible();

  await page.goto(`/artist/${slug}`);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(name));

  // A second user cannot open the first user's dashboard.
  await signOut(page);
  await signUpConfirmed(page, newAccount({ firstName: "Other" }));
  const res = await page.goto(dashboardUrl);
  expect(res?.status()).toBe(404);
  await page.goto(`/artist/${slug}`);
  await expect(page.getByRole("link", { name: "Book Performance" })).toBeVisible();
  await page.goto("/artist-dashboard");
  await expect(
    page.getByText(
      "No artist profile found. Please complete your profile setup to access the dashboard.",
    ),
  ).toBeVisible();
});

test("edit the profile and upload a profile picture", async ({ page }) => {
  await signUpConfirmed(page);
  const name = `Edit Me ${Date.now().toString(36)}`;
  await createProfile(page, name);
  await expect(page.getByText("Profile Created!")).toBeVisible();
  await page.getByRole("link", { name: "Edit Profile" }).click();
  await page.getByLabel("Bio").fill("Now also playing brunch sets.");
  await page.getByLabel("Available for bookings").uncheck();
  await page.getByRole("button", { name: "Save Profile" }).click();
  await expect(page.getByText("Profile Updated")).toBeVisible();

  await page.goto("/artist-profile/edit");
  await page.getByLabel(/Choose an image/).setInputFiles({
    name: "notes.txt",
    mimeType: "image/png",
    buffer: Buffer.from("not an image"),
  });
  await page.getByRole("button", { name: "Upload picture" }).click();
  await expect(
    page.getByRole("main").getByText("Please choose a JPG, PNG or WebP image."),
  ).toBeVisible();

  const png = await sharp({
    create: { width: 800, height: 600, channels: 3, background: "#5b3fd1" },
  })
    .png()
    .toBuffer();
  await page
    .getByLabel(/Choose an image/)
    .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Upload picture" }).click();
  await expect(page.getByText("Profile picture updated")).toBeVisible();
  const slug = name.toLowerCase().replaceAll(" ", "-");
  await page.goto(`/artist/${slug}`);
  await expect(page.getByText("Now also playing brunch sets.")).toBeVisible();
  const img = page.locator('main img[src^="/files/avatars/"]').first();
  await expect(img).toBeVisible();
  expect(await img.evaluate((el: HTMLImageElement) => [el.naturalWidth, el.naturalHeight])).toEqual(
    [256, 256],
  );
  const file = await page.request.get((await img.getAttribute("src")) as string);
  expect(file.headers()["content-type"]).toBe("image/webp");
  expect(file.headers()["x-content-type-options"]).toBe("nosniff");
});

test("unknown artist addresses show 'Artist profile not found.'", async ({ page }) => {
  for (const path of [
    "/artist/no-such-artist",
    "/artist/00000000-0000-4000-8000-000000000000",
    "/profile/not-a-uuid",
  ]) {
    const res = await page.goto(path);
    expect(res?.status()).toBe(404);
  }
  await page.goto("/artist/no-such-artist");
  await expect(page.getByRole("heading", { name: "Artist Not Found" })).toBeVisible();
  await expect(page.getByText("Artist profile not found.")).toBeVisible();
});

test("the landing page's featured artists open their profiles, and /profile/{id} redirects to the slug", async ({
  page,
}) => {
  await page.goto("/");
  const first = page
    .getByRole("region", { name: "Featured Artists" })
    .locator('a[href^="/artist/"]')
    .first();
  const href = (await first.getAttribute("href")) as string;
  await first.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Recent Performances" })).toBeVisible();
  await page.getByRole("link", { name: "View Profile & Book" }).count();
});

test("profile tabs work with the keyboard and the mouse", async ({ page }) => {
  await page.goto("/artist/maya-lindqvist");
  // The arrow keys are the hydrated page's (its scripts start after the first paint, decision
  // 024); before that the tabs are links, which no-javascript.e2e.ts covers. The network going
  // quiet did not mean hydrated on a busy machine (one run in three pressed too early).
  await whenHydrated(page);
  const calendarTab = page.getByRole("tab", { name: "Calendar View" });
  await expect(calendarTab).toHaveAttribute("aria-selected", "true");
  await calendarTab.focus();
  await page.keyboard.press("ArrowRight");
  const upcomingTab = page.getByRole("tab", { name: "Upcoming Events" });
  await expect(upcomingTab).toHaveAttribute("aria-selected", "true");
  await expect(upcomingTab).toBeFocused();
  await expect(page.getByRole("tabpanel", { name: "Upcoming Events" })).toBeVisible();
  await page.keyboard.press("Home");
  await expect(calendarTab).toHaveAttribute("aria-selected", "true");

  await page.getByRole("tab", { name: "Portfolio" }).click();
  await expect(
    page.getByText("Portfolio management is only available to the artist"),
  ).toBeVisible();
  await expect(page.getByRole("tabpanel", { name: "Sessions" })).toBeHidden();
});

/** The profile calendar's code (its section and its grid) arrives 700 ms late from now on. */
async function delayCalendarCode(page: Page) {
  await page.route(/availability-(section|calendar)/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 700));
    await route.continue();
  });
}

/** The addresses of the scripts the page asks for from now on, as they are asked for. */
function scriptsAskedFor(page: Page): string[] {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  return scripts;
}

test("the profile's calendar fetches its code only when used, and the first click still counts", async ({
  page,
}) => {
  const scripts = scriptsAskedFor(page);
  await page.goto("/artist/maya-lindqvist");
  await whenHydrated(page);
  await page.waitForLoadState("networkidle");
  // Shown from the server's markup; its code not fetched by merely opening the page.
  const calendar = page.locator("#book");
  await expect(calendar.getByText("Select a day to see its status.")).toBeVisible();
  expect(scripts.filter((url) => url.includes("availability-calendar"))).toEqual([]);

  // The first click on a day, made before the code has arrived (held back here), selects it.
  await delayCalendarCode(page);
  await calendar.getByRole("grid").getByRole("button").nth(14).click();
  await expect(calendar.getByText("Select a day to see its status.")).toBeHidden();
  expect(scripts.some((url) => url.includes("availability-calendar"))).toBe(true);
});

test("pointing at or focusing a part of the profile fetches its code, before any click", async ({
  page,
}) => {
  const scripts = scriptsAskedFor(page);
  const fetched = (name: string) => scripts.some((url) => url.includes(name));
  await page.goto("/artist/maya-lindqvist");
  await whenHydrated(page);
  await page.waitForLoadState("networkidle");
  expect(fetched("sessions-section")).toBe(false);
  // React stops every event inside a part not hydrated yet; the part listens before it does.
  await page.getByPlaceholder("Search sessions...").focus();
  await expect.poll(() => fetched("sessions-section"), { timeout: 2000 }).toBe(true);
  expect(fetched("availability-calendar")).toBe(false);
  await page.locator("#book").getByRole("grid").hover();
  await expect.poll(() => fetched("availability-calendar"), { timeout: 2000 }).toBe(true);
});

test("a click on the drawing inside the calendar's 'Next month', before its code arrives, turns the month", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto("/artist/maya-lindqvist");
  await whenHydrated(page);
  await delayCalendarCode(page);
  const calendar = page.locator("#book");
  const month = calendar.getByRole("grid").getAttribute("aria-labelledby");
  const title = calendar.locator(`[id="${await month}"]`);
  const before = await title.textContent();
  // The chevron icon (an <svg>) inside the link is what a thumb usually lands on.
  await calendar.getByRole("link", { name: "Next month" }).locator("svg").click();
  await expect(title).not.toHaveText(before ?? "");
  await expect(page.getByRole("heading", { name: "Something went wrong" })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test("a key pressed on the profile's calendar before its code arrives still counts", async ({
  page,
}) => {
  await page.goto("/artist/maya-lindqvist");
  await whenHydrated(page);
  await page.waitForLoadState("networkidle");
  await delayCalendarCode(page);
  // Focus starts the fetch; the arrow key comes long before the code and is held, then replayed.
  await page.getByRole("tab", { name: "Calendar View" }).focus();
  await page.keyboard.press("ArrowRight");
  const upcomingTab = page.getByRole("tab", { name: "Upcoming Events" });
  await expect(upcomingTab).toHaveAttribute("aria-selected", "true");
  await expect(upcomingTab).toBeFocused();
});

test("a profile reached on the client appears with its calendar, never 'Loading calendar...'", async ({
  page,
}) => {
  await page.goto("/artist-discovery");
  await page.waitForLoadState("networkidle");
  // The calendar's code is slow to come; the page waits for it beside its data.
  await delayCalendarCode(page);
  await page.evaluate(() => {
    const seen = { loading: false };
    Object.assign(window, { seen });
    new MutationObserver(() => {
      if (document.body.textContent?.includes("Loading calendar...")) seen.loading = true;
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const documents: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents.push(request.url());
  });
  await page
    .getByRole("article", { name: "Maya Lindqvist" })
    .getByRole("link", { name: /View Profile/ })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Maya Lindqvist" })).toBeVisible();
  await expect(page.locator("#book").getByRole("grid")).toBeVisible();
  expect(documents, "reached on the client, without a new document").toEqual([]);
  expect(
    await page.evaluate(() => (window as unknown as { seen: { loading: boolean } }).seen.loading),
  ).toBe(false);
});
