// Control pages for `LIGHTHOUSE_CONTROLS=1 npm run bench:lighthouse` (decision 036): pages with no
// JavaScript at all, measured beside the real ones, to tell what of a page's TBT its scripts add
// and what the machine adds to any page.
// - "static page": a heading and a sentence, the least a page can be.
// - "<page>, markup only": the public page's own server-rendered HTML, fetched once (signed out)
//   with every <script> element taken out, served gzipped as the app serves it. A <base> element
//   makes its images and links load from the app, as on the real page.
// Neither is judged against the targets.
import { gzipSync } from "node:zlib";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import type { Page } from "./bench-setup";

const STATIC_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>Static page</title></head><body><h1>Find musicians</h1>
<p>A page with no JavaScript, served the same way as the others.</p></body></html>`;

/** The page's markup without its scripts, its relative addresses resolved against `appUrl`. */
export function markupOnly(html: string, appUrl: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, "")
    .replace(/<link rel="modulepreload"[^>]*>/g, "")
    .replace(/<head>/, `<head><base href="${appUrl}/">`);
}

/** Starts the control pages' server; returns it with the pages to measure. */
export async function serveControls(port: number, appUrl: string, publicPages: Page[]) {
  const bodies = new Map<string, Buffer>([["/static", gzipSync(STATIC_PAGE)]]);
  const pages: Page[] = [
    { label: "control: static page", path: `http://127.0.0.1:${port}/static` },
  ];
  for (const [index, page] of publicPages.entries()) {
    const response = await fetch(`${appUrl}${page.path}`);
    if (!response.ok) throw new Error(`${page.path} answered ${response.status}`);
    const route = `/markup-${index}`;
    bodies.set(route, gzipSync(markupOnly(await response.text(), appUrl)));
    pages.push({
      label: `control: ${page.label}, markup only`,
      path: `http://127.0.0.1:${port}${route}`,
    });
  }
  const app = new Hono();
  app.get("*", (c) => {
    const body = bodies.get(new URL(c.req.url).pathname);
    if (!body) return c.notFound();
    return c.body(new Uint8Array(body), 200, {
      "content-type": "text/html; charset=utf-8",
      "content-encoding": "gzip",
      "cache-control": "no-store",
    });
  });
  const server = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" });
  return { server, pages };
}
