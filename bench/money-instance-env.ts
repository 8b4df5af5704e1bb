// What a process started by `npm run bench:money` is told (bench/money.ts sets these): its
// database, which must be on this machine, its port and data folder, as the app's environment.
import { loadEnv } from "~/lib/env.server";

export function instanceSettings() {
  const url = process.env.BENCH_INSTANCE_DATABASE_URL ?? "";
  const port = Number(process.env.BENCH_INSTANCE_PORT);
  if (!["127.0.0.1", "localhost", "[::1]"].includes(new URL(url).hostname))
    throw new Error("the bench's database must be on this machine (127.0.0.1)");
  const env = loadEnv({
    NODE_ENV: "production",
    DATA_DIR: process.env.BENCH_INSTANCE_DATA_DIR ?? "",
    DATABASE_URL: url,
    APP_URL: `http://127.0.0.1:${port}`,
    PORT: String(port),
    PAYMENTS: "local",
    LOG_LEVEL: "error",
  });
  return { url, port, env };
}
