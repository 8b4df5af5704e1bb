import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ProviderError } from "./payment-provider";
import { createRazorpayClient } from "./razorpay-client.server";
import {
  RazorpayPaymentLinkSchema,
  RazorpayPaymentSchema,
  RazorpayRefundSchema,
  RazorpayTransferCollectionSchema,
} from "./razorpay-schemas";

/**
 * The client against a tiny Razorpay-shaped server on 127.0.0.1 that records each request and
 * answers what the test put in `routes`. Shapes follow Razorpay's API reference examples, with
 * their extra fields and their habit of writing empty notes as `[]`. No traffic leaves the machine.
 */

const KEY_ID = "rzp_test_1DP5mmOlF5G5ag";
const KEY_SECRET = "thisIsTheKeySecret-9f2c41";
const CREDENTIALS = Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString("base64");

type Recorded = { method: string; url: string; headers: IncomingHttpHeaders; body: string };
type Reply = { status?: number; json?: unknown; headers?: Record<string, string>; hang?: true };

let server: Server;
let origin: string;
let requests: Recorded[] = [];
let routes = new Map<string, (request: Recorded) => Reply>();

function route(method: string, path: string, reply: Reply | ((request: Recorded) => Reply)) {
  routes.set(`${method} ${path}`, typeof reply === "function" ? reply : () => reply);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const recorded: Recorded = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      const handler = routes.get(`${recorded.method} ${recorded.url}`);
      const reply: Reply = handler
        ? handler(recorded)
        : { status: 404, json: { error: { code: "BAD_REQUEST_ERROR", description: "No route" } } };
      if (reply.hang) return;
      res.writeHead(reply.status ?? 200, {
        "content-type": "application/json",
        ...reply.headers,
      });
      res.end(reply.json === undefined ? "" : JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  requests = [];
  routes = new Map();
});

/** The client as the app will point it at the embedded provider: a base URL with a path. */
const client = (timeoutMs?: number) =>
  createRazorpayClient({
    keyId: KEY_ID,
    keySecret: KEY_SECRET,
    baseUrl: `${origin}/dev/psp/`,
    timeoutMs,
  });

const refusal = (description: string) => ({
  error: {
    code: "BAD_REQUEST_ERROR",
    description,
    source: "business",
    step: "payment_initiation",
    reason: "input_validation_failed",
    metadata: {},
    field: null,
  },
});

/** Razorpay's Payment Link entity as "Create a Standard Payment Link" shows it. */
function linkEntity(overrides: Record<string, unknown> = {}) {
  return {
    accept_partial: false,
    amount: 1_500_000,
    amount_paid: 0,
    callback_method: "get",
    callback_url: "https://gigledger.example/pay/return",
    cancelled_at: 0,
    created_at: 1_795_000_000,
    currency: "INR",
    customer: { email: "asha@example.com", name: "Asha Rao" },
    description: "Deposit for the wedding sangeet",
    expire_by: 1_795_086_400,
    expired_at: 0,
    first_min_partial_amount: 0,
    id: "plink_ExjpAUN3gVHrPJ",
    notes: [],
    notify: { email: false, sms: false },
    payments: null,
    reference_id: "intent_0001",
    reminder_enable: false,
    reminders: [],
    short_url: "https://rzp.io/i/nxrHnLJ",
    status: "created",
    updated_at: 1_795_000_000,
    upi_link: false,
    user_id: "",
    ...overrides,
  };
}

function paymentEntity(overrides: Record<string, unknown> = {}) {
  return {
    id: "pay_29QQoUBi66xm2f",
    entity: "payment",
    amount: 1_500_000,
    currency: "INR",
    status: "captured",
    order_id: "order_9A33XWu170gUtm",
    invoice_id: null,
    international: false,
    method: "upi",
    amount_refunded: 0,
    refund_status: null,
    captured: true,
    description: null,
    vpa: "asha@okhdfc",
    email: "asha@example.com",
    contact: "+919000090000",
    notes: [],
    fee: 35_400,
    tax: 5_400,
    error_code: null,
    error_description: null,
    acquirer_data: { rrn: "330412345678" },
    created_at: 1_795_000_100,
    ...overrides,
  };
}

