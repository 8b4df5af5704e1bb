/**
 * Markup rendered on the server by `renderMarkup` (app/lib/server-markup.server.tsx): the markup
 * itself, or on a whole page the key under which the server render finds it (`PageMarkupContext`)
 * and the browser finds it in the page (`data-markup`). `<ServerMarkup>`
 * (app/components/ui/server-markup.tsx) shows it.
 */
export type Markup = { __html: string } | { key: string };
