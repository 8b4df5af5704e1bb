import type { SessionsSectionData } from "~/features/music-sessions/music-sessions.server";
import { renderMarkup } from "~/lib/server-markup.server";
import { SessionList } from "./session-list";
import type { SessionsSectionView } from "./sessions-section";

/** 'Musical Sessions & Portfolio' for the browser: its list rendered here (decision 022). */
export function renderSessionsSection(
  args: Parameters<typeof renderMarkup>[0],
  data: SessionsSectionData,
  { belowFirstScreen = false } = {},
): SessionsSectionView {
  return {
    belowFirstScreen,
    isOwner: data.isOwner,
    query: data.query,
    list: renderMarkup(args, <SessionList data={data} />),
  };
}