function refundEntity(overrides: Record<string, unknown> = {}) {
  return {
    id: "rfnd_FP8QHiV938haTz",
    entity: "refund",
    amount: 500_000,
    currency: "INR",
    payment_id: "pay_29QQoUBi66xm2f",
    notes: { gl_ref: "cmd_refund_1" },
    receipt: null,
    acquirer_data: { arn: null },
    created_at: 1_795_000_200,
    batch_id: null,
    status: "processed",
    speed_processed: "normal",
    speed_requested: "normal",
    ...overrides,
  };
}

/** The transfer entity of Razorpay Route, `error` object and all. */
function transferEntity(overrides: Record<string, unknown> = {}) {
  return {
    id: "trf_E9uhYLFLLZ2pks",
    entity: "transfer",
    status: "processed",
    source: "pay_29QQoUBi66xm2f",
    recipient: "acc_CPRsN1LkFccllA",
    amount: 1_337_500,
    currency: "INR",
    amount_reversed: 0,
    notes: { gl_ref: "split:pay_29QQoUBi66xm2f" },
    linked_account_notes: [],
    on_hold: true,
    on_hold_until: null,
    settlement_status: "on_hold",
    recipient_settlement_id: null,
    created_at: 1_795_000_150,
    processed_at: 1_795_000_160,
    error: { code: null, description: null, reason: null, field: null, step: null },
    ...overrides,
  };
}

function reversalEntity(overrides: Record<string, unknown> = {}) {
  return {
    id: "rvrsl_EB0BWgGDAu7tOz",
    entity: "reversal",
    transfer_id: "trf_E9uhYLFLLZ2pks",
    amount: 400_000,
    fee: 0,
    tax: 0,
    currency: "INR",
    notes: { gl_ref: "reversal:cmd_7" },
    initiator_id: "CJoeHMNpi0nC7k",
    customer_refund_id: null,
    utr: null,
    created_at: 1_795_000_300,
    ...overrides,
  };
}

const collection = (items: unknown[]) => ({ entity: "collection", count: items.length, items });

