import type { Database } from "~db/client";
import type { Env } from "./env.server";
import type { Logger } from "./logger.server";

/** What every loader and action receives from the server: never a module singleton. */
export type AppContext = {
  db: Database;
  env: Env;
  logger: Logger;
  /** Per-request nonce for the Content-Security-Policy. */
  cspNonce: string;
};

declare module "react-router" {
  interface AppLoadContext extends AppContext {}
}
