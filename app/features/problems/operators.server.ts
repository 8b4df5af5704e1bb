// Operators (issue 42, docs/decisions/058): users with the `operator` role run the desk at /admin.
// The first is made with `npm run operator -- add <email>`; an operator adds or removes others.
// Every operator action is a row of the append-only `operator_log`, with who and when.
import { sql } from "drizzle-orm";
import { getCurrentUser } from "~/features/accounts/accounts.server";
import { hasRole } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { notFound } from "~/lib/form.server";
import { refuse } from "~/lib/problem";
import { type Queryable, queryRows } from "~db/client";

export type OperatorActor = { id: string; email: string };

/**
 * The signed-in operator, or the 404 page for everyone else (anonymous visitors included): the
 * desk's addresses do not exist for them.
 */
export async function requireOperator(
  request: Request,
  ctx: Pick<AppContext, "db" | "auth" | "env">,
) {
  const user = await getCurrentUser(request, ctx);
  if (!user || !hasRole(user, "operator")) notFound();
  return user;
}

export async function logOperatorAction(
  tx: Queryable,
  operator: OperatorActor,
  entry: {
    action: string;
    target: string;
    detail?: Record<string, string | number | null>;
    at: Date;
  },
) {
  await tx.execute(
    sql`INSERT INTO operator_log (operator_user_id, operator_email, action, target, detail, at)
        VALUES (${operator.id}, ${operator.email}, ${entry.action}, ${entry.target},
          ${JSON.stringify(entry.detail ?? {})}::jsonb, ${entry.at.toISOString()})`,
  );
}

/** The users with the operator role, by e-mail. */
export async function operatorsOf(
  db: Queryable,
): Promise<{ id: string; email: string; name: string }[]> {
  return queryRows(
    db,
    sql`SELECT u.id, u.email, u.name FROM user_roles r JOIN users u ON u.id = r.user_id
        WHERE r.role = 'operator' ORDER BY u.email`,
  );
}

/**
 * Gives the account with this e-mail the operator role (nothing if it has it). `by` is the
 * operator doing it, or the command line (`npm run operator`), logged as "cli".
 */
export async function addOperator(
  db: Queryable,
  by: OperatorActor | "cli",
  email: string,
  at: Date,
): Promise<{ id: string; email: string }> {
  const [user] = await queryRows<{ id: string; email: string }>(
    db,
    sql`SELECT id, email FROM users WHERE lower(email) = lower(${email.trim()})`,
  );
  if (!user) refuse("not_found", `No account has the address ${email.trim()}. They sign up first.`);
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`INSERT INTO user_roles (user_id, role) VALUES (${user.id}, 'operator')
          ON CONFLICT DO NOTHING`,
    );
    await logOperatorAction(tx, by === "cli" ? { id: "cli", email: "cli" } : by, {
      action: "operator.add",
      target: `user:${user.id}`,
      detail: { email: user.email },
      at,
    });
  });
  return user;
}

/** Takes the operator role away; an operator cannot remove themselves (someone must remain). */
export async function removeOperator(
  db: Queryable,
  by: OperatorActor | "cli",
  email: string,
  at: Date,
): Promise<void> {
  const [user] = await queryRows<{ id: string; email: string }>(
    db,
    sql`SELECT u.id, u.email FROM users u JOIN user_roles r ON r.user_id = u.id
        AND r.role = 'operator' WHERE lower(u.email) = lower(${email.trim()})`,
  );
  if (!user) refuse("not_found", `${email.trim()} is not an operator.`);
  if (by !== "cli" && by.id === user.id)
    refuse("conflict", "You cannot remove yourself: another operator does it.");
  await db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM user_roles WHERE user_id = ${user.id} AND role = 'operator'`);
    await logOperatorAction(tx, by === "cli" ? { id: "cli", email: "cli" } : by, {
      action: "operator.remove",
      target: `user:${user.id}`,
      detail: { email: user.email },
      at,
    });
  });
}

export type OperatorLogLine = {
  id: string;
  operatorEmail: string;
  action: string;
  target: string;
  detail: Record<string, unknown>;
  at: Date;
};

export async function operatorLogOf(db: Queryable, limit = 50): Promise<OperatorLogLine[]> {
  const rows = await queryRows<OperatorLogLine & { at: Date | string }>(
    db,
    sql`SELECT id::text, operator_email AS "operatorEmail", action, target, detail, at FROM operator_log
        ORDER BY id DESC LIMIT ${limit}`,
  );
  return rows.map((r) => ({ ...r, at: new Date(r.at) }));
}
