/**
 * Razorpay Route in the embedded provider: linked accounts (`/v2/accounts`, once per
 * `Idempotency-Key`), transfers of a captured payment to them (processed at once, possibly held),
 * releasing a hold (`PATCH`), and reversals.
 */
import { asc, eq, sql } from "drizzle-orm";
import type { Hono } from "hono";
import { z } from "zod";
import { pspAccounts, pspPayments, pspRefunds, pspReversals, pspTransfers } from "~db/schema";
import { type Psp, PspError, readBody } from "./common";
import { accountEntity, collection, reversalEntity, transferEntity } from "./entities";
import { newPspId, queueWebhook } from "./webhooks";

const NotesSchema = z
  .record(z.string(), z.string().max(256))
  .refine((notes) => Object.keys(notes).length <= 15, "at most 15 notes");

const AccountSchema = z
  .object({
    email: z.string().email().max(132),
    phone: z.string().max(15).optional(),
    type: z.literal("route"),
    reference_id: z.string().max(512).optional(),
    legal_business_name: z.string().min(1).max(200).optional(),
    customer_facing_business_name: z.string().max(255).optional(),
    business_type: z.literal("individual").optional(),
    contact_name: z.string().min(1).max(255).optional(),
    profile: z.record(z.string(), z.unknown()).optional(),
    legal_info: z.record(z.string(), z.unknown()).optional(),
    notes: NotesSchema.optional(),
  })
  .refine((a) => a.legal_business_name || a.contact_name, {
    message: "legal_business_name or contact_name is required",
    path: ["legal_business_name"],
  });

/** Razorpay reads `on_hold` as 1/0 or true/false. */
const OnHoldSchema = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform(Boolean);

const TransfersSchema = z.object({
  transfers: z
    .array(
      z.object({
        account: z.string().min(1),
        amount: z.number().int().positive(),
        currency: z.literal("INR"),
        on_hold: OnHoldSchema.default(false),
        on_hold_until: z.number().int().positive().optional(),
        notes: NotesSchema.default({}),
      }),
    )
    .min(1),
});

const HoldSchema = z.object({
  on_hold: OnHoldSchema,
  on_hold_until: z.number().int().positive().optional(),
});

const ReversalSchema = z.object({
  amount: z.number().int().positive().optional(),
  notes: NotesSchema.default({}),
});

const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{1,255}$/;

