/** Who may do what with a portfolio: pure rules, used by the server and the UI alike. */
export type PortfolioActor = { artistProfileId: string | null } | null;
export type PortfolioAccess = { artistProfileId: string; isPublic: boolean };

/** Only the artist manages their portfolio (features media, edits settings, sees analytics). */
export function canManagePortfolio(actor: PortfolioActor, portfolio: { artistProfileId: string }) {
  return Boolean(actor?.artistProfileId) && actor?.artistProfileId === portfolio.artistProfileId;
}

/** A public portfolio is for everyone; a private one only for its artist. */
export function canViewPortfolio(actor: PortfolioActor, portfolio: PortfolioAccess) {
  return portfolio.isPublic || canManagePortfolio(actor, portfolio);
}

/** Analytics count real visitors: never the artist looking at their own portfolio. */
export function countsAsVisit(actor: PortfolioActor, portfolio: PortfolioAccess) {
  return canViewPortfolio(actor, portfolio) && !canManagePortfolio(actor, portfolio);
}
