import { Readable } from "node:stream";
import { getConnInfo } from "@hono/node-server/conninfo";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { compress } from "hono/compress";
import { createRequestHandler, type ServerBuild } from "react-router";
import { confirmPaidBooking } from "~/features/bookings/bookings.server";
import { handleMediaUpload } from "~/features/media/media.server";
import { faultPointsOf } from "~/features/payments/faults.server";
import { RecentEvents, receiveRazorpayWebhook } from "~/features/payments/payment-events.server";
import { MAX_WEBHOOK_BYTES } from "~/features/payments/webhook-signature";
import { PROBLEM_FILES_PREFIX } from "~/features/problems/problem-files.server";
import { AUTH_BASE_PATH, type Auth, trustedOrigins } from "~/lib/auth.server";
import { type Clock, isLocalClock } from "~/lib/clock.server";
import type { AppContext } from "~/lib/context";
import type { Env } from "~/lib/env.server";
import type { QueueHandler } from "~/lib/jobs.server";
import type { Logger } from "~/lib/logger.server";
import type { Mailer } from "~/lib/mail.server";
import type { Realtime } from "~/lib/realtime.server";
import { parseRange, type Storage } from "~/lib/storage.server";
import type { DatabaseHandle } from "~db/client";
import { applyCachePolicy } from "./cache-policy";
import { createDevClock } from "./dev-clock";
import { createDevPsp } from "./dev-psp/dev-psp";
import { createMicroCache } from "./micro-cache";
import { ASSETS_PATH, createNonce, securityHeaders } from "./security-headers";

export type AppOptions = {
  env: Env;
  logger: Logger;
  database: DatabaseHandle;
  auth: Auth;
  mailer: Mailer;
  storage: Storage;
  realtime: Realtime;
  /** The app's clock (decision 054). */
  clock: Clock;
  /** Every queue's handler, for a local app's `/dev/jobs/run`. */
  jobHandlers: QueueHandler[];
  /** Production passes the built module; development reloads it on every request. */
  getBuild: () => Promise<ServerBuild>;
  /** Folder of the built browser assets; absent in development (Vite serves them). */
  clientDir?: string;
};

type Vars = { nonce: string };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Forms and avatar uploads; media uploads have their own streaming route and limits. */
export const MAX_FORM_BYTES = 6 * 1024 * 1024;

