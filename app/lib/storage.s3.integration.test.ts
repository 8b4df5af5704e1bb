import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer, text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { musicSessions } from "~db/schema";
import { addArtistProfile } from "~seed/factories";
import { startTestApp } from "../../tests/support/app-harness";
import { freePort } from "../../tests/support/free-port";
import { postForm, signedInUser } from "../../tests/support/sessions";
import { createTestDatabase } from "../../tests/support/test-database";
import type { Env } from "./env.server";
import { createStorage } from "./storage.server";

// The S3 driver against a real S3-protocol server (s3rver) that this file starts on 127.0.0.1:
// requests are signed with its keys, multipart uploads and byte ranges go over HTTP.
type S3Event = {
  Records: Array<{
    eventName: string;
    requestParameters: { sourceIPAddress: string };
    s3: { object: { key: string } };
  }>;
};
type S3rver = {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  on(event: "event", listener: (event: S3Event) => void): void;
};
const S3rver = createRequire(import.meta.url)("s3rver") as new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: Array<{ name: string; configs: string[] }>;
}) => S3rver;

const BUCKET = "gigledger-test";
// s3rver's built-in account. It refuses an unknown access key id; it does not check SigV4
// signatures themselves.
const ACCESS_KEY = "S3RVER";
const SECRET_KEY = "S3RVER";
// Above the driver's 8 MB part size, so uploads of it are multipart.
const BIG = 9 * 1024 * 1024 + 123;

let s3: S3rver;
let s3Dir: string;
let endpoint: string;
const events: Array<{ name: string; key: string; from: string }> = [];

beforeAll(async () => {
  s3Dir = mkdtempSync(path.join(tmpdir(), "gl-s3rver-"));
  s3 = new S3rver({
    address: "127.0.0.1",
    port: await freePort(),
    directory: s3Dir,
    silent: true,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  s3.on("event", (event) => {
    for (const r of event.Records)
      events.push({
        name: r.eventName,
        key: decodeURIComponent(r.s3.object.key),
        from: r.requestParameters.sourceIPAddress,
      });
  });
  const { address, port } = await s3.run();
  endpoint = `http://${address}:${port}`;
});
afterAll(async () => {
  await s3?.close();
  rmSync(s3Dir, { recursive: true, force: true });
});

/** Deterministic bytes, so any slice can be checked; starts like an MP3 file (ID3 tag). */
function mp3Bytes(size: number) {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 8)) % 251;
  bytes.write("ID3", 0, "latin1");
  return bytes;
}

const settings = (overrides: Partial<Extract<Env["storage"], { driver: "s3" }>> = {}) =>
  ({
    driver: "s3",
    bucket: BUCKET,
    region: "us-east-1",
    endpoint,
    accessKeyId: ACCESS_KEY,
    secretAccessKey: SECRET_KEY,
    forcePathStyle: true,
    ...overrides,
  }) as const;

describe("S3 storage driver", () => {
  it("streams a file in, reads it whole or by range, and deletes it", async () => {
    const storage = createStorage(settings());
    const key = "media/s3-driver/file-1.mp3";
    const stored = await storage.put(key, Readable.from(["hello ", "world"]), "audio/mpeg");
    expect(stored).toEqual({ size: 11, contentType: "audio/mpeg" });
    expect(await storage.stat(key)).toEqual({ size: 11, contentType: "audio/mpeg" });

    const whole = await storage.get(key);
    expect(whole).toMatchObject({ size: 11, contentType: "audio/mpeg" });
    expect(await text(whole!.body)).toBe("hello world");
    const part = await storage.get(key, { start: 6, end: 10 });
    expect(part).toMatchObject({ size: 11, contentType: "audio/mpeg" });
    expect(await text(part!.body)).toBe("world");

    await storage.delete(key);
    expect(await storage.stat(key)).toBeNull();
    expect(await storage.get(key)).toBeNull();
    // The server saw the upload and the delete, from this machine.
    expect(events.filter((e) => e.key === key)).toEqual([
      { name: "ObjectCreated:Put", key, from: "127.0.0.1" },
      { name: "ObjectRemoved:Delete", key, from: "127.0.0.1" },
    ]);
  });

  it("uploads a file larger than one part in parts, and reads ranges across the part boundary", async () => {
    const storage = createStorage(settings());
    const key = "media/s3-driver/big-1.mp4";
    const bytes = mp3Bytes(BIG);
    // In 1 MB chunks, as an upload arrives.
    const chunks = Array.from({ length: Math.ceil(BIG / 2 ** 20) }, (_, i) =>
      bytes.subarray(i * 2 ** 20, (i + 1) * 2 ** 20),
    );
    expect(await storage.put(key, Readable.from(chunks), "video/mp4")).toEqual({
      size: BIG,
      contentType: "video/mp4",
    });
    // s3rver names the completion of a multipart upload "Post".
    expect(events.filter((e) => e.key === key).map((e) => e.name)).toEqual(["ObjectCreated:Post"]);

    const whole = await storage.get(key);
    expect((await buffer(whole!.body)).equals(bytes)).toBe(true);
    const boundary = 8 * 1024 * 1024;
    const across = await storage.get(key, { start: boundary - 10, end: boundary + 9 });
    expect(across?.size).toBe(BIG);
    expect((await buffer(across!.body)).equals(bytes.subarray(boundary - 10, boundary + 10))).toBe(
      true,
    );
    await storage.delete(key);
    expect(await storage.stat(key)).toBeNull();
  });

  it("answers not found for a missing key, and refuses unsafe keys before any request", async () => {
    const storage = createStorage(settings());
    expect(await storage.stat("media/s3-driver/missing.mp3")).toBeNull();
    expect(await storage.get("media/s3-driver/missing.mp3")).toBeNull();
    const before = events.length;
    await expect(storage.put("../escape.png", Buffer.from("x"), "image/png")).rejects.toThrow(
      /Unsafe storage key/,
    );
    await expect(storage.get("a//b.png")).rejects.toThrow(/Unsafe storage key/);
    expect(events.length).toBe(before);
  });

  it("fails an upload with credentials the server does not know", async () => {
    const storage = createStorage(settings({ accessKeyId: "NOT-A-KEY" }));
    await expect(
      storage.put("media/s3-driver/refused.mp3", Buffer.from("x"), "audio/mpeg"),
    ).rejects.toThrow();
    expect(events.some((e) => e.key === "media/s3-driver/refused.mp3")).toBe(false);
  });
});

