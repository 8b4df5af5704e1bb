import { sql } from "drizzle-orm";
import type { Queryable } from "~db/client";
import { credentialQueue } from "~db/schema";

/** The NOTIFY channel that wakes the credential worker once a queueing transaction commits. */
export const CREDENTIAL_CHANNEL = "credential_refresh";

/**
 * Marks a session's credential for refreshing, in the caller's transaction: call it from every
 * write that may change a session's level (a peer verification, a rating, a deletion, a
 * withdrawn verification). The worker (issuance.server.ts) signs or revokes once the transaction
 * has committed; the NOTIFY, delivered on commit, wakes it. Deletes that the database cascades
 * are queued by triggers (migration 0009).
 */
export async function queueCredentialRefresh(tx: Queryable, sessionId: string): Promise<void> {
  await tx.insert(credentialQueue).values({ sessionId }).onConflictDoNothing();
  await tx.execute(sql`SELECT pg_notify(${CREDENTIAL_CHANNEL}, '')`);
}
