// A page's own work, without the waiting a busy machine adds to it (decision 034).
//
// Lighthouse simulates a phone from a trace of one load at full speed: it multiplies each task
// on the page's main thread by the CPU slowdown, taking the task's wall time. On a machine with
// two cores that thread is often ready to run but not running: the browser's other processes,
// Lighthouse and the app's server share the cores, and a call the page makes into the browser
// process (a font's settings, say) waits for it. A task's wall time was often two to five times
// its CPU time here. `atCpuTime` rewrites a trace so each top-level task on the page's main thread
// lasts only its CPU time (Chromium's `tdur`), with the events inside it shrunk in proportion.
// Lighthouse's own audits, run again on the rewritten trace, give the same load's figures as if
// the page had had a core to itself.

export type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  /** Microseconds. */
  ts: number;
  /** Wall time of a complete event ("X"), microseconds. */
  dur?: number;
  /** Thread (CPU) time of a complete event, microseconds. */
  tdur?: number;
  args?: { data?: { isLoadingMainFrame?: boolean; documentLoaderURL?: string } };
};

/** The thread that loaded the page: where its main frame's http(s) navigation started. */
function pageMainThread(events: TraceEvent[]): { pid: number; tid: number } | null {
  const start = events.find(
    (e) =>
      e.name === "navigationStart" &&
      e.args?.data?.isLoadingMainFrame === true &&
      /^https?:/.test(e.args.data.documentLoaderURL ?? ""),
  );
  return start ? { pid: start.pid, tid: start.tid } : null;
}

/**
 * Rewrites `events` in place: every top-level complete event on the page's main thread (a task)
 * takes its CPU time instead of its wall time, and whatever lies inside it is moved and shrunk by
 * the same factor, so nesting holds. A task never grows, nothing else moves, and events on other
 * threads are untouched. Returns how many tasks were shortened (0 when the trace has no page).
 */
export function atCpuTime(events: TraceEvent[]): number {
  const thread = pageMainThread(events);
  if (!thread) return 0;
  const onThread = events
    .filter((e) => e.pid === thread.pid && e.tid === thread.tid)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  let shortened = 0;
  let task: { start: number; end: number; factor: number } | null = null;
  for (const event of onThread) {
    if (task && event.ts < task.end && event.ts + (event.dur ?? 0) <= task.end) {
      // Inside the current task: moved towards its start and shrunk.
      event.ts = task.start + (event.ts - task.start) * task.factor;
      if (event.dur !== undefined) event.dur *= task.factor;
      continue;
    }
    task = null;
    if (event.ph !== "X" || !event.dur) continue;
    const factor = event.tdur === undefined ? 1 : Math.min(1, event.tdur / event.dur);
    task = { start: event.ts, end: event.ts + event.dur, factor };
    if (factor < 1) {
      event.dur *= factor;
      shortened++;
    }
  }
  return shortened;
}
