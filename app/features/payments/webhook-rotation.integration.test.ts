import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "~/lib/clock.server";
import type { PaymentsConfig } from "~/lib/env.server";
import { queryRows } from "~db/client";
import { createTestDatabase } from "../../../tests/support/test-database";
import { receiveRazorpayWebhook } from "./payment-events.server";
import { signRazorpayWebhook } from "./webhook-signature";

// A webhook secret rotated (docs/decisions/055): while the previous secret is configured, events
// Razorpay still signs with it are taken; once it is removed, the same replay is refused and
// nothing is stored.

let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.dispose();
});

const config = (previous: string | undefined): { payments: PaymentsConfig } => ({
  payments: {
    mode: "razorpay",
    apiBase: "http://127.0.0.1:9",
    keyId: "rzp_test_x",
    keySecret: "key-secret",
    webhookSecret: "new-secret",
    previousWebhookSecret: previous,
  },
});

async function deliver(previous: string | undefined, eventId: string, secret: string) {
  const body = Buffer.from(
    JSON.stringify({ entity: "event", event: "payment.captured", payload: {}, created_at: 1 }),
  );
  return receiveRazorpayWebhook(
    database.db,
    config(previous),
    systemClock,
    body,
    new Headers({
      "x-razorpay-event-id": eventId,
      "x-razorpay-signature": signRazorpayWebhook(body, secret),
    }),
  );
}

async function stored(eventId: string) {
  const [row] = await queryRows<{ n: number }>(
    database.db,
    sql`SELECT count(*)::int AS n FROM provider_events WHERE event_id = ${eventId}`,
  );
  return row?.n;
}

describe("a rotated webhook secret", () => {
  it("takes events signed with the new secret, and with the old one while it is configured", async () => {
    expect((await deliver("old-secret", "evt_rot_new", "new-secret")).status).toBe(200);
    expect((await deliver("old-secret", "evt_rot_old", "old-secret")).status).toBe(200);
    expect(await stored("evt_rot_new")).toBe(1);
    expect(await stored("evt_rot_old")).toBe(1);
  });

  it("refuses a replay signed with the old secret once the rotation is over, storing nothing", async () => {
    expect((await deliver(undefined, "evt_rot_late", "old-secret")).status).toBe(400);
    expect(await stored("evt_rot_late")).toBe(0);
  });

  it("stores a duplicate delivery once", async () => {
    expect((await deliver(undefined, "evt_rot_dup", "new-secret")).status).toBe(200);
    expect((await deliver(undefined, "evt_rot_dup", "new-secret")).status).toBe(200);
    expect(await stored("evt_rot_dup")).toBe(1);
  });
});