const linkInput = {
  amount: 1_500_000,
  description: "Deposit for the wedding sangeet",
  referenceId: "intent_0001",
  expireBy: new Date("2026-11-18T10:00:00Z"),
  callbackUrl: "https://gigledger.example/pay/return",
  customer: { name: "Asha Rao", email: "asha@example.com" },
  notes: { booking: "bk_1" },
};

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe("requests", () => {
  it("creates a Payment Link with Basic auth, a JSON body and a GET callback", async () => {
    route("POST", "/dev/psp/v1/payment_links", {
      json: linkEntity({ notes: { booking: "bk_1" } }),
    });

    const link = await client().createPaymentLink(linkInput);

    expect(link).toEqual({
      id: "plink_ExjpAUN3gVHrPJ",
      shortUrl: "https://rzp.io/i/nxrHnLJ",
      status: "created",
      referenceId: "intent_0001",
      amount: 1_500_000,
      amountPaid: 0,
      orderId: null,
      payments: [],
    });
    expect(requests).toHaveLength(1);
    const [sent] = requests;
    expect(sent?.headers.authorization).toBe(`Basic ${CREDENTIALS}`);
    expect(sent?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(sent?.body ?? "")).toEqual({
      amount: 1_500_000,
      currency: "INR",
      accept_partial: false,
      expire_by: Date.parse("2026-11-18T10:00:00Z") / 1000,
      reference_id: "intent_0001",
      description: "Deposit for the wedding sangeet",
      customer: { name: "Asha Rao", email: "asha@example.com" },
      callback_url: "https://gigledger.example/pay/return",
      callback_method: "get",
      notes: { booking: "bk_1" },
    });
  });

  it("reads a Payment Link's payments, amount paid and order", async () => {
    route("GET", "/dev/psp/v1/payment_links/plink_ExjpAUN3gVHrPJ", {
      json: linkEntity({
        status: "paid",
        amount_paid: 1_500_000,
        order_id: "order_9A33XWu170gUtm",
        payments: [
          {
            amount: 1_500_000,
            created_at: 1_795_000_100,
            method: "upi",
            payment_id: "pay_29QQoUBi66xm2f",
            plink_id: "plink_ExjpAUN3gVHrPJ",
            status: "captured",
            updated_at: 1_795_000_100,
          },
        ],
      }),
    });

    const link = await client().fetchPaymentLink("plink_ExjpAUN3gVHrPJ");

    expect(link).toMatchObject({
      status: "paid",
      amountPaid: 1_500_000,
      orderId: "order_9A33XWu170gUtm",
      referenceId: "intent_0001",
      payments: [{ paymentId: "pay_29QQoUBi66xm2f", amount: 1_500_000, status: "captured" }],
    });
    expect(requests[0]?.headers.authorization).toBe(`Basic ${CREDENTIALS}`);
    expect(requests[0]?.body).toBe("");
  });

  it("reads a payment with its fee, tax and time", async () => {
    route("GET", "/dev/psp/v1/payments/pay_29QQoUBi66xm2f", { json: paymentEntity() });

    expect(await client().fetchPayment("pay_29QQoUBi66xm2f")).toEqual({
      id: "pay_29QQoUBi66xm2f",
      amount: 1_500_000,
      status: "captured",
      orderId: "order_9A33XWu170gUtm",
      amountRefunded: 0,
      fee: 35_400,
      tax: 5_400,
      createdAt: new Date(1_795_000_100 * 1000),
    });
  });

  it("reads a payment not yet captured, whose fee is unknown", async () => {
    route("GET", "/dev/psp/v1/payments/pay_29QQoUBi66xm2f", {
      json: paymentEntity({ status: "authorized", fee: null, tax: null, captured: false }),
    });

    expect(await client().fetchPayment("pay_29QQoUBi66xm2f")).toMatchObject({
      status: "authorized",
      fee: null,
      tax: null,
    });
  });

  it("refunds with X-Refund-Idempotency and the same body on every retry", async () => {
    route("POST", "/dev/psp/v1/payments/pay_29QQoUBi66xm2f/refund", { json: refundEntity() });
    const input = {
      paymentId: "pay_29QQoUBi66xm2f",
      amount: 500_000,
      idempotencyKey: "0f8c2b7e4d5a4c3b9e1f2a3b4c5d6e7f",
      notes: { gl_ref: "cmd_refund_1" },
    };

    const first = await client().refund(input);
    const again = await client().refund(input);

    expect(first).toEqual({
      id: "rfnd_FP8QHiV938haTz",
      paymentId: "pay_29QQoUBi66xm2f",
      amount: 500_000,
      status: "processed",
      arn: null,
      createdAt: new Date(1_795_000_200 * 1000),
    });
    expect(again).toEqual(first);
    expect(requests.map((r) => r.headers["x-refund-idempotency"])).toEqual([
      input.idempotencyKey,
      input.idempotencyKey,
    ]);
    expect(requests[0]?.body).toBe(requests[1]?.body);
    expect(JSON.parse(requests[0]?.body ?? "")).toEqual({
      amount: 500_000,
      speed: "normal",
      notes: { gl_ref: "cmd_refund_1" },
    });
  });

  it("refuses a refund whose key breaks Razorpay's rule, without sending it", async () => {
    const error = await failure(
      client().refund({ paymentId: "pay_29QQoUBi66xm2f", amount: 100, idempotencyKey: "short" }),
    );
    expect(error.kind).toBe("refused");
    expect(requests).toHaveLength(0);
  });

  it("refuses amounts that are not positive whole paise, without sending them", async () => {
    for (const amount of [0, -100, 10.5, Number.NaN]) {
      const error = await failure(client().createPaymentLink({ ...linkInput, amount }));
      expect(error.kind).toBe("refused");
    }
    expect(requests).toHaveLength(0);
  });

  it("refuses a reference id or a ref longer than Razorpay keeps, without sending it", async () => {
    const long = "x".repeat(41);
    expect(
      (await failure(client().createPaymentLink({ ...linkInput, referenceId: long }))).kind,
    ).toBe("refused");
    const transfer = {
      paymentId: "pay_29QQoUBi66xm2f",
      accountId: "acc_CPRsN1LkFccllA",
      amount: 100,
      ref: "r".repeat(257),
    };
    expect((await failure(client().createHeldTransfer(transfer))).kind).toBe("refused");
    expect(requests).toHaveLength(0);
  });

  it("puts no id in a path that is not a Razorpay id", async () => {
    for (const id of ["../orders", "pay_1/refund", "", "pay 1", "pay_1?x=1"]) {
      const error = await failure(client().fetchPayment(id));
      expect(error.kind).toBe("refused");
    }
    expect(requests).toHaveLength(0);
  });

  it("sets and frees a transfer's hold with PATCH on_hold 1 and 0", async () => {
    route("PATCH", "/dev/psp/v1/transfers/trf_E9uhYLFLLZ2pks", (request) => ({
      json: transferEntity({ on_hold: JSON.parse(request.body).on_hold === 1 }),
    }));

    const freed = await client().setTransferHold({
      transferId: "trf_E9uhYLFLLZ2pks",
      onHold: false,
    });
    const held = await client().setTransferHold({ transferId: "trf_E9uhYLFLLZ2pks", onHold: true });

    expect(freed.onHold).toBe(false);
    expect(held.onHold).toBe(true);
    expect(requests.map((r) => JSON.parse(r.body))).toEqual([{ on_hold: 0 }, { on_hold: 1 }]);
  });

  it("creates a Route linked account with an Idempotency-Key", async () => {
    route("POST", "/dev/psp/v2/accounts", {
      json: {
        id: "acc_GRWKk7qQsLnDjX",
        type: "route",
        status: "created",
        email: "asha@example.com",
        phone: "9000090000",
        legal_business_name: "Asha Rao",
        business_type: "individual",
        reference_id: "artist_42",
        contact_name: "Asha Rao",
        notes: [],
        created_at: 1_795_000_000,
      },
    });

    const account = await client().createLinkedAccount({
      email: "asha@example.com",
      phone: "9000090000",
      legalName: "Asha Rao",
      pan: "ABCPR1234K",
      referenceId: "artist_42",
      idempotencyKey: "acct-artist_42-v1",
    });

    expect(account).toEqual({ id: "acc_GRWKk7qQsLnDjX", status: "created" });
    expect(requests[0]?.headers["idempotency-key"]).toBe("acct-artist_42-v1");
    expect(requests[0]?.headers.authorization).toBe(`Basic ${CREDENTIALS}`);
    expect(JSON.parse(requests[0]?.body ?? "")).toEqual({
      email: "asha@example.com",
      phone: "9000090000",
      type: "route",
      reference_id: "artist_42",
      legal_business_name: "Asha Rao",
      business_type: "individual",
      contact_name: "Asha Rao",
      legal_info: { pan: "ABCPR1234K" },
    });
  });
});

