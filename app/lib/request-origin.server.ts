import type { AppContext } from "./context";

/** Who sent a request, as evidence kept with an acceptance: the client's IP and user agent. */
export function requestOriginOf(
  request: Request,
  context: Pick<AppContext, "clientIp">,
): { ip?: string; userAgent?: string } {
  return {
    ip: context.clientIp || undefined,
    userAgent: request.headers.get("user-agent")?.slice(0, 500) || undefined,
  };
}
