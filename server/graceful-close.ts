import type { IncomingMessage, Server, ServerResponse } from "node:http";

/**
 * Graceful close for an HTTP server whose clients keep connections alive. Call it when the server
 * is created; the function it returns stops the server:
 * - new connections are refused and idle keep-alive connections are closed at once;
 * - requests in flight finish, and their connections close as soon as their answer is sent (any
 *   request that still arrives on an open connection is answered with `Connection: close`), so a
 *   busy keep-alive client cannot hold the server open;
 * - whatever is still open after `graceMs` (long-lived streams, stuck requests) is cut.
 * It resolves once every connection is closed.
 */
export function gracefulClose(server: Server) {
  const inFlight = new Set<ServerResponse>();
  let closing = false;

  // First among the request listeners, so the flag is set before the app starts to answer.
  server.prependListener("request", (_req: IncomingMessage, res: ServerResponse) => {
    if (closing) res.shouldKeepAlive = false;
    inFlight.add(res);
    res.once("close", () => {
      inFlight.delete(res);
      // Its connection is idle now (the answer is sent): close it rather than wait for another
      // request on it.
      if (closing) server.closeIdleConnections();
    });
  });

  let closed: Promise<void> | null = null;
  return (graceMs: number): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      closing = true;
      for (const res of inFlight) if (!res.headersSent) res.shouldKeepAlive = false;
      const force = setTimeout(() => server.closeAllConnections(), graceMs);
      force.unref();
      server.close(() => {
        clearTimeout(force);
        resolve();
      });
      server.closeIdleConnections();
    });
    return closed;
  };
}
