import { afterEach, vi } from "vitest";

// A test that logs an unexpected console.error fails: errors must be asserted, not ignored.
// Test files share a worker's global scope (no isolation, vitest.config.ts) and this file runs
// again before each of them: the spy is installed once, and its log lives on the global object.
const state = globalThis as typeof globalThis & { consoleErrors?: unknown[][] };
state.consoleErrors ??= [];
if (!vi.isMockFunction(console.error)) {
  const original = console.error;
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    state.consoleErrors?.push(args);
    original(...args);
  });
}

afterEach(() => {
  const logged = state.consoleErrors ?? [];
  state.consoleErrors = [];
  if (logged.length > 0) {
    throw new Error(
      `console.error was called during the test:\n${logged.map((a) => a.map(String).join(" ")).join("\n")}`,
    );
  }
});
