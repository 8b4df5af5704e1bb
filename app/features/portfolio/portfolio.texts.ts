// Words shared by the server and the browser: kept apart from portfolio.schema.ts, whose Zod
// schemas would otherwise be bundled into the browser with them (about 24 KiB compressed).
export const NOT_THE_ARTIST = "Portfolio management is only available to the artist";
