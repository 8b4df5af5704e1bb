import { createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  MAX_WEBHOOK_BYTES,
  signRazorpayWebhook,
  verifyRazorpayPaymentLinkCallback,
  verifyRazorpayWebhook,
} from "./webhook-signature";

/** Razorpay's signature, computed here as its docs say, not through the module (design §8.3). */
const hmacHex = (secret: string, data: Uint8Array | string) =>
  createHmac("sha256", secret).update(data).digest("hex");

const SECRET = "whsec-current-7f3a";
const OLD_SECRET = "whsec-previous-19c2";
const bytes = (text: string) => new TextEncoder().encode(text);

/** A payment.captured body as Razorpay sends it, with non-ASCII text in the notes. */
const BODY = bytes(
  '{"entity":"event","account_id":"acc_BFQ7uQEaa7j2z7","event":"payment.captured","contains":["payment"],' +
    '"payload":{"payment":{"entity":{"id":"pay_DESlfW9H8K9uqM","amount":150000,"currency":"INR",' +
    '"notes":{"city":"मुंबई","label":"₹1,500 deposit"}}}},"created_at":1567674606}',
);

describe("verifyRazorpayWebhook", () => {
  it("accepts the HMAC-SHA256 of the raw bytes, hex, made with node:crypto", () => {
    expect(verifyRazorpayWebhook(BODY, hmacHex(SECRET, BODY), { current: SECRET })).toBe(true);
  });

  it("agrees with RFC 4231's test case 2", () => {
    const body = bytes("what do ya want for nothing?");
    const rfc = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
    expect(signRazorpayWebhook(body, "Jefe")).toBe(rfc);
    expect(verifyRazorpayWebhook(body, rfc, { current: "Jefe" })).toBe(true);
    expect(verifyRazorpayWebhook(body, rfc.toUpperCase(), { current: "Jefe" })).toBe(true);
  });

  it("signs exactly as Razorpay does", () => {
    expect(signRazorpayWebhook(BODY, SECRET)).toBe(hmacHex(SECRET, BODY));
    expect(signRazorpayWebhook(new Uint8Array(), SECRET)).toBe(hmacHex(SECRET, ""));
  });

  it("refuses a body changed by one byte, re-serialised or with whitespace added", () => {
    const signature = hmacHex(SECRET, BODY);
    const changed = BODY.slice();
    changed[10] = (changed[10] ?? 0) ^ 0x01;
    expect(verifyRazorpayWebhook(changed, signature, { current: SECRET })).toBe(false);
    const text = new TextDecoder().decode(BODY);
    const reserialised = bytes(JSON.stringify(JSON.parse(text), null, 0).replace("{", "{ "));
    expect(verifyRazorpayWebhook(reserialised, signature, { current: SECRET })).toBe(false);
    expect(verifyRazorpayWebhook(bytes(`${text}\n`), signature, { current: SECRET })).toBe(false);
    // The same text in another encoding is other bytes.
    const latin = Buffer.from(text, "latin1");
    expect(verifyRazorpayWebhook(latin, signature, { current: SECRET })).toBe(false);
  });

  it("refuses a body signed with another key (the API key secret)", () => {
    const signature = hmacHex("rzp_key_secret", BODY);
    expect(verifyRazorpayWebhook(BODY, signature, { current: SECRET })).toBe(false);
  });

  it.each([
    ["null", null],
    ["empty", ""],
    ["not hex", "z".repeat(64)],
    ["hex with a stray character", `${"a".repeat(63)}g`],
    ["too short", "ab".repeat(31)],
    ["too long", "ab".repeat(33)],
    ["odd length", "a".repeat(65)],
    ["base64 of the right HMAC", createHmac("sha256", SECRET).update(BODY).digest("base64")],
    ["the right HMAC with spaces", ` ${hmacHex(SECRET, BODY)} `],
    ["the right HMAC with a prefix", `sha256=${hmacHex(SECRET, BODY)}`],
    ["the right HMAC twice", hmacHex(SECRET, BODY).repeat(2)],
    ["the right HMAC's first half", hmacHex(SECRET, BODY).slice(0, 32)],
  ])("is false, never a throw, for a header that is %s", (_, header) => {
    expect(verifyRazorpayWebhook(BODY, header, { current: SECRET })).toBe(false);
    expect(verifyRazorpayWebhook(BODY, header, { current: SECRET, previous: OLD_SECRET })).toBe(
      false,
    );
  });

  it("accepts the previous secret only while it is given (rotation)", () => {
    const signedOld = hmacHex(OLD_SECRET, BODY);
    const signedNew = hmacHex(SECRET, BODY);
    expect(verifyRazorpayWebhook(BODY, signedOld, { current: SECRET })).toBe(false);
    expect(verifyRazorpayWebhook(BODY, signedOld, { current: SECRET, previous: null })).toBe(false);
    expect(verifyRazorpayWebhook(BODY, signedOld, { current: SECRET, previous: OLD_SECRET })).toBe(
      true,
    );
    expect(verifyRazorpayWebhook(BODY, signedNew, { current: SECRET, previous: OLD_SECRET })).toBe(
      true,
    );
    const other = hmacHex("whsec-unrelated", BODY);
    expect(verifyRazorpayWebhook(BODY, other, { current: SECRET, previous: OLD_SECRET })).toBe(
      false,
    );
  });

  it("verifies nothing with an empty secret: anyone could sign with it", () => {
    const signedEmpty = hmacHex("", BODY);
    expect(verifyRazorpayWebhook(BODY, signedEmpty, { current: "" })).toBe(false);
    expect(verifyRazorpayWebhook(BODY, signedEmpty, { current: SECRET, previous: "" })).toBe(false);
  });

  it("sign → verify holds for any body and secret, and any flipped byte or bit fails", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 2048 }),
        fc.string({ minLength: 1, maxLength: 64, unit: "binary" }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (body, secret, at, mask) => {
          const signature = signRazorpayWebhook(body, secret);
          expect(signature).toBe(hmacHex(secret, body));
          expect(verifyRazorpayWebhook(body, signature, { current: secret })).toBe(true);
          const flipped = body.slice();
          const i = at % flipped.length;
          flipped[i] = (flipped[i] ?? 0) ^ mask;
          expect(verifyRazorpayWebhook(flipped, signature, { current: secret })).toBe(false);
          const forged = body.slice();
          forged[i] = (forged[i] ?? 0) ^ mask;
          expect(
            verifyRazorpayWebhook(body, signRazorpayWebhook(forged, secret), { current: secret }),
          ).toBe(false);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a flipped hex digit of the signature fails", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), fc.nat({ max: 63 }), (body, at) => {
        const signature = signRazorpayWebhook(body, SECRET);
        const digit = signature[at] === "0" ? "1" : "0";
        const wrong = `${signature.slice(0, at)}${digit}${signature.slice(at + 1)}`;
        expect(verifyRazorpayWebhook(body, wrong, { current: SECRET })).toBe(false);
      }),
    );
  });

  it("names the 1 MiB limit the route refuses bodies above", () => {
    expect(MAX_WEBHOOK_BYTES).toBe(1024 * 1024);
  });
});

