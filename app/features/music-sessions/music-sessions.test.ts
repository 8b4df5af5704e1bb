import { describe, expect, it } from "vitest";
import { visiblePills } from "~/components/ui/pill";
import { nowInZone, toZonedInputValue, zonedInputToUtc } from "~/lib/dates";
import { addChip, chipsFromForm, removeChip } from "./chips";
import { SessionFormSchema, sessionListQueryOf } from "./music-sessions.schema";

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
    expect(visiblePills(["a", "b", "c", "d"], 2)).toEqual({ shown: ["a", "b"], more: 2 });
    expect(visiblePills(["a"], 3)).toEqual({ shown: ["a"], more: 0 });
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
  it("says which field is missing, in plain words", () => {
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
  it("refuses impossible dates and times", () => {
    for (const startTime of [
      "2026-13-01T10:00",
      "9999-99-99T10:00",
      "2026-02-30T10:00",
      "2026-11-21T24:00",
      "2026-11-21T19:60",
      "0000-01-01T00:00",
    ])
      expect(SessionFormSchema.safeParse({ ...valid, startTime }).success, startTime).toBe(false);
  });
  it("takes no browser offset: the time typed is the artist's wall clock", () => {
    const parsed = SessionFormSchema.parse({ ...valid, timezoneOffset: "-330" });
    expect(parsed).not.toHaveProperty("timezoneOffset");
    expect(parsed.startTime).toBe("2026-11-21T19:30");
  });
  it("reads a form as the browser sends it: one chip, several, or none; empty fields left out", () => {
    const parsed = SessionFormSchema.parse({
      sessionType: "jam",
      title: "Jam",
      startTime: "2026-11-21T19:30",
      durationMinutes: "60",
      instruments: "Sax, Keys",
      genres: ["Jazz", "Funk"],
    });
    expect(parsed).toMatchObject({
      description: null,
      instruments: ["Sax", "Keys"],
      genres: ["Jazz", "Funk"],
      tags: [],
    });
  });
  it("reads search and filter from the URL", () => {
    expect(sessionListQueryOf(new URL("http://x/?sq=%20blue%20&stype=jam"))).toEqual({
      q: "blue",
      type: "jam",
    });
    expect(sessionListQueryOf(new URL("http://x/?stype=opera"))).toEqual({ q: "", type: "" });
    expect(sessionListQueryOf(new URL("http://x/?sq=abc%00def")).q).toBe("");
  });
});

describe("date and time", () => {
  it("reads the typed time in the artist's zone, and shows it back the same", () => {
    expect(zonedInputToUtc("2026-11-21T19:30", "Asia/Kolkata").toISOString()).toBe(
      "2026-11-21T14:00:00.000Z",
    );
    expect(zonedInputToUtc("2026-07-01T12:00", "America/New_York").toISOString()).toBe(
      "2026-07-01T16:00:00.000Z",
    );
    expect(zonedInputToUtc("2026-11-15T20:00", "UTC").toISOString()).toBe(
      "2026-11-15T20:00:00.000Z",
    );
    for (const zone of ["Asia/Kolkata", "America/Los_Angeles", "UTC", "Pacific/Chatham"])
      expect(toZonedInputValue(zonedInputToUtc("2026-11-15T20:00", zone), zone), zone).toBe(
        "2026-11-15T20:00",
      );
    expect(nowInZone("Asia/Kolkata", new Date("2026-11-21T14:00:00Z"))).toBe("2026-11-21T19:30");
  });
});
