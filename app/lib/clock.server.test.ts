import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ClockError,
  createLocalClock,
  isLocalClock,
  parseDuration,
  parseInstant,
  systemClock,
} from "./clock.server";

const HOUR = 3_600_000;
const dir = mkdtempSync(path.join(tmpdir(), "gl-clock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real time that the test moves by hand. */
function fakeReal(start = Date.parse("2026-11-28T10:00:00Z")) {
  let t = start;
  return { now: () => t, pass: (ms: number) => (t += ms) };
}

describe("parseDuration", () => {
  it.each([
    ["PT49H", 49 * HOUR],
    ["P3D", 72 * HOUR],
    ["P1W", 7 * 24 * HOUR],
    ["P1DT2H30M", 26.5 * HOUR],
    ["PT90M", 1.5 * HOUR],
    ["PT0.5S", 500],
    ["PT1,5S", 1500],
    ["pt2h", 2 * HOUR],
    [" P2D ", 48 * HOUR],
    ["90", 1.5 * HOUR],
    ["0", 0],
    ["PT0S", 0],
  ])("reads %j", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    "",
    "P",
    "PT",
    "P1DT",
    "P1Y",
    "P1M",
    "-PT1H",
    "PT-1H",
    "1.5",
    "-5",
    "PT1H2D",
    "P1D1W",
    "1e9",
    "PT1H ; DROP",
    "PT99999999999H",
    "P\u0000T1H",
  ])("refuses %j", (text) => {
    expect(parseDuration(text)).toBeNull();
  });
});

describe("parseInstant", () => {
  it("reads an instant with an offset or Z as that instant", () => {
    expect(parseInstant("2027-02-10T10:00:00+05:30", "UTC")?.toISOString()).toBe(
      "2027-02-10T04:30:00.000Z",
    );
    expect(parseInstant("2027-02-10T10:00Z", "Asia/Kolkata")?.toISOString()).toBe(
      "2027-02-10T10:00:00.000Z",
    );
  });

  it("reads a wall-clock time (a datetime-local value) in the given zone", () => {
    expect(parseInstant("2027-02-10T10:00", "Asia/Kolkata")?.toISOString()).toBe(
      "2027-02-10T04:30:00.000Z",
    );
    expect(parseInstant("2027-07-01T12:00:30.250", "Europe/Berlin")?.toISOString()).toBe(
      "2027-07-01T10:00:30.250Z",
    );
  });

  it.each([
    "",
    "tomorrow",
    "2027-02-30T10:00",
    "2027-13-01T10:00",
    "2027-02-10",
    "2027-02-10T24:00",
    "2027-02-10T10:60",
    "2027-02-10T10:00+25:00",
    "2027-02-10T10:00:00+05:30 extra",
    "1700000000000",
  ])("refuses %j", (text) => {
    expect(parseInstant(text, "Asia/Kolkata")).toBeNull();
  });
});

describe("createLocalClock", () => {
  it("starts at real time and follows it", () => {
    const real = fakeReal();
    const clock = createLocalClock(undefined, real.now);
    expect(clock.offsetMs()).toBe(0);
    expect(clock.now().getTime()).toBe(real.now());
    real.pass(5000);
    expect(clock.now().getTime()).toBe(real.now());
  });

  it("advances, and keeps the offset while real time passes", () => {
    const real = fakeReal();
    const clock = createLocalClock(undefined, real.now);
    clock.advance(49 * HOUR);
    clock.advance(HOUR);
    expect(clock.offsetMs()).toBe(50 * HOUR);
    real.pass(1000);
    expect(clock.now().getTime()).toBe(real.now() + 50 * HOUR);
  });

  it("sets a later instant, and refuses one before the app's now", () => {
    const real = fakeReal();
    const clock = createLocalClock(undefined, real.now);
    const target = new Date("2027-02-10T04:30:00Z");
    clock.set(target);
    expect(clock.now().toISOString()).toBe(target.toISOString());
    // Before the app's now, though after real time: refused, nothing changes.
    expect(() => clock.set(new Date("2027-01-01T00:00:00Z"))).toThrow(ClockError);
    expect(() => clock.set(new Date(real.now() - 1))).toThrow(/only moves forward/);
    expect(() => clock.set(new Date(Number.NaN))).toThrow(ClockError);
    expect(clock.now().toISOString()).toBe(target.toISOString());
    // The same instant is allowed (it does not go back).
    clock.set(target);
    expect(clock.now().toISOString()).toBe(target.toISOString());
  });

  it("refuses advancing by nothing, backwards or beyond 100 years", () => {
    const clock = createLocalClock(undefined, fakeReal().now);
    for (const ms of [0, -1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => clock.advance(ms)).toThrow(ClockError);
    expect(() => clock.advance(101 * 365 * 24 * HOUR)).toThrow(/100 years/);
    expect(clock.offsetMs()).toBe(0);
  });

  it("goes back to real time only by reset", () => {
    const real = fakeReal();
    const clock = createLocalClock(undefined, real.now);
    clock.advance(72 * HOUR);
    clock.reset();
    expect(clock.offsetMs()).toBe(0);
    expect(clock.now().getTime()).toBe(real.now());
  });

  it("keeps its offset in the file, so a restart keeps the app's time", () => {
    const file = path.join(dir, "nested", "clock.json");
    const real = fakeReal();
    const first = createLocalClock(file, real.now);
    first.advance(49 * HOUR);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ offsetMs: 49 * HOUR });
    const restarted = createLocalClock(file, real.now);
    expect(restarted.offsetMs()).toBe(49 * HOUR);
    restarted.reset();
    expect(createLocalClock(file, real.now).offsetMs()).toBe(0);
  });

  it.each([
    ["not JSON", "{"],
    ["a negative offset", '{"offsetMs":-5}'],
    ["a string", '{"offsetMs":"5"}'],
    ["an array", "[1]"],
    ["too far", `{"offsetMs":${1e15}}`],
  ])("reads a file with %s as real time", (_label, text) => {
    const file = path.join(dir, `bad-${Math.random()}.json`);
    writeFileSync(file, text);
    expect(createLocalClock(file).offsetMs()).toBe(0);
  });

  it("is told apart from the system clock", () => {
    expect(isLocalClock(createLocalClock())).toBe(true);
    expect(isLocalClock(systemClock)).toBe(false);
    expect(Math.abs(systemClock.now().getTime() - Date.now())).toBeLessThan(1000);
  });
});
