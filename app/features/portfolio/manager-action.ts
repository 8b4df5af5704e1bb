/** Where the portfolio manager's forms post (and its data loads from): its route. */
export const MANAGER_ACTION = "/portfolio-manager";
