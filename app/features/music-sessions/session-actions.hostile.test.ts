import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createSharingLink } from "~/features/sharing/sharing.server";
import { musicSessions, sessionMedia } from "~db/schema";
import { addArtistProfile } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";

/**
 * Hostile requests to every action of sessions, media and sharing: a NUL byte in each field, a
 * body that is not a form (JSON, multipart without a boundary, multipart cut short) and an
 * impossible date. Each gets a clear 4xx answer, never a 5xx, and nothing is written.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
let owner: Awaited<ReturnType<typeof signedInUser>>;
let joiner: Awaited<ReturnType<typeof signedInUser>>;
let ownerArtistId: string;
let pastId: string;
let mediaId: string;
let futureToken: string;
let pastToken: string;

const NUL = "abc\u0000def";
const HOUR = 3_600_000;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  owner = await signedInUser(app, database.db, "Owner");
  joiner = await signedInUser(app, database.db, "Joiner");
  ownerArtistId = await addArtistProfile({ db: database.db }, owner.id);
  await addArtistProfile({ db: database.db }, joiner.id);
});
// Each test gets sessions, a photo and share links of its own: the well-formed test deletes them.
beforeEach(async () => {
  const insert = async (startTime: Date) => {
    const [row] = await database.db
      .insert(musicSessions)
      .values({ artistProfileId: ownerArtistId, title: "Set", sessionType: "jam", startTime })
      .returning({ id: musicSessions.id });
    return row!.id;
  };
  pastId = await insert(new Date(Date.now() - 24 * HOUR));
  const futureId = await insert(new Date(Date.now() + 24 * HOUR));
  const [media] = await database.db
    .insert(sessionMedia)
    .values({
      sessionId: pastId,
      mediaType: "photo",
      filePath: `media/${pastId}/x.png`,
      fileName: "x.png",
      fileSize: 1,
      mimeType: "image/png",
    })
    .returning({ id: sessionMedia.id });
  mediaId = media!.id;
  const actor = { id: owner.id, roles: ["artist"] as const, artistProfileId: ownerArtistId };
  const ctx = { db: database.db, env: app.env };
  const tokenOf = (url: string) => url.split("/join-session/")[1] ?? "";
  futureToken = tokenOf(
    (await createSharingLink(ctx, actor, { sessionId: futureId, maxUses: null })).url,
  );
  pastToken = tokenOf(
    (await createSharingLink(ctx, actor, { sessionId: pastId, maxUses: null })).url,
  );
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

type Action = { name: string; path: () => string; cookie: () => string; fields: () => Fields };
type Fields = Record<string, string>;

/** Every action of these features, with a well-formed form for each. */
const ACTIONS: Action[] = [
  {
    name: "log a session",
    path: () => "/sessions/new",
    cookie: () => owner.cookie,
    fields: () => ({
      intent: "create",
      returnTo: "/artist-dashboard?tab=sessions",
      sessionType: "jam",
      title: "Sunday jam",
      description: "Standards",
      venue: "Loft",
      location: "Chicago",
      startTime: "2026-11-21T19:30",
      timezoneOffset: "0",
      durationMinutes: "90",
      instruments: "Sax",
      genres: "Jazz",
      tags: "live",
    }),
  },
  {
    name: "delete a session",
    path: () => `/sessions/${pastId}`,
    cookie: () => owner.cookie,
    fields: () => ({ intent: "delete", returnTo: "/artist-dashboard?tab=sessions" }),
  },
  {
    name: "share a session",
    path: () => `/sessions/${pastId}`,
    cookie: () => owner.cookie,
    fields: () => ({ intent: "share", maxUses: "3" }),
  },
  {
    name: "delete media",
    path: () => `/sessions/${pastId}/media`,
    cookie: () => owner.cookie,
    fields: () => ({ intent: "delete-media", mediaId }),
  },
  {
    name: "join a session",
    path: () => `/join-session/${futureToken}`,
    cookie: () => joiner.cookie,
    fields: () => ({ intent: "join", notes: "keys" }),
  },
  {
    name: "verify a session",
    path: () => `/join-session/${pastToken}`,
    cookie: () => joiner.cookie,
    fields: () => ({ intent: "verify", notes: "was there", trustScore: "75" }),
  },
];

function post(action: Action, body: BodyInit, contentType?: string) {
  return app.request(action.path(), {
    method: "POST",
    body,
    headers: {
      ...(contentType ? { "Content-Type": contentType } : {}),
      Origin: app.env.appUrl.origin,
      Cookie: action.cookie(),
    },
    redirect: "manual",
  });
}

const urlEncoded = (fields: Fields) => new URLSearchParams(fields);
function multipart(fields: Fields) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return form;
}

/** Nothing any of these requests may change. */
async function snapshot() {
  const [sessions] = await database.db.select({ n: count() }).from(musicSessions);
  const [media] = await database.db.select({ n: count() }).from(sessionMedia);
  return { sessions: sessions?.n, media: media?.n };
}

