import { randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import { and, asc, desc, eq, gte, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { CREDENTIAL_REFRESH_QUEUE } from "~/features/verification/credential-queue.server";
import type { SessionLevel } from "~/features/verification/verification-levels";
import {
  recordSessionLevel,
  sessionLevels,
} from "~/features/verification/verification-levels.server";
import type { Env } from "~/lib/env.server";
import { enqueueJob, type QueueHandler, runDueJobs } from "~/lib/jobs.server";
import { type Queryable, queryRows } from "~db/client";
import {
  artistProfiles,
  credentialIssuerKeys,
  credentialPresentations,
  credentialStatusLists,
  credentials,
} from "~db/schema";
import { claimsDigest, credentialOf } from "./credential";
import { CONTEXT_VC_2, isSignedLevel, STATUS_LIST_SIZE } from "./credentials.constants";
import { didDocumentOf, didOf } from "./did";
import { sessionClaimsOf } from "./session-claims.server";
import { type Issuer, issuerFor } from "./signer.server";
import { encodeStatusList, statusListUrl, statusPlaceOf } from "./status-list";

type IssueEnv = Pick<Env, "appUrl" | "credentialSigningKey">;

/** Each artist whose sessions changed gets their CV signed once, after those sessions. */
export const SIGN_CV_QUEUE = "credentials.sign-cv";

export type DrainResult = { signed: number; revoked: number; sessions: number };

/**
 * The credential work as jobs (app/lib/jobs.server.ts): first the sessions whose level may have
 * changed (a few per transaction: sign, re-sign or revoke, and the status lists they touch), then
 * each touched artist's CV, signed once however many of their sessions changed. `tally` counts
 * what was done.
 */
export function credentialJobs(
  env: IssueEnv,
  options: { batch?: number; now?: Date } = {},
  tally: DrainResult = { signed: 0, revoked: 0, sessions: 0 },
): QueueHandler[] {
  let issuer: Promise<Issuer> | null = null;
  const signer = () => {
    issuer ??= issuerFor(env);
    return issuer;
  };
  const now = () => options.now ?? new Date();
  return [
    {
      queue: CREDENTIAL_REFRESH_QUEUE,
      leaseSeconds: 300,
      batch: options.batch ?? 10,
      inTransaction: async (tx, jobs) => {
        const outcome = await refreshBatch(
          tx,
          await signer(),
          env.appUrl,
          jobs.map((job) => job.key),
          now(),
        );
        tally.signed += outcome.signed;
        tally.revoked += outcome.revoked;
        tally.sessions += outcome.sessions;
      },
    },
    {
      queue: SIGN_CV_QUEUE,
      leaseSeconds: 300,
      after: [CREDENTIAL_REFRESH_QUEUE],
      inTransaction: async (tx, jobs) => {
        for (const job of jobs)
          await signPresentation(tx, await signer(), env.appUrl, job.key, now());
      },
    },
  ];
}

/** Runs every waiting credential job now (tests, benchmarks): what the runner does in the background. */
export async function drainCredentialQueue(
  ctx: { db: Queryable; env: IssueEnv },
  options: { batch?: number; now?: Date } = {},
): Promise<DrainResult> {
  const tally: DrainResult = { signed: 0, revoked: 0, sessions: 0 };
  await runDueJobs(ctx.db, credentialJobs(ctx.env, options, tally));
  return tally;
}

async function refreshBatch(
  tx: Queryable,
  issuer: Issuer,
  appUrl: URL,
  sessionIds: string[],
  now: Date,
) {
  const outcome = { signed: 0, revoked: 0, sessions: sessionIds.length };
  await tx
    .insert(credentialIssuerKeys)
    .values({ publicKeyMultibase: issuer.publicKeyMultibase })
    .onConflictDoNothing();
  const lists = new Set<number>();
  const artists = new Set<string>();
  // The batch's levels in one derivation (its queries cover every session at once).
  const levels = await sessionLevels({ db: tx }, sessionIds);
  for (const sessionId of sessionIds) {
    const change = await refreshSession(tx, issuer, appUrl, sessionId, now, levels.get(sessionId));
    if (change.revoked) outcome.revoked++;
    if (change.signed) outcome.signed++;
    for (const n of change.lists) lists.add(n);
    for (const a of change.artists) artists.add(a);
  }
  for (const listNumber of lists) await signStatusList(tx, issuer, appUrl, listNumber, now);
  for (const artistProfileId of artists)
    await enqueueJob(tx, { queue: SIGN_CV_QUEUE, key: artistProfileId });
  return outcome;
}

/** Brings one session's credential in line with its level: sign, re-sign, revoke or nothing. */
async function refreshSession(
  tx: Queryable,
  issuer: Issuer,
  appUrl: URL,
  sessionId: string,
  now: Date,
  level: SessionLevel | undefined,
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
  // The row's stored flags follow the rules first (the Verified Sessions counter reads them).
  await recordSessionLevel(tx, sessionId, level);
  const claims = await sessionClaimsOf(tx, sessionId, appUrl, level);
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
