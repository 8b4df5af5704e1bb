import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~db/client";
import { addArtistProfile } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { postForm, signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";
import { addOperator, removeOperator } from "./operators.server";

// The operator's desk over HTTP (issue 42): every /admin address is a 404 for anyone but an
// operator (anonymous, an artist, a client, an operator whose role was taken away), for reading
// and for posting, and a refused post changes nothing. A booking's problem page is its parties'.

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
type Person = Awaited<ReturnType<typeof signedInUser>>;
let operator: Person;
let former: Person;
let artist: Person;
let client: Person;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  operator = await signedInUser(app, database.db, "Operator");
  former = await signedInUser(app, database.db, "Former");
  artist = await signedInUser(app, database.db, "Artist");
  client = await signedInUser(app, database.db, "Client");
  await addArtistProfile({ db: database.db }, artist.id);
  await addOperator(database.db, "cli", operator.email, new Date());
  await addOperator(database.db, "cli", former.email, new Date());
  await removeOperator(database.db, "cli", former.email, new Date());
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

async function operatorCount() {
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`SELECT count(*)::int AS n FROM user_roles WHERE role = 'operator'`,
  );
  return row?.n ?? -1;
}

const ADDRESSES = [
  "/admin",
  `/admin/problems/${randomUUID()}`,
  "/admin/problems/not-a-uuid",
  "/admin/reconciliation/2026-11-27",
  "/admin/accounting.csv?month=2026-11",
];

describe("the operator's desk", () => {
  it("opens for an operator", async () => {
    const res = await app.request("/admin", { headers: { Cookie: operator.cookie } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Operator&#x27;s desk");
  });

  for (const [who, cookie] of [
    ["anonymous", () => undefined],
    ["an artist", () => artist.cookie],
    ["a client", () => client.cookie],
    ["a removed operator", () => former.cookie],
  ] as const)
    it(`is not found for ${who}, reading or posting, and nothing changes`, async () => {
      const before = await operatorCount();
      for (const address of ADDRESSES) {
        const c = cookie();
        const read = await app.request(address, { headers: c ? { Cookie: c } : {} });
        expect(read.status, address).toBe(404);
        const posted = await postForm(
          app,
          address,
          { intent: "addOperator", email: client.email, decision: "refund_full", reason: "x" },
          c,
        );
        expect(posted.status, address).toBe(404);
      }
      expect(await operatorCount()).toBe(before);
    });

  it("refuses hostile bodies from an operator with words and changes nothing", async () => {
    const before = await operatorCount();
    for (const fields of [
      { intent: "addOperator", email: "" },
      { intent: "addOperator", email: "x".repeat(400) },
      { intent: "addOperator", email: "nobody@example.test" },
      { intent: "removeOperator", email: operator.email },
      { intent: "other", email: client.email },
    ]) {
      const res = await postForm(app, "/admin", fields, operator.cookie);
      expect([400, 404, 409], JSON.stringify(fields)).toContain(res.status);
    }
    const decided = await postForm(
      app,
      `/admin/problems/${randomUUID()}`,
      { decision: "refund_full", reason: "x" },
      operator.cookie,
    );
    expect(decided.status).toBe(404);
    const bad = await postForm(
      app,
      `/admin/problems/${randomUUID()}`,
      { decision: "refund_partial", refundRupees: "lots", reason: "" },
      operator.cookie,
    );
    expect(bad.status).toBe(400);
    expect(await operatorCount()).toBe(before);
  });

  it("gives an operator the accountant's CSV, and refuses a bad month with words", async () => {
    const csv = await app.request("/admin/accounting.csv?month=2026-11", {
      headers: { Cookie: operator.cookie },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect((await csv.text()).split("\n")[0]).toBe(
      "invoice,date,booking,artist,commission_inr,gst_inr,tds_inr",
    );
    const bad = await app.request("/admin/accounting.csv?month=2026-13", {
      headers: { Cookie: operator.cookie },
    });
    expect(bad.status).toBe(400);
    const retried = await postForm(
      app,
      "/admin",
      { intent: "retryCall", id: randomUUID() },
      operator.cookie,
    );
    expect(retried.status).toBe(404);
  });

  it("keeps the client rating page to the booking's artist", async () => {
    const res = await app.request(`/bookings/${randomUUID()}/rate-client`, {
      headers: { Cookie: artist.cookie },
    });
    expect(res.status).toBe(404);
    const posted = await postForm(
      app,
      `/bookings/${randomUUID()}/rate-client`,
      { stars: "5" },
      artist.cookie,
    );
    expect(posted.status).toBe(404);
    const hostile = await postForm(
      app,
      `/bookings/${randomUUID()}/rate-client`,
      { stars: "9", comment: "x".repeat(600) },
      artist.cookie,
    );
    expect(hostile.status).toBe(400);
  });

  it("keeps a booking's problem page to its parties", async () => {
    const res = await app.request(`/bookings/${randomUUID()}/problem`, {
      headers: { Cookie: client.cookie },
    });
    expect(res.status).toBe(404);
    const posted = await postForm(
      app,
      `/bookings/${randomUUID()}/problem`,
      { intent: "report", category: "other", statement: "x" },
      client.cookie,
    );
    expect(posted.status).toBe(404);
  });
});
