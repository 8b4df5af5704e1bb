/**
 * A server-drawn page's text as a person reads it: without scripts, React's comment markers and
 * tags, with the entities React writes decoded and spaces collapsed.
 */
export const pageText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<!--.*?-->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replaceAll("&#x27;", "'")
    .replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&")
    .replace(/\s+/g, " ");
