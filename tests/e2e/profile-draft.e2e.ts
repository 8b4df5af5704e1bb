import {
  expect,
  mailLink,
  newAccount,
  postSignUp,
  signUpConfirmed,
  test,
  whenHydrated,
} from "./support/fixtures";

/**
 * What a newcomer types into profile set-up is still there when the confirmation mail's link
 * opens in a new tab (decision 040): kept in this browser as it is typed, drawn by the server.
 */
test("profile set-up typed before signing up is there in the confirmation's new tab", async ({
  page,
  context,
}) => {
  await page.goto("/profile-setup");
  await whenHydrated(page);
  const kept = page.waitForResponse(
    (r) =>
      r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/profile-setup"),
  );
  await page.getByLabel("Artist Name").fill("Draft Keeper Quartet");
  await page.getByLabel("Genre").fill("Gypsy jazz");
  await page.getByLabel("Bio").fill("Four strings and a double bass, every Friday.");
  await kept;

  // Not submitted: the person signs up instead, in this browser (over HTTP here: the sign-up form
  // itself is accounts.e2e.ts's subject, and the draft's cookies are only sent to /profile-setup).
  const account = await postSignUp(page, newAccount({ firstName: "Drafty" }));
  const link = await mailLink(page, account.email, /Confirm your GigLedger account/);

  // The mail's link opens a new tab of the same browser.
  const tab = await context.newPage();
  await tab.goto(link);
  await tab.goto("/profile-setup");
  await expect(tab.getByLabel("Artist Name")).toHaveValue("Draft Keeper Quartet");
  await expect(tab.getByLabel("Genre")).toHaveValue("Gypsy jazz");
  await expect(tab.getByLabel("Bio")).toHaveValue("Four strings and a double bass, every Friday.");
  // Signed in there: creating the profile now works, and the draft is gone afterwards.
  await tab.getByLabel("Location").fill("Lyon");
  await tab.getByLabel("Experience").fill("8 years");
  await tab.getByLabel("Instruments").fill("Guitar, Double bass");
  await tab.getByRole("button", { name: "Create Profile" }).click();
  // A write, a redirect and the dashboard's code: on a busy machine more than expect's 5 s.
  await expect(tab.getByText("Profile Created!")).toBeVisible({ timeout: 15_000 });
  const cookies = await context.cookies();
  expect(cookies.filter((c) => c.name.startsWith("gl_profile_draft."))).toEqual([]);
});

/**
 * A draft kept just as the person sends the form must not cost them the confirmation: the draft's
 * answer once made the page load its header data again, and that load took the one-time
 * 'Profile Created!' message meant for the dashboard.
 */
test("a draft kept as the form is sent leaves 'Profile Created!' for the dashboard", async ({
  page,
}) => {
  await signUpConfirmed(page, newAccount({ firstName: "Quick" }));
  const isDraft = (url: string) => new URL(url).pathname === "/profile-setup/draft";
  let releaseDraft = () => {};
  const draftReleased = new Promise<void>((release) => {
    releaseDraft = release;
  });
  // Each draft the page sent, answered or called off. Typing slowed by a busy machine sends
  // several, each calling off the one before.
  const draftsDone: Promise<unknown>[] = [];
  let draftStarted = () => {};
  const draftHeld = new Promise<void>((started) => {
    draftStarted = started;
  });
  await page.route(
    (url) => url.pathname.startsWith("/profile-setup"),
    async (route) => {
      const request = route.request();
      if (request.method() !== "POST") return route.continue();
      if (isDraft(request.url())) {
        draftsDone.push(
          Promise.race([
            page.waitForResponse((r) => r.request() === request),
            page.waitForEvent("requestfailed", (r) => r === request),
            // Called off before this handler listened: its event has gone by.
            new Promise((gone) => setTimeout(gone, 2_000)),
          ]),
        );
        draftStarted();
        await draftReleased;
        // A draft the page called off meanwhile is no longer there to send.
        return route.continue().catch(() => {});
      }
      // The profile is made and the browser holds the message's cookie; only then the draft's
      // answer comes, and whatever it sets off runs, before the form's answer reaches the page.
      const made = await route.fetch();
      releaseDraft();
      await Promise.all(draftsDone);
      await page
        .waitForRequest((r) => r.method() === "GET" && r.url().includes(".data"), { timeout: 1000 })
        .then((r) => r.response())
        .catch(() => null);
      await route.fulfill({ response: made });
    },
  );
  await page.goto("/profile-setup");
  await whenHydrated(page);
  await page.getByLabel("Artist Name").fill("Hasty Trio");
  await page.getByLabel("Genre").fill("Jazz");
  await page.getByLabel("Location").fill("Chicago IL");
  await page.getByLabel("Bio").fill("Plays late sets.");
  await page.getByLabel("Experience").fill("4 years");
  await page.getByLabel("Instruments").fill("Guitar");
  await draftHeld;
  await page.getByRole("button", { name: "Create Profile" }).click();
  // A write, the draft, up to a second held above, a redirect and the dashboard's code: on a busy
  // machine more than expect's 5 s (CI once saw the page still on the form at 5 s).
  await expect(page).toHaveURL(/\/artist-dashboard\//, { timeout: 15_000 });
  await expect(page.getByText("Profile Created!")).toBeVisible();
});
