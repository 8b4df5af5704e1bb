// Serves the floor page's build the way server/app.ts serves the app: compression, the same
// security headers, immutable hashed assets, React Router's request handler.
import path from "node:path";
import { serve } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import { compress } from "hono/compress";
import { createRequestHandler, type ServerBuild } from "react-router";
import { ASSETS_PATH, createNonce, securityHeaders } from "../../server/security-headers";

export async function serveFloor(port: number) {
  const dir = path.join(import.meta.dirname, "build");
  const build = (await import(path.join(dir, "server/index.js"))) as ServerBuild;
  const handle = createRequestHandler(build, "production");
  const app = new Hono();
  app.use(async (c, next) => {
    await next();
    const asset = new URL(c.req.url).pathname.startsWith(ASSETS_PATH);
    // `dev: true` only leaves out the page's CSP: the bare page has no nonce for its inline script.
    const headers = securityHeaders({ nonce: createNonce(), https: false, dev: true, asset });
    for (const [k, v] of Object.entries(headers)) {
      if (!c.res.headers.has(k)) c.res.headers.set(k, v);
    }
  });
  app.use(compress());
  app.use(
    `${ASSETS_PATH}*`,
    serveStatic({
      root: path.relative(process.cwd(), path.join(dir, "client")),
      precompressed: true,
      onFound: (_p, c) => c.header("Cache-Control", "public, max-age=31536000, immutable"),
    }),
  );
  app.all("*", (c) => handle(c.req.raw));
  return serve({ fetch: app.fetch, port, hostname: "127.0.0.1" });
}
