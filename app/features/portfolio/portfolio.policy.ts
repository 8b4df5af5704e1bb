import type { Actor } from "~/lib/actor";

/** Who may do what with a portfolio: pure rules, used by the server and the UI alike. */
type PortfolioRef = { artistProfileId: string };
export type PortfolioAccess = PortfolioRef & { isPublic: boolean };

/** Only the artist manages their portfolio (features media, edits settings, sees analytics). */
export function canManagePortfolio(actor: Actor, portfolio: PortfolioRef): boolean {
  return (
    actor !== null &&
    actor.artistProfileId !== null &&
    actor.artistProfileId === portfolio.artistProfileId
  );
}

/** A public portfolio is for everyone; a private one only for its artist. */
export function canViewPortfolio(actor: Actor, portfolio: PortfolioAccess): boolean {
  return portfolio.isPublic || canManagePortfolio(actor, portfolio);
}

/** Analytics count real visitors: never the artist looking at their own portfolio. */
export function countsAsVisit(actor: Actor, portfolio: PortfolioAccess): boolean {
  return canViewPortfolio(actor, portfolio) && !canManagePortfolio(actor, portfolio);
}
