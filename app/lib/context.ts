import type { Database } from "~db/client";
import type { Auth } from "./auth.server";
import type { Env } from "./env.server";
import type { Logger } from "./logger.server";
import type { Mailer } from "./mail.server";
import type { Realtime } from "./realtime.server";
import type { Storage } from "./storage.server";

/** What every loader and action receives from the server: never a module singleton. */
export type AppContext = {
  db: Database;
  env: Env;
  logger: Logger;
  auth: Auth;
  mailer: Mailer;
  storage: Storage;
  realtime: Realtime;
  /** Per-request nonce for the Content-Security-Policy. */
  cspNonce: string;
  /** The client's IP address (from X-Forwarded-For only when TRUST_PROXY is set). */
  clientIp: string;
};

declare module "react-router" {
  interface AppLoadContext extends AppContext {}
}
