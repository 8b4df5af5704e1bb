import { serveIsolated } from "~/lib/isolated-worker.server";
import { busyDaysIn, NotACalendar } from "./busy-days";

/**
 * Reads an imported calendar's busy days in a worker of its own (`readBusyDays` in
 * imports.server.ts runs it with a time and a heap limit): what a file does to ical.js, and the
 * zones it defines, end with the worker.
 */
export type BusyDaysInput = {
  text: string;
  window: { from: string; to: string; timeZone: string };
};
export type BusyDaysOutput = { ok: true; dates: string[] } | { ok: false; notACalendar: true };

serveIsolated((input: BusyDaysInput): BusyDaysOutput => {
  try {
    return { ok: true, dates: busyDaysIn(input.text, input.window) };
  } catch (error) {
    if (error instanceof NotACalendar) return { ok: false, notACalendar: true };
    throw error;
  }
});