describe("hostile form bodies to the session, media and sharing actions", () => {
  it("a NUL byte in any field is a 400, URL-encoded or multipart, and writes nothing", async () => {
    const before = await snapshot();
    const failures: string[] = [];
    for (const action of ACTIONS) {
      for (const field of Object.keys(action.fields())) {
        for (const [encoding, encode] of [
          ["urlencoded", urlEncoded],
          ["multipart", multipart],
        ] as const) {
          const res = await post(action, encode({ ...action.fields(), [field]: NUL }));
          if (res.status !== 400)
            failures.push(`${action.name}: ${field} (${encoding}) → ${res.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it("JSON, multipart without a boundary and multipart cut short get 415 or 400", async () => {
    const before = await snapshot();
    const failures: string[] = [];
    for (const action of ACTIONS) {
      const cases: [string, BodyInit, string, number][] = [
        ["JSON", JSON.stringify(action.fields()), "application/json", 415],
        ["plain text", "intent=create", "text/plain", 415],
        ["multipart without a boundary", "intent=x", "multipart/form-data", 400],
        [
          "multipart cut short",
          '--XyZ\r\nContent-Disposition: form-data; name="intent"\r\n\r\ncre',
          "multipart/form-data; boundary=XyZ",
          400,
        ],
      ];
      for (const [kind, body, type, expected] of cases) {
        const res = await post(action, body, type);
        if (res.status !== expected)
          failures.push(`${action.name}: ${kind} → ${res.status} (expected ${expected})`);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it("an impossible date or time for a new session is a field error", async () => {
    const before = await snapshot();
    const [create] = ACTIONS;
    for (const startTime of ["2026-13-01T10:00", "9999-99-99T10:00", "2026-02-30T25:00"]) {
      const res = await post(create!, urlEncoded({ ...create!.fields(), startTime }));
      expect(res.status, startTime).toBe(400);
      expect(await res.text()).toContain("Please enter a valid date and time");
    }
    expect(await snapshot()).toEqual(before);
  });

  it("a NUL byte in the address of a session page is a 404 or a redirect, never a 5xx", async () => {
    const paths = [
      "/sessions/abc%00def",
      `/sessions/${pastId}?tab=a%00&panel=share%00&returnTo=/x%00y`,
      "/sessions/abc%00def/media",
      "/join-session/abc%00def",
    ];
    for (const path of paths) {
      const res = await app.request(path, {
        headers: { Cookie: owner.cookie },
        redirect: "manual",
      });
      expect(res.status, path).toBeLessThan(500);
    }
  });
});

describe("hostile uploads to PUT /api/sessions/:id/media", () => {
  let png: Buffer;
  beforeAll(async () => {
    png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
  });

  const put = (body: BodyInit | ReadableStream, type: string, query = "fileName=a.png") =>
    app.request(`/api/sessions/${pastId}/media?${query}`, {
      method: "PUT",
      body,
      headers: { "Content-Type": type, Origin: app.env.appUrl.origin, Cookie: owner.cookie },
      // A streamed request body needs this in Node's fetch.
      ...({ duplex: "half" } as object),
    });

  /** A body that sends `first` and then breaks off, as a dropped connection does. */
  const brokenBody = (first: Uint8Array) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(first);
      },
      pull(controller) {
        controller.error(new Error("connection reset"));
      },
    });

  it("refuses what is not media with 415, a body cut short with 400, a NUL description with 400", async () => {
    const before = await snapshot();
    const octet = "application/octet-stream";
    const cases: [string, () => Promise<Response>, number][] = [
      ["JSON", () => put(JSON.stringify({ file: "x" }), "application/json"), 415],
      [
        "multipart",
        () =>
          put(
            '--XyZ\r\nContent-Disposition: form-data; name="file"\r\n\r\nab',
            "multipart/form-data; boundary=XyZ",
          ),
        415,
      ],
      ["multipart without a boundary", () => put("file=x", "multipart/form-data"), 415],
      ["cut short in its first bytes", () => put(brokenBody(png.subarray(0, 4)), octet), 400],
      ["cut short after the type is known", () => put(brokenBody(png.subarray(0, 40)), octet), 400],
      [
        "NUL in the description",
        () =>
          put(new Uint8Array(png), octet, `fileName=a.png&description=${encodeURIComponent(NUL)}`),
        400,
      ],
    ];
    const failures: string[] = [];
    for (const [kind, send, expected] of cases) {
      const res = await send();
      if (res.status !== expected) failures.push(`${kind} → ${res.status} (expected ${expected})`);
      else expect((await res.json()).error, kind).toEqual(expect.any(String));
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it("a NUL byte in the file name is dropped from the name, not stored", async () => {
    const res = await put(
      new Uint8Array(png),
      "image/png",
      `fileName=${encodeURIComponent(NUL)}.png`,
    );
    expect(res.status).toBe(201);
    const [row] = await database.db
      .select({ fileName: sessionMedia.fileName })
      .from(sessionMedia)
      .where(eq(sessionMedia.fileName, "abcdef.png"));
    expect(row).toBeDefined();
  });
});

describe("the same forms, well formed", () => {
  it("are accepted: the refusals above were about the hostile part", async () => {
    const expected: Record<string, number> = {
      "log a session": 302,
      "share a session": 200,
      "join a session": 302,
      "verify a session": 302,
      "delete media": 302,
      "delete a session": 302,
    };
    for (const [name, status] of Object.entries(expected)) {
      const action = ACTIONS.find((a) => a.name === name)!;
      const res = await post(action, urlEncoded(action.fields()));
      expect(res.status, name).toBe(status);
    }
  });
});
