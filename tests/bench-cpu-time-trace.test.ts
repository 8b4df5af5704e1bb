import { describe, expect, it } from "vitest";
import { atCpuTime, type TraceEvent } from "../bench/cpu-time-trace";

// The page's main thread is pid 2 / tid 7; the browser's is pid 1 / tid 1.
const navigationStart = (url: string): TraceEvent => ({
  name: "navigationStart",
  ph: "R",
  pid: 2,
  tid: 7,
  ts: 900,
  args: { data: { isLoadingMainFrame: true, documentLoaderURL: url } },
});
const complete = (name: string, ts: number, dur: number, tdur?: number, pid = 2, tid = 7) => ({
  name,
  ph: "X",
  pid,
  tid,
  ts,
  dur,
  ...(tdur === undefined ? {} : { tdur }),
});

describe("atCpuTime (bench:lighthouse's TBT at CPU time)", () => {
  it("shortens each page task to its CPU time and shrinks what lies inside it in proportion", () => {
    const task = complete("RunTask", 1000, 40, 10);
    const layout = complete("Layout", 1020, 20, 4);
    const mark = { name: "mark", ph: "I", pid: 2, tid: 7, ts: 1030 };
    const nextTask = complete("RunTask", 1040, 8, 8);
    const events = [navigationStart("http://127.0.0.1/"), nextTask, layout, mark, task];

    expect(atCpuTime(events)).toBe(1);

    expect(task).toMatchObject({ ts: 1000, dur: 10 });
    // 20 µs into a task shrunk to a quarter: 5 µs in, and a quarter as long.
    expect(layout).toMatchObject({ ts: 1005, dur: 5 });
    expect(mark.ts).toBe(1007.5);
    // A task that took no longer than its CPU time, right after, stays as it was.
    expect(nextTask).toMatchObject({ ts: 1040, dur: 8 });
  });

  it("leaves other threads, tasks without CPU time and tasks with more CPU than wall time alone", () => {
    const browserTask = complete("RunTask", 1000, 40, 10, 1, 1);
    const noCpuTime = complete("RunTask", 2000, 30);
    const busierThanWall = complete("RunTask", 3000, 10, 12);
    const events = [
      navigationStart("https://example.test/"),
      browserTask,
      noCpuTime,
      busierThanWall,
    ];

    expect(atCpuTime(events)).toBe(0);

    expect(browserTask).toMatchObject({ ts: 1000, dur: 40 });
    expect(noCpuTime).toMatchObject({ ts: 2000, dur: 30 });
    expect(busierThanWall).toMatchObject({ ts: 3000, dur: 10 });
  });

  it("changes nothing in a trace with no page navigation", () => {
    const task = complete("RunTask", 1000, 40, 10);
    const events = [navigationStart("about:blank"), task];

    expect(atCpuTime(events)).toBe(0);
    expect(task).toMatchObject({ ts: 1000, dur: 40 });
  });
});
