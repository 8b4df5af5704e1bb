import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnv } from "~/lib/env.server";
import { enqueueJob, runDueJobs } from "~/lib/jobs.server";
import type { Mail, Mailer } from "~/lib/mail.server";
import { lineupConfirmations, sessionParticipants } from "~db/schema";
import { createArtist, createSession } from "~seed/factories";
import { createTestDatabase } from "../../../tests/support/test-database";
import { LINEUP_ENDED_QUEUE, lineupMailJobs } from "./lineup-mails.server";

// Peers in a lineup get one mail once the session has ended, asking them to confirm it
// (docs/product.md, "E-mails"; decision 044).

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const sent: Mail[] = [];
const mailer: Mailer = { send: async (m) => void sent.push(m), outbox: async () => [] };
const env = loadEnv({
  NODE_ENV: "test",
  DATA_DIR: path.join(tmpdir(), "gigledger-lineup-mails-test"),
  BETTER_AUTH_SECRET: "x".repeat(40),
});
let jobs: ReturnType<typeof lineupMailJobs>;

beforeAll(async () => {
  database = await createTestDatabase();
  jobs = lineupMailJobs({ db: database.db, env, mailer });
});
afterAll(async () => {
  await database?.dispose();
});

const MINUTE = 60_000;

/** A session of `owner` that started `startedMinutesAgo` ago and lasts `minutes`, joined by `peer`. */
async function lineup(startedMinutesAgo: number, minutes: number) {
  const owner = await createArtist(
    { db: database.db },
    { name: `Owner ${crypto.randomUUID().slice(0, 6)}` },
  );
  const peer = await createArtist({ db: database.db });
  const sessionId = await createSession(database.db, owner.artistId, {
    title: "Late set",
    startTime: new Date(Date.now() - startedMinutesAgo * MINUTE),
    durationMinutes: minutes,
  });
  await database.db.insert(sessionParticipants).values({
    sessionId,
    artistProfileId: peer.artistId,
    participationType: "collaborator",
    verificationStatus: "verified",
  });
  return { owner, peer, sessionId };
}

const scan = async () => {
  await enqueueJob(database.db, { queue: LINEUP_ENDED_QUEUE, key: "scheduled" });
  await runDueJobs(database.db, jobs);
};

const to = (email: string) => sent.filter((m) => m.to === email);

describe("the lineup's mail once its session has ended", () => {
  it("goes to each joined artist once, however often and however many runners scan", async () => {
    const { owner, peer, sessionId } = await lineup(120, 60);
    await Promise.all([scan(), scan()]);
    await scan();
    const mails = to(peer.user.email);
    expect(mails.map((m) => m.subject)).toEqual([
      `Did ${owner.name}'s session take place as logged?`,
    ]);
    expect(mails[0]?.text).toContain(`${owner.name}'s session "Late set"`);
    expect(mails[0]?.text).toContain(new URL(`/sessions/${sessionId}`, env.appUrl).href);
    expect(to(owner.user.email)).toEqual([]);
  });

  it.each([
    ["has not ended (started 30 minutes ago, lasts an hour)", 30, 60],
    ["ended a minute from now", 59, 60],
    ["ended more than a week ago", 8 * 24 * 60, 60],
  ])("is not sent while the session %s", async (_label, ago, minutes) => {
    const { peer } = await lineup(ago, minutes);
    await scan();
    expect(to(peer.user.email)).toEqual([]);
  });

  it("is sent once the end passes: ended a minute ago", async () => {
    const { peer } = await lineup(61, 60);
    await scan();
    expect(to(peer.user.email)).toHaveLength(1);
  });

  it("is not sent to an artist who already answered", async () => {
    const { peer, sessionId } = await lineup(120, 60);
    await database.db
      .insert(lineupConfirmations)
      .values({ sessionId, artistProfileId: peer.artistId, answer: "confirmed" });
    await scan();
    expect(to(peer.user.email)).toEqual([]);
  });
});
