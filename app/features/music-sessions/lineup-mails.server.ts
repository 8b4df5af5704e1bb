import { sql } from "drizzle-orm";
import type { AppContext } from "~/lib/context";
import { formatWallClock } from "~/lib/dates";
import { isUuid } from "~/lib/ids";
import { enqueueJob, type Job, type QueueHandler } from "~/lib/jobs.server";
import { composeMail } from "~/lib/mail.server";
import { sendMailOnce } from "~/lib/mail-once.server";
import { type Queryable, queryRows } from "~db/client";

// Asking the lineup (docs/product.md, "E-mails"; decision 044): once a session has ended (its
// start plus its duration, wall-clock in its artist's zone), each artist who joined its lineup and
// has not answered yet gets one mail asking them to confirm it. A scheduled scan finds them and
// adds one job per artist and session; the job sends the mail at most once (`sendMailOnce`).

/** The scan's queue: every 5 minutes one instance finds lineups whose session has ended. */
export const LINEUP_ENDED_QUEUE = "music-sessions.lineup-ended";
/** One job per session and joined artist: `{session id}:{artist profile id}`. */
export const LINEUP_MAIL_QUEUE = "music-sessions.lineup-mail";

/** Sessions that ended longer ago than this are not asked about (none mailed at deploy for old ones). */
const ASK_WITHIN_DAYS = 7;

/** A session's end as an instant: start plus duration on the wall clock of its artist's zone. */
const sessionEnd = sql`(((s.start_time AT TIME ZONE owner.time_zone)
  + make_interval(mins => s.duration_minutes)) AT TIME ZONE owner.time_zone)`;

/** The joined artists of ended sessions who have not answered: `extra` narrows it. */
const askable = (extra: ReturnType<typeof sql>) => sql`
  FROM session_participants p
  JOIN music_sessions s ON s.id = p.session_id
  JOIN artist_profiles owner ON owner.id = s.artist_profile_id
  JOIN artist_profiles me ON me.id = p.artist_profile_id
  JOIN users u ON u.id = me.user_id
  WHERE p.participation_type = 'collaborator'
    AND ${sessionEnd} <= now()
    AND ${sessionEnd} > now() - make_interval(days => ${ASK_WITHIN_DAYS})
    AND NOT EXISTS (SELECT 1 FROM lineup_confirmations c
      WHERE c.session_id = p.session_id AND c.artist_profile_id = p.artist_profile_id)
    ${extra}`;

/** The scan: one mail job for each joined artist of an ended session not asked yet. */
export async function queueLineupMails(tx: Queryable) {
  const due = await queryRows<{ key: string }>(
    tx,
    sql`SELECT p.session_id::text || ':' || p.artist_profile_id::text AS key
      ${askable(sql`
        AND NOT EXISTS (SELECT 1 FROM sent_mails m
          WHERE m.key = ${`${LINEUP_MAIL_QUEUE}:`} || p.session_id::text || ':' || p.artist_profile_id::text)
        AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.queue = ${LINEUP_MAIL_QUEUE}
          AND j.key = p.session_id::text || ':' || p.artist_profile_id::text)`)}
      LIMIT 500`,
  );
  for (const { key } of due) await enqueueJob(tx, { queue: LINEUP_MAIL_QUEUE, key });
}

type Ctx = Pick<AppContext, "db" | "env" | "mailer">;

/** The mail, if the artist is still in the lineup, has not answered, and the session has ended. */
async function lineupMailOf(ctx: Ctx, tx: Queryable, sessionId: string, artistId: string) {
  if (!isUuid(sessionId) || !isUuid(artistId)) return null;
  const [row] = await queryRows<{
    email: string;
    name: string;
    ownerName: string;
    title: string;
    startTime: Date | string;
    timeZone: string;
  }>(
    tx,
    sql`SELECT u.email, me.artist_name AS name, owner.artist_name AS "ownerName", s.title,
        s.start_time AS "startTime", owner.time_zone AS "timeZone"
      ${askable(sql`AND p.session_id = ${sessionId} AND p.artist_profile_id = ${artistId}`)}
      LIMIT 1`,
  );
  if (!row) return null;
  const when = formatWallClock(new Date(row.startTime), row.timeZone, { withZone: true });
  return composeMail(row.email, `Did ${row.ownerName}'s session take place as logged?`, [
    `Hi ${row.name},`,
    `${row.ownerName}'s session "${row.title}" on ${when} has ended. You joined its lineup: did it take place as logged?`,
    "Your answer counts toward how the session is verified. Answer once, on the session's page:",
    new URL(`/sessions/${sessionId}`, ctx.env.appUrl).href,
  ]);
}

/**
 * The lineup's mails: the scan every 5 minutes (in its transaction), and each mail sent outside
 * the database, at most once.
 */
export function lineupMailJobs(ctx: Ctx): QueueHandler[] {
  return [
    {
      queue: LINEUP_ENDED_QUEUE,
      everySeconds: 300,
      leaseSeconds: 120,
      inTransaction: (tx) => queueLineupMails(tx),
    },
    {
      queue: LINEUP_MAIL_QUEUE,
      leaseSeconds: 120,
      outside: (job: Job) => sendLineupMail(ctx, job),
    },
  ];
}

async function sendLineupMail(ctx: Ctx, job: Job) {
  const [sessionId = "", artistId = ""] = job.key.split(":");
  await sendMailOnce(ctx, `${LINEUP_MAIL_QUEUE}:${job.key}`, (tx) =>
    lineupMailOf(ctx, tx, sessionId, artistId),
  );
}
