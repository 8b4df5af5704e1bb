import { expect } from "vitest";

/**
 * Runs `work` while asking /healthz (through `request`) every 50 ms, and returns what `work`
 * returned, the slowest answer (what any other visitor would have waited meanwhile) and how long
 * `work` took in seconds.
 */
export async function slowestHealthCheck<T>(
  request: (pathname: string) => Promise<Response>,
  work: () => Promise<T>,
) {
  let done = false;
  let slowest = 0;
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await request("/healthz");
      expect(res.status).toBe(200);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const started = performance.now();
  try {
    const result = await work();
    return { result, slowest, seconds: (performance.now() - started) / 1000 };
  } finally {
    done = true;
    await probe;
  }
}