describe("retry safety", () => {
  it("returns the existing link when Razorpay refuses a duplicate reference id", async () => {
    route("POST", "/dev/psp/v1/payment_links", {
      status: 400,
      json: refusal("Payment Link with reference id intent_0001 already exists"),
    });
    route("GET", "/dev/psp/v1/payment_links?reference_id=intent_0001", {
      json: { payment_links: [linkEntity()] },
    });

    const link = await client().createPaymentLink(linkInput);

    expect(link.id).toBe("plink_ExjpAUN3gVHrPJ");
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "POST /dev/psp/v1/payment_links",
      "GET /dev/psp/v1/payment_links?reference_id=intent_0001",
    ]);
  });

  it("encodes the reference id in the look-up's query", async () => {
    const referenceId = "intent a&b=c";
    route("POST", "/dev/psp/v1/payment_links", { status: 400, json: refusal("duplicate") });
    route("GET", "/dev/psp/v1/payment_links?reference_id=intent+a%26b%3Dc", {
      json: { payment_links: [linkEntity({ reference_id: referenceId })] },
    });

    const link = await client().createPaymentLink({ ...linkInput, referenceId });

    expect(link.referenceId).toBe(referenceId);
  });

  it("keeps the refusal when no link has the reference id", async () => {
    route("POST", "/dev/psp/v1/payment_links", {
      status: 400,
      json: refusal("expire_by should be at least 15 minutes after current time"),
    });
    route("GET", "/dev/psp/v1/payment_links?reference_id=intent_0001", {
      json: { payment_links: [] },
    });

    const error = await failure(client().createPaymentLink(linkInput));

    expect(error.kind).toBe("refused");
    expect(error.message).toContain("expire_by should be at least 15 minutes");
  });

  it("refuses a reference id whose existing link is for another amount", async () => {
    route("POST", "/dev/psp/v1/payment_links", { status: 400, json: refusal("duplicate") });
    route("GET", "/dev/psp/v1/payment_links?reference_id=intent_0001", {
      json: { payment_links: [linkEntity({ amount: 999 })] },
    });

    const error = await failure(client().createPaymentLink(linkInput));

    expect(error.kind).toBe("refused");
    expect(error.message).toContain("999");
  });

  it("returns a link already cancelled when a cancellation is retried", async () => {
    route("POST", "/dev/psp/v1/payment_links/plink_ExjpAUN3gVHrPJ/cancel", {
      status: 400,
      json: refusal("Payment Link cannot be cancelled as it is already cancelled"),
    });
    route("GET", "/dev/psp/v1/payment_links/plink_ExjpAUN3gVHrPJ", {
      json: linkEntity({ status: "cancelled", cancelled_at: 1_795_000_500 }),
    });

    const link = await client().cancelPaymentLink("plink_ExjpAUN3gVHrPJ");

    expect(link.status).toBe("cancelled");
  });

  it("keeps the refusal when a paid link cannot be cancelled", async () => {
    route("POST", "/dev/psp/v1/payment_links/plink_ExjpAUN3gVHrPJ/cancel", {
      status: 400,
      json: refusal("Payment Link cannot be cancelled as it is already paid"),
    });
    route("GET", "/dev/psp/v1/payment_links/plink_ExjpAUN3gVHrPJ", {
      json: linkEntity({ status: "paid", amount_paid: 1_500_000 }),
    });

    const error = await failure(client().cancelPaymentLink("plink_ExjpAUN3gVHrPJ"));

    expect(error.message).toContain("already paid");
  });

  const transferInput = {
    paymentId: "pay_29QQoUBi66xm2f",
    accountId: "acc_CPRsN1LkFccllA",
    amount: 1_337_500,
    ref: "split:pay_29QQoUBi66xm2f",
  };

  it("returns the transfer already made with the same gl_ref, without a second POST", async () => {
    route("GET", "/dev/psp/v1/payments/pay_29QQoUBi66xm2f/transfers", {
      json: collection([
        transferEntity({ id: "trf_Other000000001", notes: { gl_ref: "split:other" } }),
        transferEntity(),
      ]),
    });

    const transfer = await client().createHeldTransfer(transferInput);

    expect(transfer).toEqual({
      id: "trf_E9uhYLFLLZ2pks",
      paymentId: "pay_29QQoUBi66xm2f",
      accountId: "acc_CPRsN1LkFccllA",
      amount: 1_337_500,
      amountReversed: 0,
      status: "processed",
      onHold: true,
      onHoldUntil: null,
      ref: "split:pay_29QQoUBi66xm2f",
      createdAt: new Date(1_795_000_150 * 1000),
      processedAt: new Date(1_795_000_160 * 1000),
    });
    expect(requests.map((r) => r.method)).toEqual(["GET"]);
  });

  it("creates a held transfer when none has the gl_ref", async () => {
    route("GET", "/dev/psp/v1/payments/pay_29QQoUBi66xm2f/transfers", {
      json: collection([transferEntity({ id: "trf_Other000000001", notes: [] })]),
    });
    route("POST", "/dev/psp/v1/payments/pay_29QQoUBi66xm2f/transfers", {
      json: collection([transferEntity({ status: "pending", processed_at: null })]),
    });

    const transfer = await client().createHeldTransfer(transferInput);

    expect(transfer).toMatchObject({ id: "trf_E9uhYLFLLZ2pks", status: "pending", onHold: true });
    expect(requests.map((r) => r.method)).toEqual(["GET", "POST"]);
    expect(JSON.parse(requests[1]?.body ?? "")).toEqual({
      transfers: [
        {
          account: "acc_CPRsN1LkFccllA",
          amount: 1_337_500,
          currency: "INR",
          on_hold: true,
          notes: { gl_ref: "split:pay_29QQoUBi66xm2f" },
        },
      ],
    });
  });

  it("refuses when the gl_ref names a transfer to another account", async () => {
    route("GET", "/dev/psp/v1/payments/pay_29QQoUBi66xm2f/transfers", {
      json: collection([transferEntity({ recipient: "acc_SomeoneElse0001" })]),
    });

    const error = await failure(client().createHeldTransfer(transferInput));

    expect(error.kind).toBe("refused");
    expect(requests.map((r) => r.method)).toEqual(["GET"]);
  });

  it("returns the reversal already made with the same gl_ref, without a second POST", async () => {
    route("GET", "/dev/psp/v1/transfers/trf_E9uhYLFLLZ2pks/reversals", {
      json: collection([reversalEntity()]),
    });

    const reversal = await client().reverseTransfer({
      transferId: "trf_E9uhYLFLLZ2pks",
      amount: 400_000,
      ref: "reversal:cmd_7",
    });

    expect(reversal).toEqual({
      id: "rvrsl_EB0BWgGDAu7tOz",
      transferId: "trf_E9uhYLFLLZ2pks",
      amount: 400_000,
      ref: "reversal:cmd_7",
      createdAt: new Date(1_795_000_300 * 1000),
    });
    expect(requests.map((r) => r.method)).toEqual(["GET"]);
  });

  it("reverses a transfer when no reversal has the gl_ref", async () => {
    route("GET", "/dev/psp/v1/transfers/trf_E9uhYLFLLZ2pks/reversals", { json: collection([]) });
    route("POST", "/dev/psp/v1/transfers/trf_E9uhYLFLLZ2pks/reversals", {
      json: reversalEntity(),
    });

    await client().reverseTransfer({
      transferId: "trf_E9uhYLFLLZ2pks",
      amount: 400_000,
      ref: "reversal:cmd_7",
    });

    expect(requests.map((r) => r.method)).toEqual(["GET", "POST"]);
    expect(JSON.parse(requests[1]?.body ?? "")).toEqual({
      amount: 400_000,
      notes: { gl_ref: "reversal:cmd_7" },
    });
  });
});

