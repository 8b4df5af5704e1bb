import { randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { CREDENTIAL_CHANNEL } from "~/features/verification/credential-queue.server";
import type { Env } from "~/lib/env.server";
import type { Logger } from "~/lib/logger.server";
import { runExclusively } from "~/lib/periodic-job.server";
import { type DatabaseHandle, type Queryable, queryRows } from "~db/client";
import {
  artistProfiles,
  credentialCvQueue,
  credentialIssuerKeys,
  credentialPresentations,
  credentialQueue,
  credentialStatusLists,
  credentials,
} from "~db/schema";
import { claimsDigest, credentialOf } from "./credential";
import { CONTEXT_VC_2, isSignedLevel, STATUS_LIST_SIZE } from "./credentials.constants";
import { didDocumentOf, didOf } from "./did";
import { sessionClaimsOf } from "./session-claims.server";
import { type Issuer, issuerFor } from "./signer.server";
import { encodeStatusList, statusListUrl, statusPlaceOf } from "./status-list";

const JOB_NAME = "credential refresh";

type IssueEnv = Pick<Env, "appUrl" | "credentialSigningKey">;

export type DrainResult = { ran: boolean; signed: number; revoked: number; sessions: number };

/**
 * Works through the queue under one advisory lock, so however many instances run, each change is
 * signed once: first the sessions (a few per transaction: sign, re-sign or revoke, and the status
 * lists they touch), then each touched artist's CV, signed once however many of their sessions
 * changed. Returns when both queues are empty, or (`ran: false`) when another instance holds the
 * lock.
 */
export async function drainCredentialQueue(
  ctx: { db: Queryable; env: IssueEnv },
  options: { batch?: number; now?: Date } = {},
): Promise<DrainResult> {
  const issuer = await issuerFor(ctx.env);
  const now = () => options.now ?? new Date();
  const total: DrainResult = { ran: true, signed: 0, revoked: 0, sessions: 0 };
  for (;;) {
    const run = await runExclusively(ctx.db, JOB_NAME, (tx) =>
      refreshBatch(tx, issuer, ctx.env.appUrl, options.batch ?? 10, now()),
    );
    if (!run.ran) return { ...total, ran: total.sessions > 0 };
    total.signed += run.value.signed;
    total.revoked += run.value.revoked;
    total.sessions += run.value.sessions;
    if (run.value.sessions === 0) break;
  }
  for (;;) {
    const run = await runExclusively(ctx.db, JOB_NAME, (tx) =>
      signNextPresentation(tx, issuer, ctx.env.appUrl, now()),
    );
    if (!run.ran) return { ...total, ran: total.sessions > 0 };
    if (!run.value) return total;
  }
}

/** Signs the CV of one queued artist; false when none is queued. */
async function signNextPresentation(tx: Queryable, issuer: Issuer, appUrl: URL, now: Date) {
  const [next] = await tx
    .delete(credentialCvQueue)
    .where(
      eq(
        credentialCvQueue.artistProfileId,
        tx
          .select({ id: credentialCvQueue.artistProfileId })
          .from(credentialCvQueue)
          .orderBy(asc(credentialCvQueue.queuedAt), asc(credentialCvQueue.artistProfileId))
          .limit(1),
      ),
    )
    .returning({ artistProfileId: credentialCvQueue.artistProfileId });
  if (!next) return false;
  await signPresentation(tx, issuer, appUrl, next.artistProfileId, now);
  return true;
}

async function refreshBatch(tx: Queryable, issuer: Issuer, appUrl: URL, batch: number, now: Date) {
  const taken = await tx
    .delete(credentialQueue)
    .where(
      inArray(
        credentialQueue.sessionId,
        tx
          .select({ id: credentialQueue.sessionId })
          .from(credentialQueue)
          .orderBy(asc(credentialQueue.queuedAt), asc(credentialQueue.sessionId))
          .limit(batch),
      ),
    )
    .returning({ sessionId: credentialQueue.sessionId });
  const outcome = { signed: 0, revoked: 0, sessions: taken.length };
  if (taken.length === 0) return outcome;
  await tx
    .insert(credentialIssuerKeys)
    .values({ publicKeyMultibase: issuer.publicKeyMultibase })
    .onConflictDoNothing();
  const lists = new Set<number>();
  const artists = new Set<string>();
  for (const { sessionId } of taken) {
    const change = await refreshSession(tx, issuer, appUrl, sessionId, now);
    if (change.revoked) outcome.revoked++;
    if (change.signed) outcome.signed++;
    for (const n of change.lists) lists.add(n);
    for (const a of change.artists) artists.add(a);
  }
  for (const listNumber of lists) await signStatusList(tx, issuer, appUrl, listNumber, now);
  if (artists.size > 0)
    await tx
      .insert(credentialCvQueue)
      .values([...artists].map((artistProfileId) => ({ artistProfileId, queuedAt: now })))
      .onConflictDoNothing();
  return outcome;
}

/** Brings one session's credential in line with its level: sign, re-sign, revoke or nothing. */
async function refreshSession(
  tx: Queryable,
  issuer: Issuer,
  appUrl: URL,
  sessionId: string,
  now: Date,
) {
  const change = { signed: false, revoked: false, lists: [] as number[], artists: [] as string[] };
  const [live] = await tx
    .select({
      id: credentials.id,
      artistProfileId: credentials.artistProfileId,
      statusIndex: credentials.statusIndex,
      claimsDigest: credentials.claimsDigest,
    })
    .from(credentials)
    .where(and(eq(credentials.sessionId, sessionId), isNull(credentials.revokedAt)))
    .for("update");
  const claims = await sessionClaimsOf(tx, sessionId, appUrl);
  const deserves = claims !== null && isSignedLevel(claims.level);
  const digest = deserves ? claimsDigest(claims) : null;
  if (live && live.claimsDigest === digest) return change;
  if (live) {
    await tx.update(credentials).set({ revokedAt: now }).where(eq(credentials.id, live.id));
    change.revoked = true;
    change.lists.push(statusPlaceOf(live.statusIndex).listNumber);
    change.artists.push(live.artistProfileId);
  }
  if (!deserves || !digest) return change;
  const [next] = await queryRows<{ index: string }>(
    tx,
    sql`SELECT nextval('credential_status_index_seq') AS index`,
  );
  const statusIndex = Number(next?.index);
  const credentialId = randomUUID();
  const unsigned = credentialOf(claims, {
    appUrl,
    did: issuer.did,
    credentialId,
    statusIndex,
  });
  const signed = await issuer.signCredential(unsigned, now);
  await tx.insert(credentials).values({
    id: credentialId,
    sessionId,
    artistProfileId: claims.artistProfileId,
    statusIndex,
    level: claims.level,
    claimsDigest: digest,
    document: JSON.stringify(signed),
    issuedAt: now,
  });
  change.signed = true;
  change.lists.push(statusPlaceOf(statusIndex).listNumber);
  change.artists.push(claims.artistProfileId);
  return change;
}

/** Signs the status list again with every revoked credential's bit set. */
async function signStatusList(
  tx: Queryable,
  issuer: Issuer,
  appUrl: URL,
  listNumber: number,
  now: Date,
) {
  const first = listNumber * STATUS_LIST_SIZE;
  const revoked = await tx
    .select({ index: credentials.statusIndex })
    .from(credentials)
    .where(
      and(
        isNotNull(credentials.revokedAt),
        gte(credentials.statusIndex, first),
        lt(credentials.statusIndex, first + STATUS_LIST_SIZE),
      ),
    );
  const url = statusListUrl(appUrl, listNumber);
  const signed = await issuer.signCredential(
    {
      "@context": [CONTEXT_VC_2],
      id: url,
      type: ["VerifiableCredential", "BitstringStatusListCredential"],
      issuer: issuer.did,
      validFrom: now.toISOString().replace(/\.\d{3}Z$/, "Z"),
      credentialSubject: {
        id: `${url}#list`,
        type: "BitstringStatusList",
        statusPurpose: "revocation",
        encodedList: encodeStatusList(revoked.map((r) => r.index - first)),
      },
    },
    now,
  );
  await tx
    .insert(credentialStatusLists)
    .values({ listNumber, document: JSON.stringify(signed), updatedAt: now })
    .onConflictDoUpdate({
      target: credentialStatusLists.listNumber,
      set: { document: JSON.stringify(signed), updatedAt: now },
    });
}

/** The artist's whole CV, signed again: a Verifiable Presentation of their live credentials. */
async function signPresentation(
  tx: Queryable,
  issuer: Issuer,
  appUrl: URL,
  artistProfileId: string,
  now: Date,
) {
  const [artist] = await tx
    .select({ slug: artistProfiles.slug })
    .from(artistProfiles)
    .where(eq(artistProfiles.id, artistProfileId));
  const live = await tx
    .select({ document: credentials.document })
    .from(credentials)
    .where(and(eq(credentials.artistProfileId, artistProfileId), isNull(credentials.revokedAt)))
    .orderBy(desc(credentials.issuedAt), asc(credentials.id));
  if (!artist || live.length === 0) {
    await tx
      .delete(credentialPresentations)
      .where(eq(credentialPresentations.artistProfileId, artistProfileId));
    return;
  }
  const signed = await issuer.signPresentation(
    {
      "@context": [CONTEXT_VC_2],
      id: new URL(`/artist/${artist.slug}/cv.json`, appUrl).href,
      type: ["VerifiablePresentation"],
      holder: issuer.did,
      verifiableCredential: live.map((c) => JSON.parse(c.document)),
    },
    now,
  );
  const document = JSON.stringify(signed);
  const row = {
    credentialCount: live.length,
    document,
    documentGzip: gzipSync(document).toString("base64"),
    updatedAt: now,
  };
  await tx
    .insert(credentialPresentations)
    .values({ artistProfileId, ...row })
    .onConflictDoUpdate({ target: credentialPresentations.artistProfileId, set: row });
}

/** did.json: the current key and every key signed with before it (docs/decisions/018). */
export async function getIssuerDidDocument(ctx: { db: Queryable; env: IssueEnv }) {
  const issuer = await issuerFor(ctx.env);
  const keys = await ctx.db
    .select({ key: credentialIssuerKeys.publicKeyMultibase })
    .from(credentialIssuerKeys)
    .orderBy(desc(credentialIssuerKeys.createdAt));
  const older = keys.map((k) => k.key).filter((k) => k !== issuer.publicKeyMultibase);
  return didDocumentOf(didOf(ctx.env.appUrl), [issuer.publicKeyMultibase, ...older]);
}

/** A signed status list as published, or null. */
export async function getStatusListDocument(ctx: { db: Queryable }, listNumber: number) {
  if (!Number.isSafeInteger(listNumber) || listNumber < 0 || listNumber > 1_000_000) return null;
  const [row] = await ctx.db
    .select({ document: credentialStatusLists.document })
    .from(credentialStatusLists)
    .where(eq(credentialStatusLists.listNumber, listNumber));
  return row?.document ?? null;
}

/**
 * Starts the worker: a round every minute, and one as soon as a write commits (NOTIFY). When
 * another instance holds the lock, this one tries once more shortly after, so a change queued
 * just as that instance finished is not left for the next minute.
 */
export async function startCredentialWorker(options: {
  database: DatabaseHandle;
  env: IssueEnv;
  logger: Pick<Logger, "error" | "info">;
}) {
  const { database, env, logger } = options;
  let running: Promise<void> | null = null;
  let again = false;
  const round = () => {
    if (running) {
      again = true;
      return;
    }
    running = drainCredentialQueue({ db: database.db, env })
      .then((result) => {
        if (result.signed + result.revoked > 0) logger.info({ ...result }, "credentials refreshed");
        if (!result.ran) setTimeout(round, 2000).unref();
      })
      .catch((error: unknown) => logger.error({ err: error, job: JOB_NAME }, `${JOB_NAME} failed`))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          round();
        }
      });
  };
  const stopListening = await database.listen(CREDENTIAL_CHANNEL, round);
  // A round every minute as well: a notification missed while reconnecting is not lost.
  const timer = setInterval(round, 60_000);
  timer.unref();
  // The first round waits a moment, so a starting instance answers its readiness check first.
  const first = setTimeout(round, 3000);
  first.unref();
  return {
    async stop() {
      clearInterval(timer);
      clearTimeout(first);
      await stopListening();
      await running;
    },
  };
}
