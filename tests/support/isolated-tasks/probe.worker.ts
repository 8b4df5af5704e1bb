import { serveIsolated } from "~/lib/isolated-worker.server";

/** A task for isolated.server.test.ts: does what its input says, including running away. */
type Probe =
  | { do: "echo"; value: unknown }
  | { do: "ask"; name: string; argument: unknown }
  | { do: "loop" }
  | { do: "fill-heap" }
  | { do: "throw"; message: string }
  | { do: "remember"; value: string };

const kept = globalThis as { probeMemory?: string[] };

serveIsolated(async (input: Probe, host) => {
  switch (input.do) {
    case "echo":
      return input.value;
    case "ask":
      return host(input.name, input.argument);
    case "loop":
      for (;;) {
        // never ends: only the time limit stops it
      }
    case "fill-heap": {
      const hoard: string[][] = [];
      for (;;) hoard.push(Array.from({ length: 100_000 }, (_, i) => `item ${i}`));
    }
    case "throw":
      throw new Error(input.message);
    case "remember":
      kept.probeMemory ??= [];
      kept.probeMemory.push(input.value);
      return kept.probeMemory;
  }
});
