import { describe, expect, it } from "vitest";
import { localDateTimeToUtc, nowInZone } from "~/lib/dates";
import { addChip, chipsFromForm, removeChip } from "./chips";
import { canEditSession, canLogSession, sharingModeOf } from "./music-sessions.policy";
import { SessionFormSchema, sessionListQueryOf } from "./music-sessions.schema";
import { visibleChips } from "./session-card";

describe("chips", () => {
  it("ignores blanks and duplicates, trims, removes", () => {
    let list = addChip([], "  Guitar ");
    list = addChip(list, "   ");
    list = addChip(list, "guitar");
    list = addChip(list, "Bass");
    expect(list).toEqual(["Guitar", "Bass"]);
    expect(removeChip(list, "Guitar")).toEqual(["Bass"]);
    expect(chipsFromForm(["Jazz, Funk", "jazz", "", " Soul "])).toEqual(["Jazz", "Funk", "Soul"]);
  });
  it("shows 2 instruments or 3 genres then +N more", () => {
    expect(visibleChips(["a", "b", "c", "d"], 2)).toEqual({ shown: ["a", "b"], more: 2 });
    expect(visibleChips(["a"], 3)).toEqual({ shown: ["a"], more: 0 });
  });
});

describe("SessionFormSchema", () => {
  const valid = {
    sessionType: "jam",
    title: "Sunday jam",
    description: "",
    venue: "",
    location: "",
    startTime: "2026-11-21T19:30",
    timezoneOffset: "",
    durationMinutes: "90",
    instruments: ["Sax"],
    genres: [],
    tags: ["live, outdoor"],
  };
  it("accepts a full form", () => {
    const parsed = SessionFormSchema.parse(valid);
    expect(parsed).toMatchObject({
      sessionType: "jam",
      durationMinutes: 90,
      venue: null,
      tags: ["live", "outdoor"],
    });
  });
  it("uses the spec's messages", () => {
    const result = SessionFormSchema.safeParse({ ...valid, sessionType: "", title: "  " });
    const messages = result.error?.issues.map((i) => i.message);
    expect(messages).toContain("Session type is required");
    expect(messages).toContain("Title is required");
  });
  it("bounds the duration", () => {
    expect(SessionFormSchema.safeParse({ ...valid, durationMinutes: "0" }).success).toBe(false);
    expect(SessionFormSchema.safeParse({ ...valid, durationMinutes: "100001" }).success).toBe(
      false,
    );
    expect(SessionFormSchema.safeParse({ ...valid, durationMinutes: "abc" }).success).toBe(false);
  });
  it("reads search and filter from the URL", () => {
    expect(sessionListQueryOf(new URL("http://x/?sq=%20blue%20&stype=jam"))).toEqual({
      q: "blue",
      type: "jam",
    });
    expect(sessionListQueryOf(new URL("http://x/?stype=opera"))).toEqual({ q: "", type: "" });
  });
});

describe("policy", () => {
  const session = { artistProfileId: "a1" };
  it("only the owner edits", () => {
    expect(canEditSession({ artistProfileId: "a1" }, session)).toBe(true);
    expect(canEditSession({ artistProfileId: "b2" }, session)).toBe(false);
    expect(canEditSession({ artistProfileId: null }, session)).toBe(false);
    expect(canEditSession(null, session)).toBe(false);
    expect(canLogSession({ artistProfileId: null })).toBe(false);
  });
  it("future sessions are for collaboration, past ones for verification", () => {
    const now = new Date("2026-11-21T12:00:00Z");
    expect(sharingModeOf({ startTime: new Date("2026-11-22T12:00:00Z") }, now)).toBe(
      "collaboration",
    );
    expect(sharingModeOf({ startTime: new Date("2026-11-20T12:00:00Z") }, now)).toBe(
      "verification",
    );
  });
});

describe("date and time", () => {
  it("uses the browser's offset when sent, else the app's zone", () => {
    expect(localDateTimeToUtc("2026-11-21T19:30", -330, "UTC").toISOString()).toBe(
      "2026-11-21T14:00:00.000Z",
    );
    expect(localDateTimeToUtc("2026-11-21T19:30", undefined, "Asia/Kolkata").toISOString()).toBe(
      "2026-11-21T14:00:00.000Z",
    );
    expect(
      localDateTimeToUtc("2026-07-01T12:00", undefined, "America/New_York").toISOString(),
    ).toBe("2026-07-01T16:00:00.000Z");
    expect(nowInZone("Asia/Kolkata", new Date("2026-11-21T14:00:00Z"))).toBe("2026-11-21T19:30");
  });
});
