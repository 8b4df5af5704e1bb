// One GigLedger instance as its own process, for the money crash tests
// (app/features/payments/money-crash.integration.test.ts): the production composition and job
// runner (server/boot.ts) on the environment it is given (DATABASE_URL, DATA_DIR, PORT, APP_URL,
// GIGLEDGER_FAULTS), without the pages' build, so it runs before `npm run build` as
// `npm run test:unit` does in CI. The tests drive it over HTTP: the webhook, the embedded
// provider at /dev/psp, /dev/clock and /dev/jobs/run; a page would answer 500.
import { boot, stopOnSignals } from "../../../server/boot";

const running = await boot({
  getBuild: () => Promise.reject(new Error("this test process serves no pages")),
});
stopOnSignals(running);
