import { defineConfig } from "vitest/config";

// Its own config so the React Router Vite plugin is not loaded for tests.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["app/**/*.test.ts", "db/**/*.test.ts", "server/**/*.test.ts", "tests/**/*.test.ts"],
    setupFiles: ["tests/setup/fail-on-console-error.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
