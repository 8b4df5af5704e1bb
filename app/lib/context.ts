import type { Database } from "~db/client";
import type { Auth } from "./auth.server";
import type { Clock } from "./clock.server";
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
  /**
   * The app's "now" (decision 054): real time on a public app; on a local app, real time plus
   * the offset set at `/dev/clock`. Money rules and the timestamps they write read it.
   */
  clock: Clock;
  /** Per-request nonce for the Content-Security-Policy. */
  cspNonce: string;
  /** The client's IP address (from X-Forwarded-For only when TRUST_PROXY is set). */
  clientIp: string;
  /**
   * On a request for a whole page (not a `.data` request), where `renderMarkup` keeps the markup
   * it renders: the server render writes it into the page once, instead of also in the page's
   * data (decision 022).
   */
  pageMarkup?: Map<string, string>;
};

declare module "react-router" {
  interface AppLoadContext extends AppContext {}
}
