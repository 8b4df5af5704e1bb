import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

const TEST_ROOTS = ["app", "db", "seed", "server", "tests"];
const include = TEST_ROOTS.map((root) => `${root}/**/*.test.ts`);
const serverUrl = process.env.TEST_DATABASE_URL;

/** Test files (not end-to-end ones) under the roots, relative to the project. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(file);
    return entry.name.endsWith(".test.ts") ? [file] : [];
  });
}

/**
 * The files that open a database (through tests/support/test-database, or the money tests' app in
 * tests/support/money/money-app, which opens one): only they can differ.
 */
const databaseTests = () =>
  TEST_ROOTS.flatMap(testFiles).filter((file) =>
    /support\/(test-database|money\/money-app)["']/.test(readFileSync(file, "utf8")),
  );

/**
 * The files whose tests need a PostgreSQL server (`describe.runIf(usingServer())`: a crash test
 * kills a server process that shares its database, which an in-process PGlite cannot): the
 * PostgreSQL project runs them, and PGlite's leaves them out rather than reporting them skipped.
 */
const serverOnlyTests = () =>
  TEST_ROOTS.flatMap(testFiles).filter((file) =>
    readFileSync(file, "utf8").includes("describe.runIf(usingServer())"),
  );

/**
 * React Router's Vite plugin rewrites `.react-router/types` whenever a dev server starts, and
 * every test file that starts the app (tests/support/app-harness.ts) has one: workers starting
 * theirs together can remove that folder under each other's writes. Those types serve only
 * `npm run typecheck` (which runs before the tests and writes them itself), so that error
 * alone fails nothing; any other unhandled error still does.
 */
function isRouteTypesRace(error: unknown) {
  const { code, path: file } = error as { code?: unknown; path?: unknown };
  return (
    typeof file === "string" &&
    file.includes(`${path.sep}.react-router${path.sep}types`) &&
    (code === "ENOENT" || code === "ENOTEMPTY" || code === "EEXIST")
  );
}

// Its own config so the React Router Vite plugin is not loaded for tests. Every test runs on
// PGlite; with TEST_DATABASE_URL set, the tests that open a database run again on that
// PostgreSQL server (the others would only repeat themselves).
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    setupFiles: ["tests/setup/fail-on-console-error.ts"],
    testTimeout: 30_000,
    onUnhandledError: (error) => (isRouteTypesRace(error) ? false : undefined),
    hookTimeout: 60_000,
    // The tests of a file run in a random order, so none can lean on another's leftovers; Vitest
    // prints the seed, and --sequence.seed=<seed> repeats an order (decision 030).
    sequence: { shuffle: { files: false, tests: true } },
    pool: "forks",
    // A worker runs its test files one after another in one module graph: the app, the routes
    // Vite compiled and PGlite's compiled WebAssembly are loaded once per worker, not once per
    // file. Each file still makes its own database and apps; module state of our own is per app.
    isolate: false,
    // Vitest's default leaves a core idle (one worker on a 2-core machine), yet much of a test's
    // time is spent waiting on PostgreSQL, sockets and timers: one worker more than cores.
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        extends: true,
        test: {
          name: "pglite",
          include,
          exclude: [...configDefaults.exclude, ...serverOnlyTests()],
          env: { GIGLEDGER_TEST_DB: "pglite" },
        },
      },
      ...(serverUrl
        ? [
            {
              extends: true as const,
              test: {
                name: "postgres",
                include: databaseTests(),
                env: { GIGLEDGER_TEST_DB: "postgres" },
              },
            },
          ]
        : []),
    ],
  },
});
