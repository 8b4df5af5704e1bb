import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isIsoDate, zonedDateTimeToUtc } from "./dates";

/**
 * The app's "now" (decision 054). Money rules, jobs and timestamps the money features write read
 * `ctx.clock.now()`, never `new Date()`, so a local app can move its time forward for a demo or a
 * test (`/dev/clock`). A public app always has `systemClock`.
 */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };

/** A clock that a local app moves: real time plus an offset that only grows, or is reset to 0. */
export type LocalClock = Clock & {
  /** How far ahead of real time the app is, in milliseconds (0 or more). */
  offsetMs(): number;
  /** Moves the app's now to `instant`; refused (ClockError) if that is before the app's now. */
  set(instant: Date): void;
  /** Moves the app's now forward by `ms` (more than 0). */
  advance(ms: number): void;
  /** Back to real time. */
  reset(): void;
};

export function isLocalClock(clock: Clock): clock is LocalClock {
  return "offsetMs" in clock && "advance" in clock;
}

/** A refused move of the clock; its message is for the person who asked. */
export class ClockError extends Error {
  override name = "ClockError";
}

/** The furthest the app's time may run ahead of real time. */
export const MAX_OFFSET_MS = 100 * 365 * 24 * 3600 * 1000;

/**
 * A clock whose offset is kept in memory and, with `file`, written there as JSON
 * (`{"offsetMs": …}`) so a restart keeps it. A missing or unreadable file means real time.
 */
export function createLocalClock(file?: string, realNow: () => number = Date.now): LocalClock {
  let offset = file ? readOffset(file) : 0;
  const save = () => {
    if (!file) return;
    mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify({ offsetMs: offset })}\n`);
    renameSync(temp, file);
  };
  const moveTo = (next: number) => {
    if (next > MAX_OFFSET_MS)
      throw new ClockError("The app's time can run at most 100 years ahead.");
    offset = next;
    save();
  };
  return {
    now: () => new Date(realNow() + offset),
    offsetMs: () => offset,
    set(instant) {
      const target = instant.getTime();
      if (!Number.isFinite(target)) throw new ClockError("That is not a date and time.");
      const real = realNow();
      if (target < real + offset)
        throw new ClockError(
          "The app's time only moves forward: choose a later time, or reset it to real time.",
        );
      moveTo(target - real);
    },
    advance(ms) {
      if (!Number.isFinite(ms) || ms <= 0)
        throw new ClockError("The app's time only moves forward: give a duration longer than 0.");
      moveTo(offset + ms);
    },
    reset() {
      offset = 0;
      save();
    },
  };
}

function readOffset(file: string): number {
  try {
    const { offsetMs } = JSON.parse(readFileSync(file, "utf8")) as { offsetMs?: unknown };
    return typeof offsetMs === "number" && offsetMs > 0 && offsetMs <= MAX_OFFSET_MS
      ? Math.floor(offsetMs)
      : 0;
  } catch {
    return 0;
  }
}

const MINUTE = 60_000;
const UNIT_MS = {
  W: 7 * 24 * 60 * MINUTE,
  D: 24 * 60 * MINUTE,
  H: 60 * MINUTE,
  M: MINUTE,
  S: 1000,
};
const ISO_DURATION =
  /^P(?:(\d{1,6})W)?(?:(\d{1,6})D)?(?:T(?:(\d{1,7})H)?(?:(\d{1,9})M)?(?:(\d{1,10}(?:[.,]\d{1,3})?)S)?)?$/;

/**
 * A duration in milliseconds, or null: ISO 8601 with weeks, days, hours, minutes and seconds
 * ("PT49H", "P3D", "P1DT2H30M", "PT0.5S"), or a whole number of minutes ("90"). Years and months
 * have no fixed length, so they are not accepted.
 */
export function parseDuration(text: string): number | null {
  const value = text.trim().toUpperCase();
  if (/^\d{1,9}$/.test(value)) return Number(value) * MINUTE;
  const m = ISO_DURATION.exec(value);
  if (!m || value === "P" || value.endsWith("T")) return null;
  const [, w, d, h, min, s] = m;
  const parts: [string | undefined, number][] = [
    [w, UNIT_MS.W],
    [d, UNIT_MS.D],
    [h, UNIT_MS.H],
    [min, UNIT_MS.M],
    [s?.replace(",", "."), UNIT_MS.S],
  ];
  return Math.round(parts.reduce((sum, [n, unit]) => sum + (n ? Number(n) * unit : 0), 0));
}

const DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/i;

/**
 * An instant written as an ISO 8601 date-time, or null. With an offset or `Z` it is that instant
 * ("2027-02-10T10:00:00+05:30"); without one (a datetime-local field's "2027-02-10T10:00"), it is
 * that wall-clock time in `timeZone`.
 */
export function parseInstant(text: string, timeZone: string): Date | null {
  const m = DATE_TIME.exec(text.trim());
  if (!m) return null;
  const [, date = "", hh = "", mm = "", ss = "00", fraction = "", zone] = m;
  if (!isIsoDate(date) || Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return null;
  if (zone && zone.toUpperCase() !== "Z") {
    const [oh = 0, om = 0] = zone.slice(1).split(":").map(Number);
    if (oh > 23 || om > 59) return null;
  }
  const at = zone
    ? new Date(`${date}T${hh}:${mm}:${ss}${fraction}${zone.toUpperCase()}`)
    : new Date(
        zonedDateTimeToUtc(date, `${hh}:${mm}:${ss}`, timeZone).getTime() + millis(fraction),
      );
  return Number.isNaN(at.getTime()) ? null : at;
}

function millis(fraction: string) {
  return fraction ? Math.round(Number(fraction) * 1000) : 0;
}
