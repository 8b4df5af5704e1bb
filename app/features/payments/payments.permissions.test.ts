import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "~/lib/dates";
import { queryRows } from "~db/client";
import { bookings, payoutAccounts } from "~db/schema";
import { addArtistProfile } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";

// Who may pay, set up payouts and act on an overdue balance (docs/product.md, "Payments"), over
// HTTP as a browser posts: outsiders meet "not found", hostile bodies a 400 with words, and none
// of them changes a row or reaches the provider.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
type Person = Awaited<ReturnType<typeof signedInUser>>;
let artist: Person;
let client: Person;
let otherClient: Person;
let artistId: string;
let awaitingId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database, {}, { listen: true });
  artist = await signedInUser(app, database.db, "Artist");
  client = await signedInUser(app, database.db, "Client");
  otherClient = await signedInUser(app, database.db, "Other");
  artistId = await addArtistProfile({ db: database.db }, artist.id);
  const setUp = await postForm(
    app,
    "/settings/payouts",
    { legalName: "Asha Rao", pan: "abcde1234f", method: "upi", upi: "asha@okhdfcbank" },
    artist.cookie,
  );
  expect(setUp.status).toBe(303);
  const requested = await postForm(
    app,
    "/bookings",
    {
      artistId,
      eventDate: addDays(todayIn(app.env.timeZone), 20),
      durationHours: "2",
      venue: "Paid Hall",
      eventType: "Wedding",
      message: "Hi",
    },
    client.cookie,
  );
  expect(requested.status).toBe(302);
  const [booking] = await database.db
    .select({ id: bookings.id })
    .from(bookings)
    .where(eq(bookings.clientUserId, client.id));
  awaitingId = booking?.id ?? "";
  expect(
    (await postForm(app, `/bookings/${awaitingId}`, { intent: "accept" }, artist.cookie)).status,
  ).toBe(302);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

async function intentCount() {
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`SELECT count(*)::int AS n FROM payment_intents`,
  );
  return row?.n ?? -1;
}

describe("payouts set-up", () => {
  it("keeps only masked details of what the artist gave", async () => {
    const [account] = await database.db
      .select()
      .from(payoutAccounts)
      .where(eq(payoutAccounts.artistProfileId, artistId));
    expect(account).toMatchObject({ panMasked: "AB••••••4F", destination: "UPI asha@okhdfcbank" });
    expect(JSON.stringify(account)).not.toContain("ABCDE1234F");
  });

  it("answers hostile bodies with 400 and words, and stores nothing", async () => {
    const cases: Record<string, string>[] = [
      {},
      { legalName: "A", pan: "ABCDE1234F", method: "upi", upi: "x@y" },
      { legalName: "Asha", pan: "1234", method: "upi", upi: "asha@okhdfcbank" },
      { legalName: "Asha", pan: "ABCDE1234F", method: "upi", upi: "not an address" },
      { legalName: "Asha", pan: "ABCDE1234F", method: "bank", accountNumber: "12", ifsc: "HDFC" },
      { legalName: "Asha", pan: "ABCDE1234F", method: "cash" },
      { legalName: "x".repeat(10_000), pan: "ABCDE1234F", method: "upi", upi: "a@okaxis" },
      { legalName: "Asha\u0000", pan: "ABCDE1234F", method: "upi", upi: "a@okaxis" },
    ];
    for (const body of cases) {
      const res = await postForm(app, "/settings/payouts", body, artist.cookie);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    const [account] = await database.db
      .select({ destination: payoutAccounts.destination })
      .from(payoutAccounts)
      .where(eq(payoutAccounts.artistProfileId, artistId));
    expect(account?.destination).toBe("UPI asha@okhdfcbank");
  });

  it("is refused to a client and asks an anonymous visitor to sign in", async () => {
    const body = { legalName: "Client", pan: "ABCDE1234F", method: "upi", upi: "c@okaxis" };
    expect((await postForm(app, "/settings/payouts", body, client.cookie)).status).toBe(403);
    const anonymous = await postForm(app, "/settings/payouts", body);
    expect([302, 303]).toContain(anonymous.status);
    expect(anonymous.headers.get("location")).toContain("/auth");
    const page = await app.request("/settings/payouts", { headers: { Cookie: client.cookie } });
    expect(await page.text()).toContain("Payouts are for artists");
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`SELECT count(*)::int AS n FROM payout_accounts`,
    );
    expect(row?.n).toBe(1);
  });
});

