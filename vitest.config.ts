import { defineConfig } from "vitest/config";

const include = [
  "app/**/*.test.ts",
  "db/**/*.test.ts",
  "server/**/*.test.ts",
  "tests/**/*.test.ts",
];
const serverUrl = process.env.TEST_DATABASE_URL;

// Its own config so the React Router Vite plugin is not loaded for tests. Every test runs on
// PGlite; with TEST_DATABASE_URL set, the same suite runs again on that PostgreSQL server.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    setupFiles: ["tests/setup/fail-on-console-error.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    projects: [
      { extends: true, test: { name: "pglite", include, env: { GIGLEDGER_TEST_DB: "pglite" } } },
      ...(serverUrl
        ? [
            {
              extends: true as const,
              test: { name: "postgres", include, env: { GIGLEDGER_TEST_DB: "postgres" } },
            },
          ]
        : []),
    ],
  },
});
