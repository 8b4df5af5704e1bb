import ArrowLeft from "lucide-react/icons/arrow-left";
import BadgeCheck from "lucide-react/icons/badge-check";
import Calendar from "lucide-react/icons/calendar";
import Clock from "lucide-react/icons/clock";
import MapPin from "lucide-react/icons/map-pin";
import Pencil from "lucide-react/icons/pencil";
import Share2 from "lucide-react/icons/share-2";
import Trash2 from "lucide-react/icons/trash";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button, buttonClasses } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Pill, PillList } from "~/components/ui/pill";
import { Spinner } from "~/components/ui/spinner";
import type { MediaItem } from "~/features/media/media.server";
import { MediaList } from "~/features/media/media-list";
import type { MediaLimitsMb } from "~/features/media/media-type";
import { MediaUpload } from "~/features/media/media-upload";
import type { SharingMode } from "~/features/music-sessions/music-sessions.policy";
import type { SessionDetail as Detail } from "~/features/music-sessions/music-sessions.server";
import { SessionForm, type SessionFormValues } from "~/features/music-sessions/session-form";
import { SESSION_TYPE_LABELS } from "~/features/music-sessions/session-types";
import { SharePanel, type ShareReply } from "~/features/sharing/share-panel";
import { VerificationLevelBadge } from "~/features/verification/verification-level-badge";
import { VOID_REASON_TEXT } from "~/features/verification/verification-levels";
import { formatDay, formatMinutes, formatWallClock, zoneAbbreviation } from "~/lib/dates";
import { fileUrl } from "~/lib/file-url";
import type { FormReply } from "~/lib/form";
import { usePending } from "~/lib/use-pending";

export const DETAIL_TABS = ["details", "media", "collaborators", "verification"] as const;
export type DetailTab = (typeof DETAIL_TABS)[number];
const TAB_LABELS: Record<DetailTab, string> = {
  details: "Details",
  media: "Media",
  collaborators: "Collaborators",
  verification: "Verification",
};

export type DetailPanel = "share" | "delete" | "edit";

/** The edit form's starting values: what is stored, as the form would send it. */
function storedValues(session: NonNullable<Detail>): SessionFormValues {
  return {
    sessionType: session.sessionType,
    title: session.title,
    description: session.description ?? "",
    venue: session.venue ?? "",
    location: session.location ?? "",
    startTime: session.startInput,
    durationMinutes: String(session.durationMinutes),
    instruments: session.instrumentsUsed.join(", "),
    genres: session.genres.join(", "),
    tags: session.tags.join(", "),
  };
}

/**
 * A session's page: its details in the owner's time zone, media, collaborators and verification;
 * for the owner also Edit, Share and Delete. Panels open from the address (`?panel=`), so each
 * works without JavaScript.
 */
