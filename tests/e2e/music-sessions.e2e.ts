import type { Page } from "@playwright/test";
import sharp from "sharp";
import {
  createArtistProfile,
  localDateTimeInput,
  logSession,
  wavFile,
} from "./support/artist-helpers";
import { expect, newAccount, signIn, signOut, signUpConfirmed, test } from "./support/fixtures";
import { holdScripts } from "./support/hold-scripts";

async function addChips(page: Page, label: string, values: string[]) {
  const input = page.getByRole("textbox", { name: label, exact: true });
  for (const v of values) {
    await input.fill(v);
    await input.press("Enter");
  }
}

async function shareLink(page: Page, title: string, maxUses?: number) {
  await page.goto("/artist-dashboard?tab=sessions");
  await page.getByRole("article", { name: title }).getByRole("link", { name: title }).click();
  await page.getByRole("link", { name: "Share Session" }).click();
  await expect(page.getByText("The link expires in 7 days.", { exact: false })).toBeVisible();
  if (maxUses) await page.getByLabel("Max uses (optional)").fill(String(maxUses));
  await page.getByRole("button", { name: "Generate Link" }).click();
  await expect(page.getByText("Sharing Link Generated")).toBeVisible();
  const url = await page.getByLabel("Sharing link").inputValue();
  expect(url).toMatch(/\/join-session\/[A-Za-z0-9_-]{43}$/);
  return url;
}