describe("errors", () => {
  const fetchPayment = () => client(300).fetchPayment("pay_29QQoUBi66xm2f");

  it.each([500, 502, 503, 408, 409, 429])("treats %i as retryable", async (status) => {
    route("GET", "/dev/psp/v1/payments/pay_29QQoUBi66xm2f", {
      status,
      json: {
        error: { code: "SERVER_ERROR", description: "We are facing some trouble completing" },
      },
    });

    const error = await failure(fetchPayment());

    expect(error).toMatchObject({ kind: "retryable", status });
  });

  it("treats a 409 on a refund (the same key still processing) as retryable", async () => {
    route("POST", "/dev/psp/v1/payments/pay_29QQoUBi66xm2f/refund", {
      status: 409,
      json: refusal("Request with the same idempotency key is being processed"),
    });

    const error = await failure(
      client().refund({
        paymentId: "pay_29QQoUBi66xm2f",
        amount: 500_000,
        idempotencyKey: "0f8c2b7e4d5a4c3b9e1f2a3b4c5d6e7f",
      }),
    );

    expect(error.kind).toBe("retryable");
    expect(error.isRetryable).toBe(true);
  });

  it("refuses a 400 with Razorpay's description and code", async () => {
    route("POST", "/dev/psp/v1/payments/pay_29QQoUBi66xm2f/refund", {
      status: 400,
      json: refusal("Different request with the same idempotency key has already been processed"),
    });

    const error = await failure(
      client().refund({
        paymentId: "pay_29QQoUBi66xm2f",
        amount: 1,
        idempotencyKey: "0f8c2b7e4d5a4c3b9e1f2a3b4c5d6e7f",
      }),
    );

    expect(error).toMatchObject({ kind: "refused", status: 400, code: "BAD_REQUEST_ERROR" });
    expect(error.message).toContain(
      "Different request with the same idempotency key has already been processed",
    );
  });

  it("refuses a 401 and a 404, and names the status when there is no error body", async () => {
    route("GET", "/dev/psp/v1/payments/pay_29QQoUBi66xm2f", { status: 401 });
    const unauthorised = await failure(fetchPayment());
    expect(unauthorised).toMatchObject({ kind: "refused", status: 401, code: null });
    expect(unauthorised.message).toContain("401");

    routes.clear();
    const missing = await failure(fetchPayment());
    expect(missing).toMatchObject({ kind: "refused", status: 404 });
  });

  it("gives up after the timeout, retryable", async () => {
    route("GET", "/dev/psp/v1/payments/pay_29QQoUBi66xm2f", { hang: true });
    const started = performance.now();

    const error = await failure(fetchPayment());

    expect(error).toMatchObject({ kind: "retryable", status: null });
    expect(error.message).toContain("300 ms");
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("treats a refused connection as retryable", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = createRazorpayClient({
      keyId: KEY_ID,
      keySecret: KEY_SECRET,
      baseUrl: `http://127.0.0.1:${port}`,
    });

    const error = await failure(unreachable.fetchPayment("pay_29QQoUBi66xm2f"));

    expect(error).toMatchObject({ kind: "retryable", status: null });
  });

  it("does not follow a redirect", async () => {
    route("GET", "/dev/psp/v1/payments/pay_29QQoUBi66xm2f", {
      status: 302,
      headers: { location: `${origin}/elsewhere/v1/payments/pay_29QQoUBi66xm2f` },
    });

    const error = await failure(fetchPayment());

    expect(error).toMatchObject({ kind: "refused", status: 302 });
    expect(requests.map((r) => r.url)).toEqual(["/dev/psp/v1/payments/pay_29QQoUBi66xm2f"]);
  });

  it("refuses an answer in a shape it does not know, naming the field but not its value", async () => {
    route("GET", "/dev/psp/v1/payments/pay_29QQoUBi66xm2f", {
      json: paymentEntity({ amount: "1500000.00", email: "asha@example.com" }),
    });

    const error = await failure(fetchPayment());

    expect(error.kind).toBe("refused");
    expect(error.message).toContain("amount");
    expect(error.message).not.toContain("1500000.00");
  });

  it("never puts the key secret in an error, even when the provider echoes it", async () => {
    route("POST", "/dev/psp/v1/payments/pay_29QQoUBi66xm2f/refund", {
      status: 400,
      json: refusal(`Bad credentials ${KEY_ID}:${KEY_SECRET} (Basic ${CREDENTIALS})`),
    });
    route("GET", "/dev/psp/v1/payments/pay_29QQoUBi66xm2f", { status: 500 });
    const closed = createRazorpayClient({
      keyId: KEY_ID,
      keySecret: KEY_SECRET,
      baseUrl: "http://127.0.0.1:9",
      timeoutMs: 300,
    });
    const errors = [
      await failure(
        client().refund({
          paymentId: "pay_29QQoUBi66xm2f",
          amount: 1,
          idempotencyKey: "0f8c2b7e4d5a4c3b9e1f2a3b4c5d6e7f",
        }),
      ),
      await failure(fetchPayment()),
      await failure(closed.fetchPayment("pay_29QQoUBi66xm2f")),
    ];

    expect(errors[0]?.message).toContain("[redacted]");
    for (const error of errors) {
      const shown = `${error.message}\n${error.stack}\n${inspect(error, { depth: 10 })}\n${JSON.stringify(error)}`;
      expect(shown).not.toContain(KEY_SECRET);
      expect(shown).not.toContain(CREDENTIALS);
    }
  });

  it("refuses a base URL with credentials or another scheme", () => {
    for (const baseUrl of ["ftp://127.0.0.1", "http://user:pw@127.0.0.1", "not a url"]) {
      expect(() => createRazorpayClient({ keyId: KEY_ID, keySecret: KEY_SECRET, baseUrl })).toThrow(
        TypeError,
      );
    }
  });
});

describe("the Payment Link callback", () => {
  const fields = {
    razorpay_payment_id: "pay_29QQoUBi66xm2f",
    razorpay_payment_link_id: "plink_ExjpAUN3gVHrPJ",
    razorpay_payment_link_reference_id: "intent_0001",
    razorpay_payment_link_status: "paid",
  };
  const signature = createHmac("sha256", KEY_SECRET)
    .update("plink_ExjpAUN3gVHrPJ|intent_0001|paid|pay_29QQoUBi66xm2f")
    .digest("hex");
  const verify = (query: Record<string, string>) =>
    client().verifyPaymentLinkCallback(new URLSearchParams(query));

  it("accepts Razorpay's signature and says what it covers", () => {
    expect(verify({ ...fields, razorpay_signature: signature })).toEqual({
      ok: true,
      paymentLinkId: "plink_ExjpAUN3gVHrPJ",
      referenceId: "intent_0001",
      status: "paid",
      paymentId: "pay_29QQoUBi66xm2f",
    });
    expect(requests).toHaveLength(0);
  });

  it("refuses a signature with one digit changed", () => {
    const last = signature.at(-1) === "0" ? "1" : "0";
    expect(verify({ ...fields, razorpay_signature: `${signature.slice(0, -1)}${last}` }).ok).toBe(
      false,
    );
  });

  it("refuses a signature of the wrong length", () => {
    for (const wrong of [signature.slice(0, -2), `${signature}00`, "", "zz"]) {
      expect(verify({ ...fields, razorpay_signature: wrong }).ok).toBe(false);
    }
  });

  it("refuses a query with a field changed, missing or repeated", () => {
    expect(
      verify({
        ...fields,
        razorpay_payment_link_status: "cancelled",
        razorpay_signature: signature,
      }).ok,
    ).toBe(false);
    for (const name of [...Object.keys(fields), "razorpay_signature"]) {
      const query: Record<string, string> = { ...fields, razorpay_signature: signature };
      delete query[name];
      expect(verify(query).ok).toBe(false);
    }
    const repeated = new URLSearchParams({ ...fields, razorpay_signature: signature });
    repeated.append("razorpay_payment_id", "pay_Someoneelse0001");
    expect(client().verifyPaymentLinkCallback(repeated).ok).toBe(false);
  });

  it("refuses a signature made with another secret", () => {
    const forged = createHmac("sha256", "another-secret")
      .update("plink_ExjpAUN3gVHrPJ|intent_0001|paid|pay_29QQoUBi66xm2f")
      .digest("hex");
    expect(verify({ ...fields, razorpay_signature: forged }).ok).toBe(false);
  });
});

describe("the schemas read Razorpay's documented examples", () => {
  it("takes empty notes written as [] and the extra fields", () => {
    expect(RazorpayPaymentLinkSchema.parse(linkEntity()).notes).toEqual({});
    expect(RazorpayPaymentSchema.parse(paymentEntity()).amount).toBe(1_500_000);
    expect(RazorpayRefundSchema.parse(refundEntity()).status).toBe("processed");
    expect(
      RazorpayTransferCollectionSchema.parse(collection([transferEntity()])).items,
    ).toHaveLength(1);
  });

  it("refuses fractional paise and unknown statuses", () => {
    expect(RazorpayPaymentSchema.safeParse(paymentEntity({ amount: 10.5 })).success).toBe(false);
    expect(RazorpayPaymentLinkSchema.safeParse(linkEntity({ status: "done" })).success).toBe(false);
  });
});
