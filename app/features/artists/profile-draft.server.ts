import { deflateRawSync, inflateRawSync } from "node:zlib";
import { typedValues } from "~/lib/form.server";
import { type ProfileDraft, ProfileDraftSchema } from "./artists.schema";

/**
 * What a newcomer types into profile set-up, kept in their browser until the profile exists
 * (decision 040): in cookies sent only to `/profile-setup`, so the tab a confirmation mail opens
 * finds it too, and the page is drawn with it on the server, also without JavaScript. The draft is
 * JSON, deflated and base64url-encoded, split over at most `CHUNKS` cookies of `CHUNK` characters
 * (a browser keeps about 4 KB a cookie); a 2,000-character bio in any script fits. Nothing is
 * stored on the server.
 */

const NAME = "gl_profile_draft";
const PATH = "/profile-setup";
const CHUNK = 3_800;
const CHUNKS = 4;
/** A draft is kept three days: long enough for a confirmation mail, short on a shared computer. */
const MAX_AGE_S = 3 * 24 * 60 * 60;
/** A cookie never inflates to more than this (a few KB of real text): no bomb gets through. */
const MAX_TEXT = 64 * 1024;

const cookie = (i: number, value: string, maxAge: number) =>
  `${NAME}.${i}=${value}; Path=${PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax`;

/** The draft in `form` (fields left out read as empty), or null when nothing was typed. */
export function draftOf(form: FormData): ProfileDraft | null {
  // What was typed as the form's refill reads it (the ticked occasions one per line).
  const values = typedValues(form);
  const draft = ProfileDraftSchema.parse(
    Object.fromEntries(Object.keys(ProfileDraftSchema.shape).map((k) => [k, values[k]])),
  );
  const { timeZone: _zone, ...typed } = draft;
  return Object.values(typed).some((v) => v.trim() !== "") ? draft : null;
}

/**
 * The Set-Cookie headers that keep `draft`, or forget the one kept (null). A draft too large for
 * the cookies (not possible within the form's limits) leaves the one kept as it is.
 */
export function profileDraftCookies(draft: ProfileDraft | null): string[] {
  if (!draft) return Array.from({ length: CHUNKS }, (_, i) => cookie(i, "", 0));
  const kept = Object.fromEntries(Object.entries(draft).filter(([, v]) => v !== ""));
  const encoded = deflateRawSync(JSON.stringify(kept)).toString("base64url");
  if (encoded.length > CHUNK * CHUNKS) return [];
  return Array.from({ length: CHUNKS }, (_, i) => {
    const part = encoded.slice(i * CHUNK, (i + 1) * CHUNK);
    return part ? cookie(i, part, MAX_AGE_S) : cookie(i, "", 0);
  });
}

/** `profileDraftCookies(draft)` as a response's headers. */
export function profileDraftHeaders(draft: ProfileDraft | null): Headers {
  const headers = new Headers();
  for (const cookie of profileDraftCookies(draft)) headers.append("Set-Cookie", cookie);
  return headers;
}

/** The draft this browser keeps, or null (none, or one that does not read back). */
export function readProfileDraft(request: Request): ProfileDraft | null {
  const values = new Map<string, string>();
  for (const pair of (request.headers.get("Cookie") ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at > 0) values.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  let encoded = "";
  for (let i = 0; i < CHUNKS; i++) {
    const part = values.get(`${NAME}.${i}`);
    if (!part) break;
    encoded += part;
  }
  if (!encoded || !/^[\w-]+$/.test(encoded)) return null;
  try {
    const text = inflateRawSync(Buffer.from(encoded, "base64url"), { maxOutputLength: MAX_TEXT });
    const parsed = ProfileDraftSchema.safeParse(JSON.parse(text.toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