test("log, find, add media, share, verify by a peer, join a planned session, refuse a used-up link", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const id = Date.now().toString(36);
  const owner = await signUpConfirmed(page, newAccount({ firstName: "Owner" }));
  await createArtistProfile(page, `Owner Band ${id}`);

  // Empty state, then validation: nothing is saved without type and title.
  await page.goto("/artist-dashboard?tab=sessions");
  await expect(page.getByText("No sessions logged yet")).toBeVisible();
  await page.getByRole("link", { name: "Log Your First Session" }).click();
  await page.getByRole("button", { name: "Create Session" }).click();
  await expect(page.getByText("Session type is required")).toBeVisible();
  await expect(page.getByText("Title is required")).toBeVisible();

  // A past performance with instruments, genres and tags (blank and duplicate chips ignored).
  const past = `Friday Night Set ${id}`;
  await page.getByLabel("Session Type").selectOption("performance");
  await page.getByLabel("Title").fill(past);
  await page.getByLabel("Description").fill("Two sets of standards");
  await page.getByLabel("Venue").fill("Blue Note");
  await page.getByLabel("Location").fill("Chicago IL");
  await page.getByLabel("Date and Time").fill(localDateTimeInput(-26));
  await page.getByLabel("Duration (minutes)").fill("120");
  await addChips(page, "Instruments", ["Guitar", "   ", "guitar", "Vocals", "Keys", "Drums"]);
  await page.getByRole("button", { name: "Remove Drums" }).click();
  await addChips(page, "Genres", ["Jazz", "Funk", "Soul", "Blues"]);
  await addChips(page, "Tags", ["live"]);
  await expect(
    page.getByRole("list", { name: "Instruments added" }).getByRole("listitem"),
  ).toHaveCount(3);
  await page.getByRole("button", { name: "Create Session" }).click();
  await expect(page.getByText("Session Created")).toBeVisible();
  await expect(page.getByText("Your session has been logged successfully.")).toBeVisible();

  // Typed before the page's scripts run (decision 024), the comma-separated box becomes chips,
  // and the box that replaces it keeps the focus.
  const runFormScripts = await holdScripts(page);
  await page.goto("/sessions/new", { waitUntil: "domcontentloaded" });
  await page.getByRole("textbox", { name: "Genres", exact: true }).fill("Bossa Nova, Samba");
  await runFormScripts();
  await expect(page.getByRole("list", { name: "Genres added" }).getByRole("listitem")).toHaveText([
    /Bossa Nova/,
    /Samba/,
  ]);
  await expect(page.getByRole("textbox", { name: "Genres", exact: true })).toBeFocused();
  await page.goto("/artist-dashboard?tab=sessions");

  const card = page.getByRole("article", { name: past });
  await expect(card).toBeVisible();
  await expect(card.getByRole("list", { name: "Instruments" })).toHaveText(
    /Guitar\s*Vocals\s*\+1 more/,
  );
  await expect(card.getByRole("list", { name: "Genres" })).toHaveText(
    /Jazz\s*Funk\s*Soul\s*\+1 more/,
  );

  // Search over title, description and venue, and the type filter. What was typed before the
  // page's scripts ran (decision 024) is kept and searched for.
  const runDashboardScripts = await holdScripts(page);
  await page.reload({ waitUntil: "domcontentloaded" });
  await page.getByPlaceholder("Search sessions...").fill("blue note");
  await runDashboardScripts();
  await expect(page).toHaveURL(/sq=blue/);
  await expect(card).toBeVisible();
  // On the public profile the section's code comes when it is used: typing on in the box that
  // had the focus before the scripts ran is that use.
  const runProfileScripts = await holdScripts(page);
  await page.goto(`/artist/owner-band-${id}`, { waitUntil: "domcontentloaded" });
  await page.getByPlaceholder("Search sessions...").fill("blue not");
  await runProfileScripts();
  await page.getByPlaceholder("Search sessions...").press("e");
  await expect(page).toHaveURL(/sq=blue(\+|%20)note/);
  await expect(page.getByRole("article", { name: past })).toBeVisible();
  await page.goto("/artist-dashboard?tab=sessions");
  await page.getByPlaceholder("Search sessions...").fill("standards");
  await expect(page).toHaveURL(/sq=standards/);
  await expect(card).toBeVisible();
  await page.getByPlaceholder("Search sessions...").fill("no such thing");
  await expect(page.getByText("No sessions match your search")).toBeVisible();
  await page.getByPlaceholder("Search sessions...").fill("");
  await page.getByLabel("Session type").selectOption("jam");
  await expect(page.getByText("No sessions match your search")).toBeVisible();
  await page.getByLabel("Session type").selectOption("performance");
  await expect(card).toBeVisible();

  // Media: a photo and an audio file, shown in the Media tab.
  await card.getByRole("link", { name: past }).click();
  await expect(page.getByRole("heading", { name: past, level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "Media" }).click();
  const png = await sharp({
    create: { width: 800, height: 600, channels: 3, background: "#3366cc" },
  })
    .png()
    .toBuffer();
  await page
    .getByLabel("Photo, audio or video")
    .setInputFiles({ name: "stage.png", mimeType: "image/png", buffer: png });
  await page.getByLabel("Description (optional)").fill("On stage");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("Media Uploaded", { exact: true })).toBeVisible();
  await expect(page.getByRole("img", { name: "On stage" })).toBeVisible();
  await page
    .getByLabel("Photo, audio or video")
    .setInputFiles({ name: "take1.wav", mimeType: "audio/wav", buffer: wavFile() });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.locator("audio")).toHaveCount(1);
  await expect(page.getByText("take1.wav", { exact: true })).toBeVisible();
  // A file that is not media is refused with a clear message, whatever its name.
  await page.getByLabel("Photo, audio or video").setInputFiles({
    name: "fake.png",
    mimeType: "image/png",
    buffer: Buffer.from("<html>not an image</html>"),
  });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("Upload Failed")).toBeVisible();
  await expect(
    page
      .getByRole("alert")
      .getByText(/This file type is not supported/)
      .first(),
  ).toBeVisible();
  await expect(page.getByRole("list", { name: "Media" }).getByRole("listitem")).toHaveCount(2);

  const pastLink = await shareLink(page, past);
  const future = `Planned Jam ${id}`;
  await logSession(page, { type: "jam", title: future, venue: "Loft", hoursFromNow: 72 });
  const futureLink = await shareLink(page, future, 1);
  await signOut(page);

  // Signed out: the link asks to sign in and comes back.
  await page.goto(pastLink);
  await expect(page.getByRole("heading", { name: "Sign In Required" })).toBeVisible();
  await page.goto("/join-session/unknownToken123");
  await expect(page.getByRole("heading", { name: "Invalid Link" })).toBeVisible();
  await page.goto("/join-session");
  await expect(page.getByRole("heading", { name: "No Token Provided" })).toBeVisible();

  // A second artist: a profile is needed first.
  await signUpConfirmed(page, newAccount({ firstName: "Peer" }));
  await page.goto(pastLink);
  await expect(page.getByRole("heading", { name: "Artist Profile Required" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Set Up Profile" })).toBeVisible();
  await createArtistProfile(page, `Peer Player ${id}`);

  await page.goto(pastLink);
  await expect(page.getByRole("heading", { name: "Verify Session" })).toBeVisible();
  await page.getByLabel(/^100/).check();
  await page.getByLabel("Notes (optional)").fill("I played keys that night");
  await page.getByRole("button", { name: "Submit Verification" }).click();
  await expect(page).toHaveURL(/\/artist-dashboard/);
  await expect(page.getByText("Verification Submitted!")).toBeVisible();
  await page.goto(pastLink);
  await expect(page.getByRole("heading", { name: "Already Verified" })).toBeVisible();

  await page.goto(futureLink);
  await expect(page.getByRole("heading", { name: "Join Session" })).toBeVisible();
  await page.getByRole("button", { name: "Join as Collaborator" }).click();
  await expect(page.getByText("Success!")).toBeVisible();
  await expect(
    page.getByText("You've successfully joined the session as a collaborator."),
  ).toBeVisible();
  await page.goto("/artist-dashboard?tab=sessions");
  const joined = page.getByRole("article", { name: future });
  await expect(joined.getByText("Listed as collaborator")).toBeVisible();
  // The link allowed one use: it is used up now.
  await page.goto(futureLink);
  await expect(page.getByRole("heading", { name: "Invalid Link" })).toBeVisible();
  await expect(page.getByText(/maximum number of times/)).toBeVisible();
  await signOut(page);

  // The owner sees the peer's verification, the verifier and the collaborator. One voice, from
  // an account minutes old, lifts nothing (decision 046): the session stays Self-logged.
  await signIn(page, owner.email, owner.password);
  await expect(page.getByRole("button", { name: /Account menu for Owner/ })).toBeVisible();
  await page.goto("/artist-dashboard?tab=sessions");
  const verifiedCard = page.getByRole("article", { name: past });
  await expect(verifiedCard.getByText("Self-logged")).toBeVisible();
  await expect(verifiedCard.getByRole("img", { name: "Verified" })).toHaveCount(0);
  await verifiedCard.getByRole("link", { name: past }).click();
  await page.getByRole("link", { name: "Verification" }).click();
  await expect(page.getByText("Not verified yet", { exact: true })).toBeVisible();
  await expect(page.getByText("Trust score 100")).toBeVisible();
  await expect(page.getByText("100%")).toBeVisible();
  await page.getByRole("link", { name: "Collaborators" }).click();
  await expect(page.getByText(`Peer Player ${id}`).first()).toBeVisible();

  // Delete with confirmation.
  await page.getByRole("link", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Delete Session" }).click();
  await expect(page.getByText("Session Deleted")).toBeVisible();
  await expect(page.getByRole("article", { name: past })).toHaveCount(0);
});
