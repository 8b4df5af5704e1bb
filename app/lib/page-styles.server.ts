// The stylesheet's text for the server render (see page-styles.tsx); never part of a browser file.
import css from "~/app.css?inline";

export const PAGE_CSS: string = css;
