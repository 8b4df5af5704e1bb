import { getCurrentUser } from "~/features/accounts/accounts.server";
import { reportPortfolioEvent } from "~/features/portfolio/portfolio-report.server";
import type { Route } from "./+types/portfolio.$id.report";

/** Reports from a public portfolio page's browser code (see public-portfolio.tsx). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const viewer = await getCurrentUser(request, context);
  return reportPortfolioEvent(context, viewer, { request, portfolioId: params.id });
}