export function SessionDetailView({
  session,
  media,
  isOwner,
  tab,
  panel,
  mode,
  returnTo,
  mediaLimits,
  shareResult,
  editResult,
}: {
  session: NonNullable<Detail>;
  /** The session's files, newest first. */
  media: MediaItem[];
  isOwner: boolean;
  tab: DetailTab;
  panel: DetailPanel | null;
  mode: SharingMode;
  returnTo: string;
  mediaLimits: MediaLimitsMb;
  shareResult?: ShareReply;
  /** The answer to a refused edit: its errors and what was typed. */
  editResult?: FormReply<unknown>;
}) {
  const query = (next: Record<string, string>) => {
    const params = new URLSearchParams({ ...next });
    if (returnTo) params.set("returnTo", returnTo);
    return `?${params}`;
  };
  return (
    <main id="main" className="mx-auto max-w-4xl space-y-6 px-4 py-8">
      <Link to={returnTo} className={buttonClasses("ghost", "sm", "-ml-3")}>
        <ArrowLeft aria-hidden className="h-4 w-4" /> Back
      </Link>
      <header className="space-y-2">
        <p className="text-sm font-medium text-brand-700">
          {SESSION_TYPE_LABELS[session.sessionType]}
        </p>
        <h1 className="flex flex-wrap items-center gap-2 text-2xl font-bold wrap-anywhere sm:text-3xl">
          <span className="min-w-0">{session.title}</span>
          {session.isVerified ? (
            <Pill tone="success" size="sm" icon={BadgeCheck} className="font-medium">
              Verified
            </Pill>
          ) : null}
        </h1>
        <p className="wrap-anywhere text-slate-600">
          by{" "}
          <Link to={`/artist/${session.artistSlug}`} className="text-brand-700 underline">
            {session.artistName}
          </Link>
        </p>
        <VerificationLevelBadge level={session.level} timeZone={session.timeZone} />
        {isOwner ? (
          <div className="flex flex-wrap gap-2 pt-2">
            {session.canEditDetails ? (
              <Link
                to={query({ tab, panel: "edit" })}
                preventScrollReset
                className={buttonClasses("outline", "sm")}
              >
                <Pencil aria-hidden className="h-4 w-4" /> Edit Session
              </Link>
            ) : null}
            <Link
              to={query({ tab, panel: "share" })}
              preventScrollReset
              className={buttonClasses("outline", "sm")}
            >
              <Share2 aria-hidden className="h-4 w-4" /> Share Session
            </Link>
            <Link
              to={query({ tab, panel: "delete" })}
              preventScrollReset
              className={buttonClasses("outline", "sm", "text-red-700")}
            >
              <Trash2 aria-hidden className="h-4 w-4" /> Delete
            </Link>
          </div>
        ) : null}
      </header>

      {session.viewerLineup?.canAnswer ? <LineupQuestion session={session} /> : null}

      {isOwner && panel === "share" ? (
        <SharePanel sessionId={session.id} mode={mode} fallback={shareResult} />
      ) : null}
      {isOwner && panel === "delete" ? (
        <DeletePanel sessionId={session.id} returnTo={returnTo} cancelHref={query({ tab })} />
      ) : null}
      {session.canEditDetails && panel === "edit" ? (
        <section aria-labelledby="edit-title">
          <Card padding="fluid">
            <h2 id="edit-title" className="text-lg font-semibold">
              Edit Session
            </h2>
            {session.canChangeSchedule ? null : (
              <p className="mt-1 text-sm text-slate-600">
                This session has been verified: its type, date and time, duration and venue are
                locked. The title, description, location, instruments, genres and tags can still be
                changed.
              </p>
            )}
            <div className="mt-4">
              <SessionForm
                mode="edit"
                values={editResult?.values ?? storedValues(session)}
                errors={editResult?.fieldErrors}
                formError={editResult?.formError}
                returnTo={returnTo}
                cancelHref={query({ tab })}
                action={`/sessions/${session.id}${query({ panel: "edit" })}`}
                timeZone={session.timeZone}
                zoneName={zoneAbbreviation(session.timeZone, session.startTime)}
                scheduleLocked={!session.canChangeSchedule}
              />
            </div>
          </Card>
        </section>
      ) : null}

      <nav aria-label="Session sections">
        {/* Two by two on a phone, so no tab is cut off; a row of tabs from 640 px. */}
        <ul className="grid grid-cols-2 gap-2 sm:flex sm:gap-1 sm:border-b sm:border-slate-200">
          {DETAIL_TABS.map((t) => (
            <li key={t}>
              <Link
                to={query({ tab: t })}
                preventScrollReset
                replace
                aria-current={t === tab ? "page" : undefined}
                className={`flex justify-center rounded-lg px-4 py-2 text-sm font-medium whitespace-nowrap sm:inline-flex sm:rounded-none sm:border-b-2 ${
                  t === tab
                    ? "bg-brand-600 text-white sm:border-brand-600 sm:bg-transparent sm:text-brand-700"
                    : "bg-slate-100 text-slate-700 hover:text-slate-900 sm:border-transparent sm:bg-transparent sm:text-slate-600"
                }`}
              >
                {TAB_LABELS[t]}
                {t === "media" && media.length > 0 ? ` (${media.length})` : ""}
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <section aria-label={TAB_LABELS[tab]}>
        {tab === "details" ? <DetailsTab session={session} /> : null}
        {tab === "media" ? (
          <div className="space-y-4">
            {isOwner ? <MediaUpload sessionId={session.id} limits={mediaLimits} /> : null}
            <MediaList media={media} sessionId={session.id} canEdit={isOwner} />
          </div>
        ) : null}
        {tab === "collaborators" ? <CollaboratorsTab session={session} /> : null}
        {tab === "verification" ? <VerificationTab session={session} media={media} /> : null}
      </section>
    </main>
  );
}

function Row({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="flex items-center gap-2 text-xs font-medium tracking-wide text-slate-500 uppercase">
        <span className="text-slate-400">{icon}</span>
        {label}
      </dt>
      <dd className="mt-0.5 pl-6 text-slate-900 wrap-anywhere">{children}</dd>
    </div>
  );
}

function ChipList({ label, items }: { label: string; items: string[] }) {
  return (
    <div className="min-w-0">
      <h3 className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</h3>
      {items.length === 0 ? (
        <p className="text-sm text-slate-500">None</p>
      ) : (
        <PillList label={label} items={items} tone="neutral" size="sm" className="mt-1 gap-1.5" />
      )}
    </div>
  );
}

/** The date and time are the owner's wall clock, with the zone's short name, for every viewer. */
function DetailsTab({ session }: { session: NonNullable<Detail> }) {
  return (
    <div className="space-y-6 pt-4">
      <dl className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Row icon={<Calendar aria-hidden className="h-4 w-4" />} label="Date">
          <time dateTime={session.startTime.toISOString()}>
            {formatWallClock(session.startTime, session.timeZone, { withZone: true })}
          </time>
        </Row>
        <Row icon={<Clock aria-hidden className="h-4 w-4" />} label="Duration">
          {formatMinutes(session.durationMinutes)}
        </Row>
        <Row icon={<MapPin aria-hidden className="h-4 w-4" />} label="Venue">
          {[session.venue ?? session.privateVenue, session.location].filter(Boolean).join(", ") ||
            "Not specified"}
          {session.privateVenue ? (
            <span className="mt-0.5 block text-sm text-slate-600">
              Only you and the client see the venue: the client keeps it off the public history.
            </span>
          ) : null}
        </Row>
      </dl>
      {session.description ? (
        <p className="whitespace-pre-line wrap-anywhere text-slate-700">{session.description}</p>
      ) : null}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <ChipList label="Instruments" items={session.instrumentsUsed} />
        <ChipList label="Genres" items={session.genres} />
        <ChipList label="Tags" items={session.tags} />
      </div>
    </div>
  );
}

function CollaboratorsTab({ session }: { session: NonNullable<Detail> }) {
  if (session.participants.length === 0)
    return <p className="py-6 text-center text-slate-600">No collaborators or verifiers yet</p>;
  return (
    <ul aria-label="Participants" className="divide-y divide-slate-100 pt-2">
      {session.participants.map((p) => (
        <li key={p.id} className="flex items-start justify-between gap-3 py-3">
          <div className="min-w-0 wrap-anywhere">
            <Link to={`/artist/${p.artistSlug}`} className="font-medium text-brand-700 underline">
              {p.artistName}
            </Link>
            <p className="text-sm text-slate-600 capitalize">{p.participationType}</p>
            {p.notes ? <p className="mt-1 text-sm text-slate-700">{p.notes}</p> : null}
          </div>
          <Pill
            tone={p.verificationStatus === "verified" ? "success" : "warning"}
            className="shrink-0 font-medium"
          >
            {p.verificationStatus === "verified" ? "Verified" : "Pending"}
          </Pill>
        </li>
      ))}
    </ul>
  );
}

const METHOD_LABELS: Record<string, string> = {
  peer: "Peer verification",
  client_booking: "Client booking",
  lineup: "Lineup",
};

function VerificationTab({ session, media }: { session: NonNullable<Detail>; media: MediaItem[] }) {
  const day = (at: Date) => formatDay(at, session.timeZone);
  return (
    <div className="space-y-4 pt-4">
      <h3 className="font-semibold">Verified by</h3>
      {session.level.verifiers.length === 0 ? (
        <p className="text-slate-600">
          Nobody yet: this session is Self-logged.{" "}
          <Link to="/verification" className="text-brand-700 underline">
            What the levels mean
          </Link>
        </p>
      ) : null}
      {session.level.verifiers.length > 0 ? (
        <ul aria-label="Verified by" className="space-y-1 text-sm">
          {session.level.verifiers.map((v) => (
            <li key={`${v.name}-${v.at.toISOString()}`} className="wrap-anywhere">
              {v.artistSlug ? (
                <Link to={`/artist/${v.artistSlug}`} className="text-brand-700 underline">
                  {v.name}
                </Link>
              ) : (
                <span className="capitalize">{v.name}</span>
              )}{" "}
              <span className="text-slate-600">
                · <time dateTime={v.at.toISOString()}>{day(v.at)}</time>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      <dl className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <Card variant="item" padding="sm">
          <dt className="text-sm text-slate-600">Status</dt>
          <dd
            className={`mt-1 font-semibold ${session.isVerified ? "text-emerald-700" : "text-slate-900"}`}
          >
            {session.isVerified ? "Verified" : "Not verified yet"}
          </dd>
        </Card>
        <Card variant="item" padding="sm">
          <dt className="text-sm text-slate-600">Method</dt>
          <dd className="mt-1 font-semibold">
            {session.verificationMethod ? METHOD_LABELS[session.verificationMethod] : "None yet"}
          </dd>
        </Card>
        <Card variant="item" padding="sm">
          <dt className="text-sm text-slate-600">Peer score</dt>
          <dd className="mt-1 font-semibold">
            {session.peerVerificationScore === null
              ? "No score yet"
              : `${session.peerVerificationScore}%`}
          </dd>
        </Card>
      </dl>
      <p className="text-sm text-slate-600">
        A session is Peer-confirmed once two artists have confirmed it after it ended, or one who
        has a client-verified gig of their own. The peer score is the average of their trust scores.
      </p>
      <h3 className="font-semibold">Peer verifications</h3>
      {session.verifications.length === 0 ? (
        <p className="text-slate-600">No peer verifications yet</p>
      ) : (
        <ul aria-label="Peer verifications" className="divide-y divide-slate-100">
          {session.verifications.map((v) => (
            <li key={v.id} className="flex items-start justify-between gap-3 py-3">
              <div className="min-w-0 wrap-anywhere">
                <Link
                  to={`/artist/${v.artistSlug}`}
                  className="font-medium text-brand-700 underline"
                >
                  {v.artistName}
                </Link>
                <p className="text-sm text-slate-600">
                  {v.verificationType} · {v.verificationLevel}
                </p>
                {v.notes ? <p className="mt-1 text-sm text-slate-700">{v.notes}</p> : null}
                <DoesNotCount session={session} artistSlug={v.artistSlug} />
              </div>
              <Pill tone="brand" size="sm" className="shrink-0 font-medium">
                Trust score {v.trustScore}
              </Pill>
            </li>
          ))}
        </ul>
      )}
      <LineupAnswers session={session} />
      <EvidenceList media={media} timeZone={session.timeZone} />
    </div>
  );
}

/** Why a recorded confirmation does not lift the level (decision 046), if it does not. */
function DoesNotCount({
  session,
  artistSlug,
}: {
  session: NonNullable<Detail>;
  artistSlug: string;
}) {
  const uncounted = session.level.uncounted?.find((u) => u.artistSlug === artistSlug);
  if (!uncounted) return null;
  return (
    <p className="mt-1 text-sm text-amber-800">
      Does not count: {VOID_REASON_TEXT[uncounted.reason]}.
    </p>
  );
}

/** The joined collaborators' answers after the start: confirmed or declined, and when. */
function LineupAnswers({ session }: { session: NonNullable<Detail> }) {
  const joined = session.participants.filter((p) => p.participationType === "collaborator");
  if (joined.length === 0) return null;
  const answers = new Map(session.lineupAnswers.map((a) => [a.artistProfileId, a]));
  return (
    <>
      <h3 className="font-semibold">Lineup</h3>
      <p className="text-sm text-slate-600">
        Once the session has ended, each artist who joined it confirms it took place as logged. When
        every one of them has, and at least two artists have vouched for it, it is Lineup-verified.
      </p>
      <ul aria-label="Lineup answers" className="divide-y divide-slate-100">
        {joined.map((p) => {
          const a = answers.get(p.artistProfileId);
          return (
            <li key={p.id} className="flex items-start justify-between gap-3 py-2">
              <div className="min-w-0 wrap-anywhere">
                <Link
                  to={`/artist/${p.artistSlug}`}
                  className="font-medium text-brand-700 underline"
                >
                  {p.artistName}
                </Link>
                {a?.answer === "confirmed" ? (
                  <DoesNotCount session={session} artistSlug={p.artistSlug} />
                ) : null}
              </div>
              <span className="shrink-0 text-sm text-slate-700">
                {a
                  ? `${a.answer === "confirmed" ? "Confirmed" : "Declined"} on ${formatDay(a.at, session.timeZone)}`
                  : "Not answered yet"}
              </span>
            </li>
          );
        })}
      </ul>
    </>
  );
}

/**
 * Each uploaded file with its SHA-256, so anyone holding a copy can check it is the same file.
 * A file uploaded before hashes were kept says so (decision 017).
 */
function EvidenceList({ media, timeZone }: { media: MediaItem[]; timeZone: string }) {
  return (
    <>
      <h3 className="font-semibold">Evidence</h3>
      {media.length === 0 ? (
        <p className="text-slate-600">No files uploaded</p>
      ) : (
        <ul aria-label="Evidence files" className="divide-y divide-slate-100">
          {media.map((m) => (
            <li key={m.id} className="min-w-0 py-2 text-sm">
              <a
                href={fileUrl(m.filePath)}
                className="font-medium text-brand-700 underline wrap-anywhere"
              >
                {m.fileName}
              </a>
              <p className="text-slate-600">
                Uploaded{" "}
                <time dateTime={m.createdAt.toISOString()}>{formatDay(m.createdAt, timeZone)}</time>
              </p>
              <p className="font-mono text-xs break-all text-slate-800">
                {m.sha256 ? (
                  <>
                    SHA-256 <span data-sha256>{m.sha256}</span>
                  </>
                ) : (
                  "SHA-256 not recorded (uploaded before hashes were kept)"
                )}
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/**
 * After the start, an artist who joined the session answers whether it took place as logged. Two
 * real submit buttons of one form, so it works without JavaScript.
 */
function LineupQuestion({ session }: { session: NonNullable<Detail> }) {
  const busy = usePending({ intent: "lineup" });
  return (
    <section
      aria-labelledby="lineup-title"
      className="rounded-xl border border-brand-200 bg-brand-50 p-4"
    >
      <h2 id="lineup-title" className="font-semibold">
        Did this session take place as logged?
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        You joined it as a collaborator. When everyone in the lineup confirms, it becomes
        Lineup-verified. Your answer is final and shown on the session.
      </p>
      <Form method="post" action={`/sessions/${session.id}`} className="mt-3 flex flex-wrap gap-2">
        <input type="hidden" name="intent" value="lineup" />
        <Button type="submit" name="answer" value="confirmed" disabled={busy}>
          Confirm it happened
        </Button>
        <Button type="submit" name="answer" value="declined" variant="outline" disabled={busy}>
          It didn't happen as logged
        </Button>
      </Form>
    </section>
  );
}

function DeletePanel({
  sessionId,
  returnTo,
  cancelHref,
}: {
  sessionId: string;
  returnTo: string;
  cancelHref: string;
}) {
  const deleting = usePending({ intent: "delete" });
  return (
    <section
      aria-labelledby="delete-title"
      role="alertdialog"
      aria-describedby="delete-text"
      className="rounded-xl border border-red-200 bg-red-50 p-4"
    >
      <h2 id="delete-title" className="font-semibold text-red-900">
        Delete this session?
      </h2>
      <p id="delete-text" className="mt-1 text-sm text-red-900">
        The session, its media and its verifications are removed for good.
      </p>
      <Form method="post" action={`/sessions/${sessionId}`} className="mt-3 flex flex-wrap gap-2">
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="returnTo" value={returnTo} />
        <Link to={cancelHref} preventScrollReset className={buttonClasses("outline", "md")}>
          Cancel
        </Link>
        <Button type="submit" variant="destructive" disabled={deleting}>
          {deleting ? <Spinner /> : <Trash2 aria-hidden className="h-4 w-4" />} Delete Session
        </Button>
      </Form>
    </section>
  );
}