describe("the app on S3 storage", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let app: Awaited<ReturnType<typeof startTestApp>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await startTestApp(database, {
      STORAGE_DRIVER: "s3",
      S3_ENDPOINT: endpoint,
      S3_BUCKET: BUCKET,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: SECRET_KEY,
      S3_FORCE_PATH_STYLE: "true",
    });
  });
  afterAll(async () => {
    await app?.close();
    await database?.dispose();
  });

  it("uploads session media to S3, serves it with its headers and byte ranges, and deletes it", async () => {
    expect(app.env.storage).toMatchObject({ driver: "s3", endpoint, bucket: BUCKET });
    const owner = await signedInUser(app, database.db, "Owner");
    const artistId = await addArtistProfile({ db: database.db }, owner.id);
    const [session] = await database.db
      .insert(musicSessions)
      .values({ artistProfileId: artistId, title: "Set", sessionType: "jam" })
      .returning({ id: musicSessions.id });
    const sessionId = session!.id;

    const bytes = mp3Bytes(BIG);
    const uploaded = await app.request(
      `/api/sessions/${sessionId}/media?fileName=${encodeURIComponent("live set.mp3")}`,
      {
        method: "PUT",
        body: new Uint8Array(bytes),
        headers: {
          "Content-Type": "application/octet-stream",
          Origin: app.env.appUrl.origin,
          Cookie: owner.cookie,
        },
      },
    );
    expect(uploaded.status).toBe(201);
    const { media } = (await uploaded.json()) as {
      media: { id: string; filePath: string; fileSize: number; mimeType: string };
    };
    expect(media).toMatchObject({ fileSize: BIG, mimeType: "audio/mpeg" });
    expect(events.filter((e) => e.key === media.filePath)).toEqual([
      { name: "ObjectCreated:Post", key: media.filePath, from: "127.0.0.1" },
    ]);

    const url = `/files/${media.filePath}`;
    const fileName = media.filePath.split("/").pop();
    const whole = await app.request(url);
    expect(whole.status).toBe(200);
    expect(Object.fromEntries(whole.headers)).toMatchObject({
      "content-type": "audio/mpeg",
      "content-length": String(BIG),
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "content-disposition": `inline; filename="${fileName}"`,
      "cache-control": "public, max-age=31536000, immutable",
      "accept-ranges": "bytes",
    });
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);

    const boundary = 8 * 1024 * 1024;
    const range = await app.request(url, {
      headers: { Range: `bytes=${boundary - 100}-${boundary + 99}` },
    });
    expect(range.status).toBe(206);
    expect(range.headers.get("content-range")).toBe(
      `bytes ${boundary - 100}-${boundary + 99}/${BIG}`,
    );
    expect(range.headers.get("content-length")).toBe("200");
    expect(range.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(range.headers.get("x-content-type-options")).toBe("nosniff");
    expect(
      Buffer.from(await range.arrayBuffer()).equals(bytes.subarray(boundary - 100, boundary + 100)),
    ).toBe(true);

    const tail = await app.request(url, { headers: { Range: "bytes=-16" } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get("content-range")).toBe(`bytes ${BIG - 16}-${BIG - 1}/${BIG}`);
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(BIG - 16))).toBe(true);

    const beyond = await app.request(url, { headers: { Range: `bytes=${BIG}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${BIG}`);
    await beyond.arrayBuffer();

    const head = await app.request(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(BIG));

    const deleted = await postForm(
      app,
      `/sessions/${sessionId}/media`,
      { intent: "delete-media", mediaId: media.id },
      owner.cookie,
    );
    expect(deleted.status).toBe(302);
    expect(events.filter((e) => e.key === media.filePath).map((e) => e.name)).toEqual([
      "ObjectCreated:Post",
      "ObjectRemoved:Delete",
    ]);
    expect(await app.storage.stat(media.filePath)).toBeNull();
    const gone = await app.request(url);
    expect(gone.status).toBe(404);
    await gone.arrayBuffer();
  });
});
