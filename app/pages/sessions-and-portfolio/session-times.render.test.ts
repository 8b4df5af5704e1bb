import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { SessionCard as SessionCardData } from "~/features/music-sessions/music-sessions.server";
import { RecentPerformances } from "~/pages/artist-profile/recent-performances";
import { SessionCard } from "./session-card";

/**
 * The card and Recent Performances show a session at its artist's wall clock, with the zone's
 * short name, whatever zone the process runs in: 19:00 UTC is 12:30 AM the next day in Kolkata.
 */
const startTime = new Date("2026-11-15T19:00:00Z");

describe("one time, one date, everywhere", () => {
  it("the session card shows the owner's wall clock", () => {
    const session: SessionCardData = {
      id: "11111111-1111-4111-8111-111111111111",
      artistProfileId: "a1",
      title: "After hours",
      sessionType: "performance",
      startTime,
      durationMinutes: 90,
      venue: "Blue Frog",
      instrumentsUsed: [],
      genres: [],
      isVerified: false,
      level: { level: "self_logged", verifiers: [], reachedAt: null },
      timeZone: "Asia/Kolkata",
      listedAsCollaborator: false,
      ownerName: "Asha Rao",
    };
    const html = renderToStaticMarkup(
      createElement(MemoryRouter, null, createElement(SessionCard, { session, canEdit: true })),
    );
    expect(html).toContain("November 16, 2026, 12:30 AM IST");
    expect(html).toContain('href="/sessions/11111111-1111-4111-8111-111111111111?panel=edit"');
  });

  it("Recent Performances shows the same date and time, and the duration in words", () => {
    const html = renderToStaticMarkup(
      createElement(
        MemoryRouter,
        null,
        createElement(RecentPerformances, {
          timeZone: "Asia/Kolkata",
          performances: [
            {
              id: "p1",
              title: "After hours",
              venue: "Blue Frog",
              sessionType: "performance",
              startTime,
              durationMinutes: 90,
              isVerified: true,
              level: {
                level: "client_verified",
                verifiers: [{ name: "the client", artistSlug: null, at: startTime }],
                reachedAt: startTime,
              },
            },
          ],
        }),
      ),
    );
    expect(html).toContain("November 16, 2026, 12:30 AM IST");
    expect(html).not.toContain("November 15");
    expect(html).toContain("1.5 hours");
    expect(html).toContain("Client-verified");
    expect(html).toContain("Verified by the client on Nov 16, 2026");
    expect(html).toContain('href="/verification"');
  });
});
