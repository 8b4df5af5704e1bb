import { randomInt } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import sharp from "sharp";
import { expect, signUpConfirmed } from "./fixtures";

type ProfileFields = Partial<
  Record<
    "Genre" | "Location" | "Bio" | "Experience" | "Instruments" | "Hourly Rate (₹)" | "Instagram",
    string
  >
>;

/** Creates the signed-in user's artist profile through the setup form; lands on the dashboard. */
export async function createArtistProfile(
  page: Page,
  name: string,
  fields: ProfileFields = {},
  { occasions = [] }: { occasions?: string[] } = {},
) {
  const values: ProfileFields = {
    Genre: "Jazz",
    Location: "Chicago IL",
    Bio: "Plays late sets.",
    Experience: "4 years",
    Instruments: "Guitar",
    ...fields,
  };
  await page.goto("/profile-setup");
  await expect(page.getByRole("heading", { name: "Create Your Artist Profile" })).toBeVisible();
  await page.getByLabel("Artist Name").fill(name);
  for (const [label, value] of Object.entries(values)) await page.getByLabel(label).fill(value);
  for (const occasion of occasions)
    await page
      .getByRole("group", { name: "Occasions you play" })
      .getByLabel(occasion, { exact: true })
      .check();
  await page.getByRole("button", { name: "Create Profile" }).click();
  // A write, a redirect and the dashboard's code: on a busy machine more than expect's 5 s.
  await expect(page.getByText("Profile Created!")).toBeVisible({ timeout: 15_000 });
}

/**
 * An artist with a profile, made over HTTP from a browser context of its own (its own visitor
 * address, for the per-address sign-up limit): for tests that need many artists and are not about
 * the setup form, which `createArtistProfile` walks.
 */
export async function postArtistProfile(
  browser: Browser,
  name: string,
  fields: { genre: string; location: string; bio: string; instruments: string },
) {
  const context = await browser.newContext({
    extraHTTPHeaders: { "X-Forwarded-For": `198.51.100.${randomInt(1, 255)}` },
  });
  try {
    const page = await context.newPage();
    await signUpConfirmed(page);
    const origin = new URL((await page.request.get("/healthz")).url()).origin;
    const res = await page.request.post("/profile-setup", {
      form: { artistName: name, experience: "5 years", hourlyRate: "1500", ...fields },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(res.status(), `profile of ${name} created`).toBe(302);
  } finally {
    await context.close();
  }
}

/** Logs a session of the signed-in artist through the dashboard's 'Log Session' form. */
export async function logSession(
  page: Page,
  s: { type: string; title: string; venue: string; hoursFromNow: number },
) {
  await page.goto("/artist-dashboard?tab=sessions");
  await page
    .getByRole("link", { name: /Log (Your First )?Session/ })
    .first()
    .click();
  await expect(page.getByRole("heading", { name: "Log New Session" })).toBeVisible();
  await page.getByLabel("Session Type").selectOption(s.type);
  await page.getByLabel("Title").fill(s.title);
  await page.getByLabel("Venue").fill(s.venue);
  await page.getByLabel("Date and Time").fill(localDateTimeInput(s.hoursFromNow));
  await page.getByRole("button", { name: "Create Session" }).click();
  await expect(page.getByText("Session Created")).toBeVisible();
}

/** A `datetime-local` value `hours` from now, in the browser's (and this process's) zone. */
export function localDateTimeInput(hours: number) {
  const at = new Date(Date.now() + hours * 3_600_000);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A valid, silent 8-bit mono WAV file of `seconds` seconds. */
export function wavFile(seconds = 1) {
  const rate = 8000;
  const data = Buffer.alloc(rate * seconds, 128);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/**
 * A session with one photo and one audio file, through the real screens; both in the portfolio
 * unless `toPortfolio` is false.
 */
export async function sessionWithMedia(
  page: Page,
  title: string,
  { toPortfolio = true }: { toPortfolio?: boolean } = {},
) {
  await logSession(page, { type: "performance", title, venue: "Blue Note", hoursFromNow: -5 });
  await page.getByRole("article", { name: title }).getByRole("link", { name: title }).click();
  await page.getByRole("link", { name: "Media" }).click();
  const png = await sharp({
    create: { width: 800, height: 600, channels: 3, background: "#cc6633" },
  })
    .png()
    .toBuffer();
  const picker = page.getByLabel("Photo, audio or video");
  // New media is offered to the portfolio; the box stays as set between uploads.
  await page.getByLabel("Add to my portfolio").setChecked(toPortfolio);
  await picker.setInputFiles({ name: "stage.png", mimeType: "image/png", buffer: png });
  await page.getByLabel("Description (optional)").fill("On stage");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("img", { name: "On stage" })).toBeVisible();
  await picker.setInputFiles({ name: "take1.wav", mimeType: "audio/wav", buffer: wavFile() });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("take1.wav", { exact: true })).toBeVisible();
}
