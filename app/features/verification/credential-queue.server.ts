import { enqueueJob } from "~/lib/jobs.server";
import type { Queryable } from "~db/client";

/** The job queue of sessions whose credential may need signing, re-signing or revoking. */
export const CREDENTIAL_REFRESH_QUEUE = "credentials.refresh-session";

/**
 * Adds a job to bring a session's credential in line with its level, in the caller's
 * transaction: call it from every write that may change a session's level (a peer verification,
 * a rating, a deletion, a withdrawn verification). The credentials feature's job signs or
 * revokes once the transaction has committed. Deletes that the database cascades add the job by
 * trigger (migrations 0009 and 0014).
 */
export async function queueCredentialRefresh(tx: Queryable, sessionId: string): Promise<void> {
  await enqueueJob(tx, { queue: CREDENTIAL_REFRESH_QUEUE, key: sessionId });
}
