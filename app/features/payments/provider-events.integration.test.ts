import { createHmac, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~db/client";
import { createTestDatabase } from "../../../tests/support/test-database";
import { parseRazorpayEvent, recordProviderEvent } from "./provider-events.server";
import { MAX_WEBHOOK_BYTES, verifyRazorpayWebhook } from "./webhook-signature";

let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.dispose();
});

const receivedAt = new Date("2027-02-16T10:00:00Z");
/** An event id no other test uses: the file's tests share one database and run in a random order. */
const newEventId = () => `evt_${randomUUID().replaceAll("-", "").slice(0, 14)}`;

function capturedBody(paymentId: string, notes: Record<string, string> = {}) {
  return JSON.stringify({
    entity: "event",
    account_id: "acc_BFQ7uQEaa7j2z7",
    event: "payment.captured",
    contains: ["payment"],
    payload: { payment: { entity: { id: paymentId, amount: 150000, currency: "INR", notes } } },
    created_at: 1_787_000_000,
  });
}

const deliver = (eventId: string, rawBody: string) =>
  recordProviderEvent(database.db, {
    provider: "razorpay",
    eventId,
    eventType: "payment.captured",
    rawBody,
    signatureOk: true,
    receivedAt,
  });

async function rowsOf(eventIds: readonly string[]) {
  return queryRows<{
    id: string;
    event_id: string;
    raw_body: string;
    body_bytes: string;
    signature_ok: boolean;
    processed_at: string | null;
    attempts: number;
    last_error: string | null;
  }>(
    database.db,
    sql`SELECT id, event_id, raw_body, encode(convert_to(raw_body, 'UTF8'), 'hex') AS body_bytes,
          signature_ok, processed_at, attempts, last_error
        FROM provider_events
        WHERE provider = 'razorpay' AND event_id IN (${sql.join(
          eventIds.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  );
}

describe("recordProviderEvent", () => {
  it("stores an event with its exact body: the bytes round-trip, non-ASCII included", async () => {
    const eventId = newEventId();
    const raw = capturedBody("pay_DESlfW9H8K9uqM", {
      city: "मुंबई",
      label: "₹1,500 deposit",
      emoji: "🎶",
    }).replace('"event"', ' "event"');
    const bytes = Buffer.from(raw, "utf8");
    const secret = "whsec-inbox";
    const signature = createHmac("sha256", secret).update(bytes).digest("hex");

    const stored = await deliver(eventId, raw);
    expect(stored.duplicate).toBe(false);

    const [row] = await rowsOf([eventId]);
    expect(row).toMatchObject({ id: stored.id, signature_ok: true, processed_at: null });
    expect(row?.attempts).toBe(0);
    expect(row?.last_error).toBeNull();
    expect(row?.raw_body).toBe(raw);
    expect(row?.body_bytes).toBe(bytes.toString("hex"));
    // What was stored still verifies: a worker can check it again later.
    const again = new TextEncoder().encode(row?.raw_body ?? "");
    expect(verifyRazorpayWebhook(again, signature, { current: secret })).toBe(true);
  });

  it("keeps one row for an event delivered three times; later deliveries are duplicates", async () => {
    const eventId = newEventId();
    const raw = capturedBody("pay_three");
    const first = await deliver(eventId, raw);
    const second = await deliver(eventId, raw);
    // A later delivery stores nothing, even if its body or flags differ.
    const third = await recordProviderEvent(database.db, {
      provider: "razorpay",
      eventId,
      eventType: "payment.failed",
      rawBody: `${raw} `,
      signatureOk: false,
      receivedAt: new Date(receivedAt.getTime() + 60_000),
    });
    expect(first.duplicate).toBe(false);
    expect(second).toEqual({ id: first.id, duplicate: true });
    expect(third).toEqual({ id: first.id, duplicate: true });
    const rows = await rowsOf([eventId]);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.raw_body).toBe(raw);
    expect(rows[0]?.signature_ok).toBe(true);
  });

  it("stores 100 events delivered 3 times each, shuffled and concurrent, as 100 rows", async () => {
    const events = Array.from({ length: 100 }, (_, i) => ({
      eventId: newEventId(),
      raw: capturedBody(`pay_demo_${i}`),
    }));
    const deliveries = fc.sample(
      fc.shuffledSubarray(
        events.flatMap((e) => [e, e, e]),
        { minLength: 300, maxLength: 300 },
      ),
      1,
    )[0];
    if (!deliveries) throw new Error("no sample");
    const results = await Promise.all(deliveries.map((e) => deliver(e.eventId, e.raw)));

    const rows = await rowsOf(events.map((e) => e.eventId));
    expect(rows).toHaveLength(100);
    expect(results.filter((r) => !r.duplicate)).toHaveLength(100);
    expect(results.filter((r) => r.duplicate)).toHaveLength(200);
    const idOf = new Map(rows.map((r) => [r.event_id, r.id]));
    deliveries.forEach((e, i) => {
      expect(results[i]?.id).toBe(idOf.get(e.eventId));
    });
  });

  it("dedupes by event id, not by body: two events with one body are two rows", async () => {
    const eventId = newEventId();
    const other = newEventId();
    const a = await deliver(eventId, capturedBody("pay_a"));
    const b = await deliver(other, capturedBody("pay_a"));
    expect(a.id).not.toBe(b.id);
    expect(b.duplicate).toBe(false);
  });

  it("refuses what no provider sends: an empty event id or type, a NUL in the body", async () => {
    await expect(deliver("", "{}")).rejects.toThrow(TypeError);
    await expect(deliver(newEventId(), '{"event":"x\u0000"}')).rejects.toThrow(TypeError);
    await expect(
      recordProviderEvent(database.db, {
        provider: "razorpay",
        eventId: newEventId(),
        eventType: " ",
        rawBody: "{}",
        signatureOk: true,
        receivedAt,
      }),
    ).rejects.toThrow(TypeError);
  });

  it("the database refuses a provider it does not know", async () => {
    await expect(
      database.db.execute(
        sql`INSERT INTO provider_events (provider, event_id, event_type, raw_body, signature_ok, received_at)
            VALUES ('stripe', ${newEventId()}, 'payment_intent.succeeded', '{}', true, now())`,
      ),
    ).rejects.toThrow();
  });

  it("rolls back with a caller's transaction", async () => {
    const eventId = newEventId();
    await expect(
      database.db.transaction(async (tx) => {
        await recordProviderEvent(tx, {
          provider: "razorpay",
          eventId,
          eventType: "payment.captured",
          rawBody: "{}",
          signatureOk: true,
          receivedAt,
        });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await rowsOf([eventId])).toHaveLength(0);
  });
});

describe("parseRazorpayEvent", () => {
  it("reads the type, the creation time and the payload of a Razorpay body", () => {
    const parsed = parseRazorpayEvent(capturedBody("pay_DESlfW9H8K9uqM", { city: "मुंबई" }));
    expect(parsed).toEqual({
      eventType: "payment.captured",
      createdAt: 1_787_000_000,
      payload: {
        payment: {
          entity: {
            id: "pay_DESlfW9H8K9uqM",
            amount: 150000,
            currency: "INR",
            notes: { city: "मुंबई" },
          },
        },
      },
    });
  });

  it("gives null for a creation time or payload that is missing or not what Razorpay sends", () => {
    expect(parseRazorpayEvent('{"event":"refund.processed"}')).toEqual({
      eventType: "refund.processed",
      createdAt: null,
      payload: null,
    });
    for (const createdAt of ['"1787000000"', "-1", "1.5", "1e400", "null", "{}"]) {
      expect(parseRazorpayEvent(`{"event":"a.b","created_at":${createdAt}}`)?.createdAt).toBeNull();
    }
  });

  it.each([
    ["empty", ""],
    ["not JSON", "event=payment.captured"],
    ["truncated JSON", capturedBody("pay_x").slice(0, -1)],
    ["JSON null", "null"],
    ["a number", "5"],
    ["a string", '"payment.captured"'],
    ["an array", '[{"event":"payment.captured"}]'],
    ["an object without event", '{"payload":{}}'],
    ["event: 5", '{"event":5}'],
    ["event: null", '{"event":null}'],
    ["event: an empty string", '{"event":""}'],
    ["event: an object", '{"event":{"toString":"payment.captured"}}'],
    ["event: an array", '{"event":["payment.captured"]}'],
    ["a byte-order mark first", `\uFEFF${capturedBody("pay_x")}`],
    ["nesting half a million deep", `${"[".repeat(500_000)}${"]".repeat(500_000)}`],
    ["nesting unterminated", '{"event":"a","payload":'.concat("[".repeat(1_000_000))],
    ["over 1 MiB", `{"event":"a","pad":"${"x".repeat(MAX_WEBHOOK_BYTES)}"}`],
  ])("is null, never a throw, for a body that is %s", (_, body) => {
    expect(parseRazorpayEvent(body)).toBeNull();
  });

  it("survives deep nesting inside a valid event and __proto__ keys", () => {
    const deep = `{"event":"a.b","payload":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    expect(parseRazorpayEvent(deep)?.eventType).toBe("a.b");
    const proto = parseRazorpayEvent('{"__proto__":{"polluted":true},"event":"a.b"}');
    expect(proto?.eventType).toBe("a.b");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("never throws on any string, and finds a string event wherever the JSON has one", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        expect(() => parseRazorpayEvent(text)).not.toThrow();
      }),
    );
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const parsed = parseRazorpayEvent(JSON.stringify(value) ?? "");
        const isEvent =
          typeof value === "object" &&
          value !== null &&
          !Array.isArray(value) &&
          typeof (value as Record<string, unknown>).event === "string" &&
          (value as Record<string, unknown>).event !== "";
        expect(parsed === null).toBe(!isEvent);
      }),
    );
  });
});
