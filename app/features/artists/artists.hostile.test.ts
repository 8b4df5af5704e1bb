import { count, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artistProfiles, portfolioAnalytics, portfolios, sessionMedia } from "~db/schema";
import { addArtistProfile, createSession } from "~seed/factories";
import { startTestApp } from "../../../tests/support/app-harness";
import { signedInUser } from "../../../tests/support/sessions";
import { createTestDatabase } from "../../../tests/support/test-database";

/**
 * Hostile requests to the artist, profile and portfolio pages: a NUL byte in an address, in a
 * search and in each field of each action, and bodies that are not forms (JSON, multipart without
 * a boundary, multipart cut short) or uploads that are not images. Each gets a clear 4xx answer
 * (or an empty result), never a 5xx, and nothing is written.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let app: Awaited<ReturnType<typeof startTestApp>>;
type Person = Awaited<ReturnType<typeof signedInUser>>;
let owner: Person;
let newcomer: Person;
let portfolioId: string;
let mediaId: string;

const NUL = "abc\u0000def";

beforeAll(async () => {
  database = await createTestDatabase();
  app = await startTestApp(database);
  owner = await signedInUser(app, database.db, "Owner");
  // Signed in without an artist profile: what /profile-setup is for.
  newcomer = await signedInUser(app, database.db, "Newcomer");
  const artistId = await addArtistProfile({ db: database.db }, owner.id);
  // The portfolio every profile gets, made public.
  const [portfolio] = await database.db
    .update(portfolios)
    .set({ title: "Live", isPublic: true })
    .where(eq(portfolios.artistProfileId, artistId))
    .returning({ id: portfolios.id });
  portfolioId = portfolio!.id;
  const sessionId = await createSession(database.db, artistId);
  const [media] = await database.db
    .insert(sessionMedia)
    .values({
      sessionId,
      mediaType: "audio",
      filePath: `media/${sessionId}/a.wav`,
      fileName: "a.wav",
      fileSize: 1,
      mimeType: "audio/wav",
      isPortfolioFeatured: true,
    })
    .returning({ id: sessionMedia.id });
  mediaId = media!.id;
});
afterAll(async () => {
  await app?.close();
  await database?.dispose();
});

type Fields = Record<string, string>;
type Action = { name: string; path: () => string; cookie: () => string; fields: () => Fields };

const profileFields = (): Fields => ({
  artistName: "Asha Rao",
  genre: "Jazz",
  bio: "Piano and vocals.",
  location: "Chicago IL",
  experience: "5 years",
  instruments: "Piano, Vocals",
  hourlyRate: "2000",
  startingPrice: "",
  instagram: "https://instagram.com/asha",
  youtube: "https://youtube.com/@asha",
  facebook: "https://facebook.com/asha",
  depositBps: "3000",
  balanceDueDays: "7",
  cancellationPolicy: "moderate",
});

/** Every action of these pages, with a well-formed form for each. */
const ACTIONS: Action[] = [
  {
    name: "create an artist profile",
    path: () => "/profile-setup",
    cookie: () => newcomer.cookie,
    fields: profileFields,
  },
  {
    name: "edit the artist profile",
    path: () => "/artist-profile/edit",
    cookie: () => owner.cookie,
    fields: () => ({ ...profileFields(), isAvailable: "on" }),
  },
  {
    name: "upload a profile picture",
    path: () => "/artist-profile/edit",
    cookie: () => owner.cookie,
    fields: () => ({ intent: "avatar", avatar: "not a file" }),
  },
  {
    name: "save portfolio settings",
    path: () => "/portfolio-manager",
    cookie: () => owner.cookie,
    fields: () => ({ intent: "settings", title: "Live", description: "Takes", isPublic: "on" }),
  },
  {
    name: "feature media",
    path: () => "/portfolio-manager",
    cookie: () => owner.cookie,
    fields: () => ({ featured: "false", mediaIds: mediaId }),
  },
  {
    name: "report a play",
    path: () => `/portfolio/${portfolioId}/report`,
    cookie: () => newcomer.cookie,
    fields: () => ({ intent: "play", mediaId }),
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
  const [profiles] = await database.db.select({ n: count() }).from(artistProfiles);
  const [events] = await database.db.select({ n: count() }).from(portfolioAnalytics);
  const [profile] = await database.db
    .select({
      name: artistProfiles.artistName,
      avatar: artistProfiles.avatarPath,
      depositBps: artistProfiles.depositBps,
      balanceDueDays: artistProfiles.balanceDueDays,
      policy: artistProfiles.cancellationPolicy,
    })
    .from(artistProfiles);
  const [portfolio] = await database.db
    .select({ title: portfolios.title, description: portfolios.description })
    .from(portfolios);
  const featured = await database.db
    .select({ featured: sessionMedia.isPortfolioFeatured })
    .from(sessionMedia);
  return { profiles: profiles?.n, events: events?.n, profile, portfolio, featured };
}

describe("hostile addresses", () => {
  it("a NUL byte in an artist's address is a 404", async () => {
    for (const path of ["/artist/abc%00def", "/profile/abc%00def", "/portfolio/abc%00def"]) {
      const res = await app.request(path, { redirect: "manual" });
      expect(res.status, path).toBe(404);
    }
    const dashboard = await app.request("/artist-dashboard/abc%00def", {
      headers: { Cookie: owner.cookie },
    });
    expect(dashboard.status).toBe(404);
  });

  it("a NUL byte in a discovery search or filter finds nothing, with a 200", async () => {
    for (const query of ["q=abc%00def", "genre=Jazz%00", "location=Chicago%20IL%00", "page=1%00"]) {
      const res = await app.request(`/artist-discovery?${query}`);
      expect(res.status, query).toBe(200);
      if (query.startsWith("page")) continue;
      expect(await res.text(), query).toContain("No artists found");
    }
  });
});

describe("ticks for 'Ask together' in a discovery address", () => {
  it("anything but an artist's id is ignored, with a 200", async () => {
    const [artist] = await database.db
      .select({ id: artistProfiles.id, name: artistProfiles.artistName })
      .from(artistProfiles);
    const values = [
      NUL,
      "not-an-id",
      "' OR 1=1 --",
      "00000000-0000-4000-8000-000000000000",
      "x".repeat(5000),
      ...Array.from({ length: 50 }, () => artist!.id),
    ];
    const query = values.map((v) => `artist=${encodeURIComponent(v)}`).join("&");
    // The only artist is found and on the page: ticked there, listed nowhere else.
    const found = await app.request(`/artist-discovery?${query}`);
    expect(found.status).toBe(200);
    const page = await found.text();
    const boxes = page.match(/<input[^>]*name="artist"[^>]*>/g) ?? [];
    expect(boxes, "one box, ticked").toHaveLength(1);
    expect(boxes[0]).toContain(`value="${artist!.id}"`);
    expect(boxes[0]).toContain("checked");
    expect(page.includes("Also ticked"), "listed elsewhere").toBe(false);
    // Searched for something else: the ticked artist is listed in the bar, once.
    const other = await app.request(`/artist-discovery?q=zzzz&${query}`);
    expect(other.status).toBe(200);
    const elsewhere = await other.text();
    expect(elsewhere.includes("Also ticked"), "listed elsewhere").toBe(true);
    expect(elsewhere.includes(`>${artist!.name}</label>`), "by name").toBe(true);
    expect(elsewhere.split(`value="${artist!.id}"`).length - 1, "once").toBe(1);
  });
});

describe("hostile form bodies to the artist and portfolio actions", () => {
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

  it("a NUL byte is refused beside the field it is in", async () => {
    const res = await post(ACTIONS[0]!, urlEncoded({ ...profileFields(), artistName: NUL }));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("This field contains a character we can");
  });

  it("JSON, plain text, multipart without a boundary and multipart cut short get 415 or 400", async () => {
    const before = await snapshot();
    const failures: string[] = [];
    for (const action of ACTIONS) {
      const cases: [string, BodyInit, string, number][] = [
        ["JSON", JSON.stringify(action.fields()), "application/json", 415],
        ["plain text", "intent=settings", "text/plain", 415],
        ["multipart without a boundary", "intent=x", "multipart/form-data", 400],
        [
          "multipart cut short",
          '--XyZ\r\nContent-Disposition: form-data; name="intent"\r\n\r\nsett',
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
});

describe("hostile booking terms", () => {
  it("a deposit, due day or policy not on the lists is a 400 beside its field and changes nothing", async () => {
    const before = await snapshot();
    const cases: [string, string, string][] = [
      ["depositBps", "1234", "Choose a deposit between 10% and 100%, or no deposit."],
      ["depositBps", "-3000", "Choose a deposit between 10% and 100%, or no deposit."],
      ["depositBps", "10500", "Choose a deposit between 10% and 100%, or no deposit."],
      ["depositBps", "3e3", "Choose a deposit between 10% and 100%, or no deposit."],
      ["balanceDueDays", "2", "Choose when the balance is due."],
      ["balanceDueDays", "7.0", "Choose when the balance is due."],
      ["cancellationPolicy", "none", "Choose a cancellation policy."],
      ["cancellationPolicy", "constructor", "Choose a cancellation policy."],
    ];
    const failures: string[] = [];
    for (const action of ACTIONS.slice(0, 2)) {
      for (const [field, value, message] of cases) {
        for (const encode of [urlEncoded, multipart]) {
          const res = await post(
            action,
            encode({ ...action.fields(), artistName: "Changed", [field]: value }),
          );
          const text = await res.text();
          if (res.status !== 400 || !text.includes(message))
            failures.push(`${action.name}: ${field}=${value} → ${res.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});

describe("hostile profile pictures", () => {
  const upload = async (bytes: Uint8Array, name: string, type: string) => {
    const form = new FormData();
    form.append("intent", "avatar");
    form.append("avatar", new File([Buffer.from(bytes)], name, { type }));
    return app.request("/artist-profile/edit", {
      method: "POST",
      body: form,
      headers: { Origin: app.env.appUrl.origin, Cookie: owner.cookie },
      redirect: "manual",
    });
  };

  it("anything but a JPG, PNG or WebP image is a 400 and changes nothing", async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#123" } })
      .png()
      .toBuffer();
    const before = await snapshot();
    const cases: [string, Uint8Array, string, string][] = [
      ["empty", new Uint8Array(), "a.png", "image/png"],
      [
        "HTML named .png",
        new TextEncoder().encode("<script>alert(1)</script>"),
        "a.png",
        "image/png",
      ],
      [
        "SVG",
        new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        "a.svg",
        "image/svg+xml",
      ],
      ["a PNG cut short", png.subarray(0, Math.floor(png.length / 2)), "a.png", "image/png"],
    ];
    for (const [kind, bytes, name, type] of cases) {
      const res = await upload(bytes, name, type);
      expect(res.status, kind).toBe(400);
    }
    expect(await snapshot()).toEqual(before);

    const ok = await upload(png, "me.png", "image/png");
    expect(ok.status).toBe(302);
    expect((await snapshot()).profile?.avatar).toMatch(/^avatars\/.+\.webp$/);
  });
});
