import { todayIn } from "~/lib/dates";
import { loadEnv } from "~/lib/env.server";
import { createLogger } from "~/lib/logger.server";
import { createStorage } from "~/lib/storage.server";
import { databaseOptionsFor, openDatabase } from "~db/client";
import { seedDemoData } from "./seed";

const env = loadEnv();
const handle = openDatabase(databaseOptionsFor(env));
await handle.migrate();
await seedDemoData(handle.db, {
  today: todayIn(env.timeZone),
  media: { env, storage: createStorage(env.storage), logger: createLogger(env.logLevel) },
});
await handle.close();
console.log("Demo data is in place.");
