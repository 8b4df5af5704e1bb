// Files on a problem report or its answer (issue 42, docs/decisions/058): photos, sounds or a PDF,
// recognised from their first bytes (never the name or the declared type), hashed with SHA-256 and
// stored like session media, but never public: only the booking's parties and operators read them
// (`/bookings/{id}/problem/files/{fileId}`; /files/problems/… answers 404).
import { createHash, randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { detectMediaKind } from "~/features/media/media-type";
import type { AppContext } from "~/lib/context";
import { type Queryable, queryRows } from "~db/client";

export const MAX_PROBLEM_FILES = 3;
/** All of a report's files together (the form's own limit is 6 MB). */
export const MAX_PROBLEM_FILES_BYTES = 5 * 1024 * 1024;
export const PROBLEM_FILES_PREFIX = "problems/";

type Kind = { ext: string; mime: string };

function kindOf(head: Uint8Array): Kind | null {
  if (String.fromCharCode(...head.subarray(0, 5)) === "%PDF-")
    return { ext: "pdf", mime: "application/pdf" };
  const media = detectMediaKind(head);
  if (!media || media.mediaType === "video") return null;
  return { ext: media.ext, mime: media.mime };
}

export type ProblemUpload = { name: string; bytes: Buffer; kind: Kind };

/**
 * The form's `files`, checked: at most three, 5 MB together, each a photo, a sound or a PDF. An
 * empty file input (the browser sends one nameless empty part) counts as none.
 */
export async function readProblemFiles(
  form: FormData,
): Promise<{ ok: true; files: ProblemUpload[] } | { ok: false; message: string }> {
  const parts = form.getAll("files").filter((p): p is File => typeof p !== "string" && p.size > 0);
  if (parts.length > MAX_PROBLEM_FILES)
    return { ok: false, message: `Attach at most ${MAX_PROBLEM_FILES} files.` };
  const total = parts.reduce((sum, p) => sum + p.size, 0);
  if (total > MAX_PROBLEM_FILES_BYTES)
    return { ok: false, message: "The files can be at most 5 MB together." };
  const files: ProblemUpload[] = [];
  for (const part of parts) {
    const bytes = Buffer.from(await part.arrayBuffer());
    const kind = kindOf(bytes.subarray(0, 16));
    if (!kind)
      return {
        ok: false,
        message: `${part.name.slice(0, 80) || "A file"} is not a photo (JPG, PNG, GIF, WebP), a sound (MP3, WAV) or a PDF.`,
      };
    files.push({ name: (part.name || `file.${kind.ext}`).slice(0, 200), bytes, kind });
  }
  return { ok: true, files };
}

export type StoredProblemFile = ProblemUpload & { id: string; key: string; sha256: string };

/** Puts the files in storage first (keys of our own); their rows are written with the report. */
export async function putProblemFiles(
  storage: AppContext["storage"],
  files: ProblemUpload[],
): Promise<StoredProblemFile[]> {
  const stored: StoredProblemFile[] = [];
  for (const file of files) {
    const id = randomUUID();
    const key = `${PROBLEM_FILES_PREFIX}${id}.${file.kind.ext}`;
    await storage.put(key, file.bytes, file.kind.mime);
    stored.push({
      ...file,
      id,
      key,
      sha256: createHash("sha256").update(file.bytes).digest("hex"),
    });
  }
  return stored;
}

/** The files' rows, in the transaction of the report or the answer they belong to. */
export async function recordProblemFiles(
  tx: Queryable,
  reportId: string,
  side: "report" | "answer",
  files: StoredProblemFile[],
  at: Date,
) {
  for (const file of files)
    await tx.execute(
      sql`INSERT INTO problem_files (id, report_id, side, name, content_type, size_bytes, sha256,
            storage_key, created_at)
          VALUES (${file.id}, ${reportId}, ${side}, ${file.name}, ${file.kind.mime},
            ${file.bytes.length}, ${file.sha256}, ${file.key}, ${at.toISOString()})`,
    );
}

export type ProblemFile = {
  id: string;
  reportId: string;
  side: "report" | "answer";
  name: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
};

export async function problemFilesOf(db: Queryable, reportIds: string[]): Promise<ProblemFile[]> {
  if (reportIds.length === 0) return [];
  return queryRows<ProblemFile>(
    db,
    sql`SELECT id, report_id AS "reportId", side, name, content_type AS "contentType",
          size_bytes AS "sizeBytes", sha256
        FROM problem_files WHERE report_id IN (${sql.join(
          reportIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
        ORDER BY created_at, name`,
  );
}

/** One file with the booking it belongs to, for the checked download. */
export async function problemFileOf(
  db: Queryable,
  fileId: string,
): Promise<(ProblemFile & { bookingId: string; storageKey: string }) | null> {
  if (!/^[0-9a-f-]{36}$/.test(fileId)) return null;
  const [row] = await queryRows<ProblemFile & { bookingId: string; storageKey: string }>(
    db,
    sql`SELECT f.id, f.report_id AS "reportId", f.side, f.name, f.content_type AS "contentType",
          f.size_bytes AS "sizeBytes", f.sha256, f.storage_key AS "storageKey",
          p.booking_id AS "bookingId"
        FROM problem_files f JOIN problem_reports p ON p.id = f.report_id
        WHERE f.id = ${fileId}::uuid`,
  );
  return row ?? null;
}
