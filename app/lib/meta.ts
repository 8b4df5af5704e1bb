import type { MetaDescriptor } from "react-router";

const SITE = "GigLedger";

/** Title, description and the Open Graph / Twitter tags a shared link previews with. */
export function pageMeta({
  title,
  description,
}: {
  title: string;
  description: string;
}): MetaDescriptor[] {
  const fullTitle = title === SITE ? SITE : `${title} | ${SITE}`;
  return [
    { title: fullTitle },
    { name: "description", content: description },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: SITE },
    { name: "twitter:card", content: "summary" },
  ];
}