export function routeRoutes(app: Hono, psp: Psp) {
  const { db } = psp;

  app.post("/v2/accounts", async (c) => {
    const input = await readBody(c, AccountSchema);
    const key = c.req.header("idempotency-key") ?? null;
    if (key !== null && !IDEMPOTENCY_KEY.test(key))
      throw new PspError(400, "The idempotency key is invalid", "Idempotency-Key");
    const inserted = await db
      .insert(pspAccounts)
      .values({
        id: newPspId("acc"),
        idempotencyKey: key,
        referenceId: input.reference_id ?? null,
        email: input.email,
        legalName: input.legal_business_name ?? input.contact_name ?? "",
        // Razorpay reviews a linked account; the fake activates it at once.
        status: "activated",
        createdAt: psp.now(),
      })
      .onConflictDoNothing({ target: pspAccounts.idempotencyKey })
      .returning();
    // The same key again: the account the first request made.
    const account =
      inserted[0] ??
      (key === null
        ? undefined
        : (await db.select().from(pspAccounts).where(eq(pspAccounts.idempotencyKey, key)))[0]);
    if (!account) throw new Error("account not written");
    return c.json(accountEntity(account));
  });

  app.get("/v2/accounts/:id", async (c) => {
    const [account] = await db
      .select()
      .from(pspAccounts)
      .where(eq(pspAccounts.id, c.req.param("id")));
    if (!account) throw new PspError(400, "The id provided does not exist", "id");
    return c.json(accountEntity(account));
  });

  app.post("/v1/payments/:id/transfers", async (c) => {
    const input = await readBody(c, TransfersSchema);
    const paymentId = c.req.param("id");
    const made = await db.transaction(async (tx) => {
      const [payment] = await tx
        .select()
        .from(pspPayments)
        .where(eq(pspPayments.id, paymentId))
        .for("update");
      if (!payment) throw new PspError(400, "The id provided does not exist", "id");
      if (payment.status === "failed")
        throw new PspError(400, "Transfer cannot be initiated on a payment that is not captured");
      const [refunded] = await tx
        .select({ id: pspRefunds.id })
        .from(pspRefunds)
        .where(eq(pspRefunds.paymentId, paymentId))
        .limit(1);
      if (refunded || payment.amountRefunded > 0)
        throw new PspError(
          400,
          "You cannot request a transfer on payment once a refund has been initiated",
        );
      const [{ total } = { total: 0 }] = await tx
        .select({ total: sql<number>`coalesce(sum(${pspTransfers.amount}), 0)::bigint` })
        .from(pspTransfers)
        .where(eq(pspTransfers.paymentId, paymentId));
      const asked = input.transfers.reduce((sum, t) => sum + t.amount, 0);
      if (Number(total) + asked > payment.amount - payment.amountRefunded)
        throw new PspError(
          400,
          "The sum of amount requested for transfer is greater than the captured amount",
          "amount",
        );
      const now = psp.now();
      const transfers = [];
      for (const item of input.transfers) {
        const [account] = await tx
          .select({ id: pspAccounts.id })
          .from(pspAccounts)
          .where(eq(pspAccounts.id, item.account));
        if (!account) throw new PspError(400, "The id provided does not exist", "account");
        const [transfer] = await tx
          .insert(pspTransfers)
          .values({
            id: newPspId("trf"),
            paymentId,
            accountId: item.account,
            amount: item.amount,
            onHold: item.on_hold,
            notes: item.notes,
            createdAt: now,
          })
          .returning();
        if (!transfer) throw new Error("transfer not written");
        transfers.push(transfer);
        await queueWebhook(tx, psp.target, {
          event: "transfer.processed",
          payload: { transfer: { entity: transferEntity(transfer) } },
        });
      }
      return transfers;
    });
    return c.json(collection(made.map(transferEntity)));
  });

  app.get("/v1/payments/:id/transfers", async (c) => {
    const paymentId = c.req.param("id");
    const [payment] = await db
      .select({ id: pspPayments.id })
      .from(pspPayments)
      .where(eq(pspPayments.id, paymentId));
    if (!payment) throw new PspError(400, "The id provided does not exist", "id");
    const transfers = await db
      .select()
      .from(pspTransfers)
      .where(eq(pspTransfers.paymentId, paymentId))
      .orderBy(asc(pspTransfers.createdAt), asc(pspTransfers.id));
    return c.json(collection(transfers.map(transferEntity)));
  });

  app.get("/v1/transfers/:id", async (c) => {
    const [transfer] = await db
      .select()
      .from(pspTransfers)
      .where(eq(pspTransfers.id, c.req.param("id")));
    if (!transfer) throw new PspError(400, "The id provided does not exist", "id");
    return c.json(transferEntity(transfer));
  });

  // Holding or releasing is idempotent: the same request again changes nothing.
  app.patch("/v1/transfers/:id", async (c) => {
    const input = await readBody(c, HoldSchema);
    const [transfer] = await db
      .update(pspTransfers)
      .set({ onHold: input.on_hold })
      .where(eq(pspTransfers.id, c.req.param("id")))
      .returning();
    if (!transfer) throw new PspError(400, "The id provided does not exist", "id");
    return c.json(transferEntity(transfer));
  });

  app.post("/v1/transfers/:id/reversals", async (c) => {
    const input = await readBody(c, ReversalSchema);
    const transferId = c.req.param("id");
    const reversal = await db.transaction(async (tx) => {
      const [transfer] = await tx
        .select()
        .from(pspTransfers)
        .where(eq(pspTransfers.id, transferId))
        .for("update");
      if (!transfer) throw new PspError(400, "The id provided does not exist", "id");
      const left = transfer.amount - transfer.amountReversed;
      const amount = input.amount ?? left;
      if (amount <= 0 || amount > left)
        throw new PspError(
          400,
          "The reversal amount provided is greater than amount not reversed",
          "amount",
        );
      const [made] = await tx
        .insert(pspReversals)
        .values({
          id: newPspId("rvrsl"),
          transferId,
          amount,
          notes: input.notes,
          createdAt: psp.now(),
        })
        .returning();
      await tx
        .update(pspTransfers)
        .set({ amountReversed: sql`${pspTransfers.amountReversed} + ${amount}` })
        .where(eq(pspTransfers.id, transferId));
      if (!made) throw new Error("reversal not written");
      return made;
    });
    return c.json(reversalEntity(reversal));
  });

  app.get("/v1/transfers/:id/reversals", async (c) => {
    const transferId = c.req.param("id");
    const [transfer] = await db
      .select({ id: pspTransfers.id })
      .from(pspTransfers)
      .where(eq(pspTransfers.id, transferId));
    if (!transfer) throw new PspError(400, "The id provided does not exist", "id");
    const reversals = await db
      .select()
      .from(pspReversals)
      .where(eq(pspReversals.transferId, transferId))
      .orderBy(asc(pspReversals.createdAt), asc(pspReversals.id));
    return c.json(collection(reversals.map(reversalEntity)));
  });
}
