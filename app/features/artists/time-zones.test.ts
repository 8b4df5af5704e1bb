import { describe, expect, it } from "vitest";
import { ArtistProfileSchema } from "./artists.schema";
import { isTimeZone, matchTimeZone, timeZoneLabel, timeZoneOptions } from "./time-zones";

describe("isTimeZone", () => {
  it.each([
    "Asia/Kolkata",
    "America/Los_Angeles",
    "Europe/London",
    "UTC",
    "America/Argentina/Buenos_Aires",
  ])("accepts the IANA zone %s", (zone) => expect(isTimeZone(zone)).toBe(true));

  it.each([
    "",
    "Mars/Olympus_Mons",
    "+05:30",
    "GMT+5:30",
    "asia/kolkata",
    "Asia/Kolkata ",
    "Asia/Kolkata\u0000",
    "../../etc/passwd",
    `Asia/${"x".repeat(80)}`,
  ])("refuses %j", (zone) => expect(isTimeZone(zone)).toBe(false));
});

describe("timeZoneOptions", () => {
  const options = timeZoneOptions();

  it("lists zones by their current IANA names, with UTC, sorted", () => {
    expect(options).toContain("Asia/Kolkata");
    expect(options).toContain("Europe/Kyiv");
    expect(options).toContain("UTC");
    expect(options).not.toContain("Asia/Calcutta");
    expect(options).toEqual([...options].sort());
    expect(options.every(isTimeZone)).toBe(true);
  });

  it("adds a valid zone that is missing, never an invalid one", () => {
    expect(timeZoneOptions("Etc/GMT+5")).toContain("Etc/GMT+5");
    expect(timeZoneOptions("Mars/Base")).not.toContain("Mars/Base");
  });

  it("finds the entry that names the same zone as an old name a browser reports", () => {
    expect(matchTimeZone("Asia/Calcutta", options)).toBe("Asia/Kolkata");
    expect(matchTimeZone("America/Los_Angeles", options)).toBe("America/Los_Angeles");
    expect(matchTimeZone("Nowhere/Land", options)).toBeUndefined();
  });

  it("labels a zone without underscores", () => {
    expect(timeZoneLabel("America/Los_Angeles")).toBe("America/Los Angeles");
  });
});

describe("the profile form's time zone", () => {
  const profile = {
    artistName: "Asha",
    genre: "Jazz",
    bio: "Bio",
    location: "Mumbai",
    experience: "5 years",
    instruments: "Piano",
    hourlyRate: "",
    instagram: "",
    youtube: "",
    facebook: "",
  };

  it("is a real IANA zone, or left out", () => {
    expect(ArtistProfileSchema.parse({ ...profile, timeZone: "America/New_York" }).timeZone).toBe(
      "America/New_York",
    );
    expect(ArtistProfileSchema.parse(profile).timeZone).toBeUndefined();
    expect(ArtistProfileSchema.parse({ ...profile, timeZone: "" }).timeZone).toBeUndefined();
    const refused = ArtistProfileSchema.safeParse({ ...profile, timeZone: "Mars/Base" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({
      path: ["timeZone"],
      message: "Please choose a time zone from the list",
    });
  });
});
