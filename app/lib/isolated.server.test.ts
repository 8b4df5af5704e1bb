import { describe, expect, test } from "vitest";
import { IsolatedWorkFailed, runIsolated } from "./isolated.server";

const probe = new URL("../../tests/support/isolated-tasks/probe.worker.ts", import.meta.url);
const limits = { timeoutMs: 10_000, memoryMb: 64 };

/** The largest gap between ticks of a 10 ms timer while `work` runs: the main thread's stalls. */
async function longestStall<T>(work: () => Promise<T>) {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  try {
    const outcome = await work().then(
      (value): { value?: T; error?: unknown } => ({ value }),
      (error: unknown) => ({ error }),
    );
    return { ...outcome, longest };
  } finally {
    clearInterval(ticker);
  }
}

describe("runIsolated", () => {
  test("returns what the task returns, and answers the task's calls to the host", async () => {
    expect(await runIsolated(probe, { do: "echo", value: { a: [1, "two"] } }, limits)).toEqual({
      a: [1, "two"],
    });
    const asked = await runIsolated(probe, { do: "ask", name: "double", argument: 21 }, limits, {
      double: async (n: number) => n * 2,
    });
    expect(asked).toBe(42);
  });

  test("a task that never ends is stopped at its time limit while the server goes on", async () => {
    const run = await longestStall(() =>
      runIsolated(probe, { do: "loop" }, { timeoutMs: 1_000, memoryMb: 64 }),
    );
    expect(run.error).toBeInstanceOf(IsolatedWorkFailed);
    expect((run.error as IsolatedWorkFailed).reason).toBe("timeout");
    expect(run.longest).toBeLessThan(500);
  });

  test("a task that fills its heap is ended, not the process", async () => {
    const run = await longestStall(() =>
      runIsolated(probe, { do: "fill-heap" }, { timeoutMs: 20_000, memoryMb: 32 }),
    );
    expect((run.error as IsolatedWorkFailed).reason).toBe("memory");
    expect(process.memoryUsage().heapUsed).toBeLessThan(1024 * 1024 * 1024);
  });

  test("a task that throws reports its message; a host call that fails reaches the task", async () => {
    await expect(runIsolated(probe, { do: "throw", message: "bad input" }, limits)).rejects.toEqual(
      new IsolatedWorkFailed("crashed", "bad input"),
    );
    await expect(
      runIsolated(probe, { do: "ask", name: "missing", argument: null }, limits),
    ).rejects.toMatchObject({ reason: "crashed", message: "No host call named missing." });
  });

  test("nothing a run leaves behind reaches the next run", async () => {
    expect(await runIsolated(probe, { do: "remember", value: "first" }, limits)).toEqual(["first"]);
    expect(await runIsolated(probe, { do: "remember", value: "second" }, limits)).toEqual([
      "second",
    ]);
  });
});
