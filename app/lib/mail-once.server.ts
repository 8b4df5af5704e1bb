import { sql } from "drizzle-orm";
import { type Queryable, queryRows } from "~db/client";
import type { Mail, Mailer } from "./mail.server";

/**
 * A job's mail, sent at most once however many instances run it, retry it or restart (decision
 * 044). `decide` runs in a transaction and returns the mail, or null when there is nothing to send
 * any more (the booking was rated meanwhile); in that same transaction the mail's `key` is
 * recorded in `sent_mails`, and the mail is sent only when that record is new. A send that fails
 * removes the record again and throws, so the job's retry sends it; only a process that dies
 * between the commit and the mail server's answer loses the mail.
 */
export async function sendMailOnce(
  ctx: { db: Queryable; mailer: Pick<Mailer, "send"> },
  key: string,
  decide: (tx: Queryable) => Promise<Mail | null>,
): Promise<"sent" | "nothing-to-send" | "sent-before"> {
  const decided = await ctx.db.transaction(async (tx) => {
    const mail = await decide(tx);
    if (!mail) return "nothing-to-send" as const;
    const recorded = await queryRows<{ key: string }>(
      tx,
      sql`INSERT INTO sent_mails (key) VALUES (${key}) ON CONFLICT (key) DO NOTHING RETURNING key`,
    );
    return recorded.length > 0 ? mail : ("sent-before" as const);
  });
  if (typeof decided === "string") return decided;
  try {
    await ctx.mailer.send(decided);
  } catch (error) {
    await ctx.db.execute(sql`DELETE FROM sent_mails WHERE key = ${key}`);
    throw error;
  }
  return "sent";
}