export function createApp({
  env,
  logger,
  database,
  auth,
  mailer,
  storage,
  realtime,
  clock,
  jobHandlers,
  getBuild,
  clientDir,
}: AppOptions) {
  const app = new Hono<{ Variables: Vars }>();
  const dev = env.nodeEnv === "development";
  const mode = dev ? "development" : "production";

  app.use(async (c, next) => {
    const started = performance.now();
    c.set("nonce", createNonce());
    await next();
    // A page served from the microcache brings the nonce it was rendered with.
    const nonce = c.get("nonce");
    // Defaults only: a response that set one of these headers itself keeps its own value. Uploaded
    // files must keep their `default-src 'none'; sandbox` policy, not get the page policy.
    const url = new URL(c.req.url);
    const asset = url.pathname.startsWith(ASSETS_PATH);
    for (const [k, v] of Object.entries(
      securityHeaders({ nonce, https: env.isHttps, dev, asset }),
    )) {
      if (!c.res.headers.has(k)) c.res.headers.set(k, v);
    }
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

  // Any write this instance takes (forms, uploads) makes the microcache forget, before and after.
  const microCache = createMicroCache();
  app.use(async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    microCache.clear();
    await next();
    microCache.clear();
  });

  // CSRF: browsers send Origin with every cross-site POST; refuse those not from our origins.
  const origins = new Set(trustedOrigins(env));
  app.use(async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header("origin");
    const crossSite = origin
      ? !origins.has(origin)
      : c.req.header("sec-fetch-site") === "cross-site";
    if (crossSite) {
      logger.warn({ origin, path: c.req.path }, "refused a cross-origin request");
      return c.text("Cross-origin request refused", 403);
    }
    return next();
  });

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

  // Session media streams straight to storage with its own per-type limits, so it is mounted
  // before the form body limit.
  app.put("/api/sessions/:sessionId/media", (c) =>
    handleMediaUpload(
      c.req.raw,
      { db: database.db, auth, env, storage, logger },
      c.req.param("sessionId"),
    ),
  );

  // The payment provider's events (decision 055): the raw bytes are what the signature covers.
  // The events this instance stored lately: a redelivery here is answered without the database.
  const recentEvents = new RecentEvents();
  app.post(
    "/webhooks/razorpay",
    bodyLimit({
      maxSize: MAX_WEBHOOK_BYTES,
      onError: (c) => c.text("The body is too large.", 413),
    }),
    async (c) => {
      const raw = new Uint8Array(await c.req.arrayBuffer());
      const answer = await receiveRazorpayWebhook(
        database.db,
        env,
        clock,
        raw,
        c.req.raw.headers,
        faultPointsOf(env),
        { hooks: { confirmPaidBooking }, logger, stored: recentEvents },
      );
      // Its length given: compress() leaves a two-byte answer as it is.
      return c.text(answer.body, answer.status, {
        "content-length": String(Buffer.byteLength(answer.body)),
      });
    },
  );

  app.use(
    bodyLimit({
      maxSize: MAX_FORM_BYTES,
      onError: (c) =>
        c.text(
          "This request is too large. Files for your profile picture can be at most 5 MB.",
          413,
        ),
    }),
  );

  // The embedded payment provider, a Razorpay-compatible fake (decision 053): only while the app is
  // local, like /dev/outbox; a public app never mounts it, so /dev/psp falls through to a 404.
  if (!env.isPublic)
    app.route(
      "/dev/psp",
      createDevPsp({
        db: database.db,
        clock,
        // Its webhooks come to this app when payments run through it (PAYMENTS=local).
        webhookUrl:
          env.payments.mode === "local"
            ? new URL("/webhooks/razorpay", env.appUrl).toString()
            : undefined,
      }),
    );
  // The app's clock and the job queues run on demand (decision 054), local only in the same way.
  // A POST to them would reach the router's page for unknown addresses, which answers 405.
  if (!env.isPublic && isLocalClock(clock))
    app.route("/dev", createDevClock({ db: database.db, env, clock, jobHandlers }));
  else app.on("POST", ["/dev/clock", "/dev/jobs/run"], (c) => c.text("Not found", 404));

  // Problem reports' files are private (decision 058): they are read through their booking's
  // checked address only, never here.
  app.get("/files/*", (c) => {
    const key = c.req.path.slice("/files/".length);
    if (key.startsWith(PROBLEM_FILES_PREFIX)) return c.text("Not found", 404);
    return serveFile(c.req.raw, key, storage);
  });

  // Only the links sent by e-mail reach better-auth over HTTP (confirm address, open reset form);
  // every other account operation goes through our own actions.
  app.get(`${AUTH_BASE_PATH}/verify-email`, (c) => auth.handler(c.req.raw));
  app.get(`${AUTH_BASE_PATH}/reset-password/:token`, (c) => auth.handler(c.req.raw));

  // The build wrote Brotli and gzip copies beside each text file of 1 KiB or more
  // (vite.precompress.ts): `precompressed` sends the one the browser accepts. compress() above
  // still sees the files without copies: those copied from public/ (it skips those under 1 KiB).
  if (clientDir) {
    app.use(
      `${ASSETS_PATH}*`,
      serveStatic({
        root: clientDir,
        precompressed: true,
        onFound: (_path, c) => {
          c.header("Cache-Control", "public, max-age=31536000, immutable");
        },
      }),
    );
    app.use(
      "*",
      serveStatic({
        root: clientDir,
        precompressed: true,
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
      auth,
      mailer,
      storage,
      realtime,
      clock,
      cspNonce: c.get("nonce"),
      clientIp: clientIp(c.req.raw, env.trustProxy, () => getConnInfo(c).remote.address),
      pageMarkup: new URL(c.req.url).pathname.endsWith(".data") ? undefined : new Map(),
    };
    const cached = microCache.lookup(c.req.raw);
    if (cached) {
      c.set("nonce", cached.nonce);
      return cached.response;
    }
    const response = await handler(c.req.raw, context);
    applyCachePolicy(c.req.raw, response);
    return microCache.keep(c.req.raw, response, context.cspNonce);
  });

  return app;
}

function clientIp(request: Request, trustProxy: boolean, socketAddress: () => string | undefined) {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return socketAddress() ?? "unknown";
  } catch {
    // Requests that did not come through a socket (tests calling app.fetch directly).
    return "local";
  }
}

/**
 * Uploaded files: exact type, never sniffed or rendered as a page, byte ranges so players can
 * seek. Keys are unique per upload, so a file never changes and can be cached for a year.
 */
async function serveFile(request: Request, key: string, storage: Storage) {
  let info: Awaited<ReturnType<Storage["stat"]>>;
  try {
    info = await storage.stat(key);
  } catch {
    info = null; // an unsafe key is simply not found
  }
  if (!info) return new Response("Not found", { status: 404 });
  const headers = new Headers({
    "Content-Type": info.contentType,
    "X-Content-Type-Options": "nosniff",
    "Content-Disposition": `inline; filename="${key.split("/").pop()}"`,
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cache-Control": "public, max-age=31536000, immutable",
    "Accept-Ranges": "bytes",
  });
  const range = parseRange(request.headers.get("range") ?? undefined, info.size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${info.size}`);
    return new Response(null, { status: 416, headers });
  }
  if (request.method === "HEAD") {
    headers.set("Content-Length", String(info.size));
    return new Response(null, { status: 200, headers });
  }
  const file = await storage.get(key, range ?? undefined);
  if (!file) return new Response("Not found", { status: 404 });
  const body = Readable.toWeb(file.body) as ReadableStream;
  if (range) {
    headers.set("Content-Range", `bytes ${range.start}-${range.end}/${info.size}`);
    headers.set("Content-Length", String(range.end - range.start + 1));
    return new Response(body, { status: 206, headers });
  }
  headers.set("Content-Length", String(info.size));
  return new Response(body, { status: 200, headers });
}
