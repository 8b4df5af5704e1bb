import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Module boundaries (docs/architecture.md, "Kinds of file in a feature"): a feature may use
 * another feature only through the crossings listed here, and nothing under app/lib or
 * app/components may depend on a feature or a route. Adding a line below is a deliberate,
 * reviewed decision; a new import that is not listed fails this test.
 */
const ALLOWED_CROSSINGS = new Set<string>([
  // Recent Performances show each session's verification level (derived in music-sessions).
  "artists -> music-sessions/verification-levels",
  "artists -> music-sessions/verification-levels.server",
  "artists -> music-sessions/verification-level-badge",
  // Booking an artist follows the artist's own rule (not on one's own profile).
  "bookings -> artists/artists.policy",
  // A cancelled booking's substitutes: who is free that day, shown with avatar and rating.
  "bookings -> artists/artist-avatar",
  "bookings -> artists/format",
  "bookings -> availability/availability.server",
  // Discovery's "Available on" filter uses the one "free on a date" rule.
  "artists -> availability/availability.server",
  // The discovery page's data (loadDiscovery, also what bench:discovery measures) includes the
  // listed artists' trust figures.
  "artists -> trust/trust.server",
  // A calendar feed lists the owner's bookings as calendar events, with their status rule.
  "calendars -> bookings/bookings.policy",
  // Writes that may change a session's level queue its credential for signing or revoking.
  "bookings -> credentials/credential-queue.server",
  "sharing -> credentials/credential-queue.server",
  // A credential claims the session's level as the verification ladder derives it.
  "credentials -> music-sessions/verification-levels",
  "credentials -> music-sessions/verification-levels.server",
  // Lineup answers and the client's venue choice change what a session's credential claims.
  "music-sessions -> credentials/credential-queue.server",
  // Who is asking: the current user is the accounts feature's public read.
  "diagnostics -> accounts/accounts.server",
  "media -> accounts/accounts.server",
  // Media belongs to a session: its owner rule and its look-up.
  "media -> music-sessions/music-sessions.policy",
  "media -> music-sessions/music-sessions.server",
  // Messages live inside a booking: its parties and its look-up.
  "messages -> bookings/bookings.policy",
  "messages -> bookings/bookings.server",
  // The session page composes its media list, upload widget and sharing panel.
  "music-sessions -> media/media-list",
  "music-sessions -> media/media-type",
  "music-sessions -> media/media-upload",
  "music-sessions -> sharing/share-panel",
  // 'Musical Sessions & Portfolio' shows the owner's portfolio manager in its second tab.
  "music-sessions -> portfolio/portfolio-manager",
  // The public portfolio shows the artist's avatar and verified figures.
  "portfolio -> artists/artist-avatar",
  "portfolio -> artists/verified-figures",
  // A sharing link is for one session: its owner rule, its time rules and its look-up.
  "sharing -> music-sessions/music-sessions.policy",
  "sharing -> music-sessions/music-sessions.schema",
  "sharing -> music-sessions/music-sessions.server",
  // The peer rule's threshold is the ladder's Peer-confirmed one.
  "sharing -> music-sessions/verification-levels",
]);

const ROOT = path.resolve(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|tsx)$/.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
}

/** Every module a file imports, as a repository path without extension (only our own code). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const specs = [...text.matchAll(/(?:import|export)[^"']*?from\s+["']([^"']+)["']/g)].map(
    (m) => m[1] as string,
  );
  const dynamic = [...text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)].map(
    (m) => m[1] as string,
  );
  return [...specs, ...dynamic].flatMap((spec) => {
    if (spec.startsWith("~/")) return [path.join("app", spec.slice(2))];
    if (spec.startsWith(".")) return [path.join(path.dirname(file), spec)];
    return [];
  });
}

const featureOf = (p: string) => /^app\/features\/([^/]+)\//.exec(p)?.[1] ?? null;
const isTest = (p: string) => /\.test\.tsx?$/.test(p);

describe("module boundaries", () => {
  const files = sourceFiles("app").filter((f) => !isTest(f));

  it("a feature imports another feature only through an allowed crossing", () => {
    const found = new Set<string>();
    for (const file of files) {
      const from = featureOf(file);
      if (!from) continue;
      for (const target of importsOf(file)) {
        const to = featureOf(`${target}/`);
        if (!to || to === from) continue;
        found.add(`${from} -> ${to}/${path.basename(target).replace(/\.(ts|tsx)$/, "")}`);
      }
    }
    const unlisted = [...found].filter((c) => !ALLOWED_CROSSINGS.has(c)).sort();
    expect(unlisted, "unlisted cross-feature imports").toEqual([]);
    const unused = [...ALLOWED_CROSSINGS].filter((c) => !found.has(c)).sort();
    expect(unused, "allow-list entries no longer used (remove them)").toEqual([]);
  });

  it("shared code (app/lib, app/components) does not depend on features or routes", () => {
    const found = new Set<string>();
    for (const file of files.filter((f) => /^app\/(lib|components)\//.test(f))) {
      for (const target of importsOf(file)) {
        if (/^app\/(features|routes)\//.test(target))
          found.add(`${file} -> ${target.replace(/\.(ts|tsx)$/, "")}`);
      }
    }
    expect([...found].sort()).toEqual([]);
  });

  it("nothing imports a route module", () => {
    const offenders = files.flatMap((file) =>
      importsOf(file)
        .filter((t) => t.startsWith("app/routes/") && !file.startsWith("app/routes/"))
        .map((t) => `${file} -> ${t}`),
    );
    expect(offenders).toEqual([]);
  });
});
