import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext, HandleErrorFunction } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { PageMarkupContext } from "~/components/ui/server-markup";
import { NonceContext } from "~/lib/nonce";
import { PageStylesContext } from "~/lib/page-styles";
import { PAGE_STYLES_SLOT, withPageStyles } from "~/lib/page-styles.server";
import { withScriptsAfterPaint } from "~/lib/scripts-after-paint.server";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Our pages defer no data, so the whole page is ready when its shell is: it is sent as one
    // buffer rather than streamed in React's small chunks (each one a trip through the
    // compressor and a socket write), which cut an artist profile's server time by about a third.
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <PageStylesContext.Provider value={PAGE_STYLES_SLOT}>
          <PageMarkupContext.Provider value={loadContext.pageMarkup}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </PageMarkupContext.Provider>
        </PageStylesContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        // A Suspense boundary's markup stays in place, however large: React would otherwise
        // send a big one (over 12,800 bytes) after the page and move it in with a script, and a
        // page read without JavaScript would show its fallback (decision 022).
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onAllReady() {
          shellRendered = true;
          const body = new PassThrough();
          const chunks: Buffer[] = [];
          body.on("data", (chunk: Buffer) => chunks.push(chunk));
          body.on("error", reject);
          body.on("end", () => {
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            // The page's own stylesheet rules go in now that its markup is known, and its
            // scripts wait for its first paint (decisions 023 and 024; in development Vite's
            // own scripts run as they come).
            const page = withPageStyles(Buffer.concat(chunks).toString("utf8"));
            const html = import.meta.env.PROD ? withScriptsAfterPaint(page) : page;
            resolve(
              new Response(html, {
                headers: responseHeaders,
                status: responseStatusCode,
              }),
            );
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.logger.error({ err: error }, "render error");
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

/**
 * Every unexpected loader, action or render error is logged once, with the request. The
 * router's own answers to a bad request (405 for a method no route takes, 404, 400) are not
 * errors of ours: the request log line already has their status.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  context.logger.error(
    { err: error, method: request.method, url: request.url },
    "unhandled route error",
  );
};
