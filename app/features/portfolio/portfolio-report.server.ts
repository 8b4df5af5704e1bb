import type { Actor } from "~/lib/actor";
import type { AppContext } from "~/lib/context";
import { parseForm, readForm, replyOk } from "~/lib/form.server";
import { PortfolioEventSchema } from "./portfolio.schema";
import { recordPortfolioEvent } from "./portfolio.server";

/**
 * A report from a public portfolio page (a view after hydration, a play, a share). The answer
 * says whether it counted (the artist's own visits and repeats do not); malformed reports get a
 * 400. Served by `/portfolio/:id/report`, which the page's browser code posts to: a plain
 * request, without the router's route discovery and data round trip (decision 021).
 */
export async function reportPortfolioEvent(
  context: AppContext,
  viewer: Actor,
  input: { request: Request; portfolioId: string },
) {
  const parsed = parseForm(PortfolioEventSchema, await readForm(input.request));
  if (!parsed.ok) return parsed.reply;
  const recorded = await recordPortfolioEvent(context, viewer, {
    portfolioId: input.portfolioId,
    event: parsed.data,
    visitorKey: viewer ? `user:${viewer.id}` : `ip:${context.clientIp}`,
  });
  return replyOk(recorded);
}
