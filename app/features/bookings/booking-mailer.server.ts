import { eq } from "drizzle-orm";
import type { AppContext } from "~/lib/context";
import type { Queryable } from "~db/client";
import { users } from "~db/schema";

type Ctx = Pick<AppContext, "db" | "env" | "logger" | "mailer">;

/** The booking's page, as a link in its mails. */
export const bookingUrl = (ctx: Pick<AppContext, "env">, id: string) =>
  new URL(`/bookings/${id}`, ctx.env.appUrl).href;

/** A booking mail that fails is logged; the action that caused it still succeeds. */
export async function sendQuietly(ctx: Ctx, mail: Parameters<Ctx["mailer"]["send"]>[0] | null) {
  if (!mail) return;
  try {
    await ctx.mailer.send(mail);
  } catch (error) {
    ctx.logger.error(
      { err: error, subject: mail.subject },
      "could not send a booking notification",
    );
  }
}

/** Where a party's mail goes; null for a deleted user. */
export async function emailOf(ctx: { db: Queryable }, userId: string | null) {
  if (!userId) return null;
  const [row] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}