describe("paying", () => {
  it("shows the client 'Awaiting deposit' and the deposit to pay", async () => {
    const page = await app.request(`/bookings/${awaitingId}`, {
      headers: { Cookie: client.cookie },
    });
    const html = (await page.text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Awaiting deposit");
    expect(html).toContain("Pay deposit ₹");
  });

  it("is the booking's client's alone: anyone else meets 404, an anonymous visitor the sign-in", async () => {
    const before = await intentCount();
    expect(
      (await postForm(app, `/bookings/${awaitingId}/pay`, {}, otherClient.cookie)).status,
    ).toBe(404);
    expect((await postForm(app, `/bookings/${awaitingId}/pay`, {}, artist.cookie)).status).toBe(
      404,
    );
    expect(
      (await postForm(app, "/bookings/00000000-0000-0000-0000-000000000000/pay", {}, client.cookie))
        .status,
    ).toBe(404);
    expect((await postForm(app, "/bookings/not-a-uuid/pay", {}, client.cookie)).status).toBe(404);
    const anonymous = await postForm(app, `/bookings/${awaitingId}/pay`, {});
    expect(anonymous.headers.get("location") ?? "").toContain("/auth");
    expect(await intentCount()).toBe(before);
  });

  it("sends the client to the provider's page, the same link on a second click", async () => {
    const first = await postForm(app, `/bookings/${awaitingId}/pay`, {}, client.cookie);
    expect(first.status).toBe(303);
    const link = first.headers.get("location") ?? "";
    expect(link).toMatch(/\/dev\/psp\/pay\/plink_/);
    const second = await postForm(app, `/bookings/${awaitingId}/pay`, {}, client.cookie);
    expect(second.headers.get("location")).toBe(link);
    expect(await intentCount()).toBe(1);
  });

  it("ignores a forged return from the provider", async () => {
    const res = await app.request(
      "/payments/return?razorpay_payment_id=pay_X&razorpay_payment_link_id=plink_X&razorpay_payment_link_reference_id=x&razorpay_payment_link_status=paid&razorpay_signature=00",
      { headers: { Cookie: client.cookie }, redirect: "manual" },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/bookings");
    const [row] = await database.db
      .select({ status: bookings.status })
      .from(bookings)
      .where(eq(bookings.id, awaitingId));
    expect(row?.status).toBe("awaiting_deposit");
  });
});

describe("an overdue balance", () => {
  it("refuses 'Cancel for non-payment' and 'Give more time' to the client and before the balance is overdue", async () => {
    for (const [who, cookie] of [
      ["client", client.cookie],
      ["artist", artist.cookie],
    ] as const) {
      const cancel = await postForm(
        app,
        `/bookings/${awaitingId}`,
        { intent: "cancelNonPayment" },
        cookie,
      );
      expect(cancel.status, who).toBe(409);
      const more = await postForm(
        app,
        `/bookings/${awaitingId}`,
        { intent: "moreTime", dueDate: addDays(todayIn(app.env.timeZone), 3) },
        cookie,
      );
      expect(more.status, who).toBe(409);
    }
    const bad = await postForm(
      app,
      `/bookings/${awaitingId}`,
      { intent: "moreTime", dueDate: "next week" },
      artist.cookie,
    );
    expect(bad.status).toBe(400);
    const [row] = await database.db
      .select({ status: bookings.status })
      .from(bookings)
      .where(eq(bookings.id, awaitingId));
    expect(row?.status).toBe("awaiting_deposit");
  });
});
