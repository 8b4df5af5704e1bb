import pino from "pino";
import { paymentProviderOf } from "~/features/payments/provider.server";
import { isLocalClock, type LocalClock } from "~/lib/clock.server";
import { runQueuesNow } from "~/lib/jobs.server";
import { startTestApp } from "../app-harness";
import { createTestDatabase } from "../test-database";
import type { MoneyCtx } from "./booking-money";

/** The queues that carry a payment through: the provider's deliveries, our events and commands. */
export const MONEY_QUEUES = ["dev-psp-webhook", "payments.events", "payments.commands"];

export type MoneyApp = Awaited<ReturnType<typeof startMoneyApp>>;

/**
 * The app as money tests use it: listening on loopback (the embedded provider's API and webhooks go
 * over real HTTP), its local clock, a context for the domain functions, the provider, and `drain`,
 * which runs the money queues (and `extra` first) as the runner would until nothing is left.
 */
export async function startMoneyApp() {
  const database = await createTestDatabase();
  const app = await startTestApp(database, {}, { listen: true });
  if (!isLocalClock(app.clock)) throw new Error("the test app's clock is local");
  const clock: LocalClock = app.clock;
  const ctx: MoneyCtx = {
    db: database.db,
    env: app.env,
    logger: pino({ level: "silent" }),
    mailer: app.mailer,
    clock,
  };
  const provider = () => {
    const made = paymentProviderOf(app.env);
    if (!made) throw new Error("payments are off");
    return made;
  };
  async function drain(extra: string[] = []) {
    let first = extra;
    for (let round = 0; round < 6; round++) {
      const ran = await runQueuesNow(database.db, app.jobHandlers, [...first, ...MONEY_QUEUES], {
        clock,
      });
      const errors = ran.flatMap((r) => r.errors);
      if (errors.length > 0) throw new Error(`jobs failed: ${JSON.stringify(errors)}`);
      if (ran.every((r) => r.batches === 0)) return;
      first = [];
    }
  }
  return {
    database,
    app,
    clock,
    ctx,
    provider,
    drain,
    async close() {
      await app.close();
      await database.dispose();
    },
  };
}
