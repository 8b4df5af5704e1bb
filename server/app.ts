import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { compress } from "hono/compress";
import { createRequestHandler, type ServerBuild } from "react-router";
import type { AppContext } from "~/lib/context";
import type { Env } from "~/lib/env.server";
import type { Logger } from "~/lib/logger.server";
import type { DatabaseHandle } from "~db/client";
import { createNonce, securityHeaders } from "./security-headers";

export type AppOptions = {
  env: Env;
  logger: Logger;
  database: DatabaseHandle;
  /** Production passes the built module; development reloads it on every request. */
  getBuild: () => Promise<ServerBuild>;
  /** Folder of the built browser assets; absent in development (Vite serves them). */
  clientDir?: string;
};

type Vars = { nonce: string };

export function createApp({ env, logger, database, getBuild, clientDir }: AppOptions) {
  const app = new Hono<{ Variables: Vars }>();
  const dev = env.nodeEnv === "development";
  const mode = dev ? "development" : "production";

  app.use(async (c, next) => {
    const started = performance.now();
    const nonce = createNonce();
    c.set("nonce", nonce);
    await next();
    for (const [k, v] of Object.entries(securityHeaders({ nonce, https: env.isHttps, dev }))) {
      c.res.headers.set(k, v);
    }
    const url = new URL(c.req.url);
    logger.info(
      {
        method: c.req.method,
        path: url.pathname,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      },
      "request",
    );
  });
  app.use(compress());

  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    try {
      await database.ping();
      return c.json({ status: "ok", database: database.driver });
    } catch (error) {
      logger.error({ err: error }, "readiness check failed");
      return c.json({ status: "unavailable", database: database.driver }, 503);
    }
  });

  if (clientDir) {
    app.use(
      "/assets/*",
      serveStatic({
        root: clientDir,
        onFound: (_path, c) => {
          c.header("Cache-Control", "public, max-age=31536000, immutable");
        },
      }),
    );
    app.use(
      "*",
      serveStatic({
        root: clientDir,
        onFound: (_path, c) => {
          c.header("Cache-Control", "public, max-age=3600");
        },
      }),
    );
  }

  let handlerFor: { build: ServerBuild; handle: ReturnType<typeof createRequestHandler> } | null =
    null;
  app.all("*", async (c) => {
    const build = await getBuild();
    if (handlerFor?.build !== build)
      handlerFor = { build, handle: createRequestHandler(build, mode) };
    const handler = handlerFor.handle;
    const context: AppContext = {
      db: database.db,
      env,
      logger,
      cspNonce: c.get("nonce"),
    };
    return handler(c.req.raw, context);
  });

  return app;
}