describe("verifyRazorpayPaymentLinkCallback", () => {
  const KEY_SECRET = "rzp_test_key_secret_5Jp";
  const callback = {
    paymentLinkId: "plink_ExjpAUN3gVHrPJ",
    referenceId: "gl_3f1c9e7a",
    status: "paid",
    paymentId: "pay_ExjpLSgGl2Sx5y",
  };
  const signed = hmacHex(
    KEY_SECRET,
    `${callback.paymentLinkId}|${callback.referenceId}|${callback.status}|${callback.paymentId}`,
  );

  it("accepts the HMAC of plink_id|reference_id|status|payment_id with the API key secret", () => {
    expect(verifyRazorpayPaymentLinkCallback({ ...callback, signature: signed }, KEY_SECRET)).toBe(
      true,
    );
  });

  it("refuses any changed field, another key, the webhook secret and malformed signatures", () => {
    for (const field of ["paymentLinkId", "referenceId", "status", "paymentId"] as const) {
      const changed = { ...callback, [field]: `${callback[field]}x`, signature: signed };
      expect(verifyRazorpayPaymentLinkCallback(changed, KEY_SECRET)).toBe(false);
    }
    expect(verifyRazorpayPaymentLinkCallback({ ...callback, signature: signed }, SECRET)).toBe(
      false,
    );
    expect(verifyRazorpayPaymentLinkCallback({ ...callback, signature: signed }, "")).toBe(false);
    for (const signature of [null, "", "nothex", signed.slice(2), `${signed}00`]) {
      expect(verifyRazorpayPaymentLinkCallback({ ...callback, signature }, KEY_SECRET)).toBe(false);
    }
  });
});
