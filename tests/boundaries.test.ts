import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Module boundaries (docs/architecture.md, "The feature map"): a feature may use another feature
 * only through the crossings listed here, only downward (the features form no circle), and never
 * another feature's components (pages in app/pages compose those); nothing under app/lib or
 * app/components may depend on a feature, a page or a route. Adding a line below is a deliberate,
 * reviewed decision; a new import that is not listed fails this test.
 */
const ALLOWED_CROSSINGS = new Set<string>([
  // The ground floor: a session's verification level, and the credential queue that follows a
  // change of it. Recent Performances and discovery show each session's level.
  "artists -> verification/verification-levels",
  "artists -> verification/verification-levels.server",
  // Writes that may change a session's level queue its credential for signing or revoking.
  "bookings -> verification/credential-queue.server",
  "music-sessions -> verification/credential-queue.server",
  "sharing -> verification/credential-queue.server",
  // A credential claims the session's level as the ladder derives it; its job runs the queue
  // that the ladder's writes add to.
  "credentials -> verification/credential-queue.server",
  "credentials -> verification/verification-levels",
  "credentials -> verification/verification-levels.server",
  // A session card and page carry the session's level.
  "music-sessions -> verification/verification-levels",
  "music-sessions -> verification/verification-levels.server",
  // A session read with its owner's name and zone selects the one column list.
  "credentials -> verification/session-columns.server",
  "music-sessions -> verification/session-columns.server",
  "sharing -> verification/session-columns.server",
  // After a peer verification the ladder decides the level and writes it on the row.
  "sharing -> verification/verification-levels.server",
  // An artist publishes booking terms: the profile form offers the policies' choices and checks
  // them (artists -> terms/policies), and shows each policy's table in plain words (terms-text).
  "artists -> terms/policies",
  "artists -> terms/terms-text",
  // Terms and agreements (decision 047): the terms are the ground floor (policies, the one
  // cancellation function, plain words); an agreement copies a policy whole and prints it.
  "agreements -> terms/policies",
  "agreements -> terms/terms-text",
  "agreements -> terms/terms-types",
  // A booking's request is an offer on the artist's published terms; its quotes and its
  // agreement are kept by the agreements feature; "If you cancel now" is the terms' function.
  "bookings -> agreements/agreement-document",
  "bookings -> agreements/agreement-times",
  "bookings -> agreements/agreements.server",
  "bookings -> agreements/offer-document",
  "bookings -> agreements/payment-route-text",
  "bookings -> terms/cancellation",
  "bookings -> terms/policies",
  "bookings -> terms/published-terms",
  "bookings -> terms/published-terms.server",
  "bookings -> terms/terms-text",
  "bookings -> terms/terms-types",
  // Money through the platform (decision 055): an offer is paid through GigLedger when the artist
  // set up payouts; agreeing starts the payments, cancelling refunds by the policy. Payments read
  // the agreement (what is owed, when the event ends) and end it when a deposit lapses.
  "bookings -> payments/booking-payments.server",
  "bookings -> payments/payouts.server",
  "payments -> agreements/agreement-document",
  "payments -> agreements/agreement-times",
  "payments -> agreements/agreements.server",
  // Booking an artist follows the artist's own rule (not on one's own profile).
  "bookings -> artists/artists.policy",
  // A cancelled booking's substitutes: who is free that day.
  "bookings -> availability/availability.server",
  // Discovery's "Available on" filter uses the one "free on a date" rule.
  "artists -> availability/availability.server",
  // The discovery page's data (loadDiscovery, also what bench:discovery measures) includes the
  // listed artists' trust figures.
  "artists -> trust/trust.server",
  // A calendar feed lists the owner's bookings as calendar events, with their status rule.
  "calendars -> bookings/bookings.policy",
  // Who is asking: the current user is the accounts feature's public read.
  "diagnostics -> accounts/accounts.server",
  "media -> accounts/accounts.server",
  // Media belongs to a session: its owner rule and its look-up.
  "media -> music-sessions/music-sessions.policy",
  "media -> music-sessions/music-sessions.server",
  // Messages live inside a booking: its parties and its look-up.
  "messages -> bookings/bookings.policy",
  "messages -> bookings/booking-views.server",
  // A sharing link is for one session: its owner rule, its time rules and its look-up.
  "sharing -> music-sessions/music-sessions.policy",
  "sharing -> music-sessions/music-sessions.schema",
  "sharing -> music-sessions/music-sessions.server",
  // An agreement is signed by the CV's key: its DID and key id.
  "agreements -> credentials/did",
  // Problem reports (decision 058): a decision refunds through the payments' one refund path and
  // records its money events; an artist's no-show ends the agreement; the desk is for operators,
  // whom the current user's roles name.
  "problems -> payments/booking-payments.server",
  "problems -> payments/money-events.server",
  "problems -> agreements/agreements.server",
  "problems -> accounts/accounts.server",
  // A report's files are recognised like session media: from their first bytes.
  "problems -> media/media-type",
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
  // `import "./module";`: imported for what it does when it loads.
  const bare = [...text.matchAll(/^\s*import\s+["']([^"']+)["']/gm)].map((m) => m[1] as string);
  return [...specs, ...dynamic, ...bare].flatMap((spec) => {
    if (spec.startsWith("~/")) return [path.join("app", spec.slice(2))];
    if (spec.startsWith(".")) return [path.join(path.dirname(file), spec)];
    return [];
  });
}

const featureOf = (p: string) => /^app\/features\/([^/]+)\//.exec(p)?.[1] ?? null;
const isTest = (p: string) => /\.test\.tsx?$/.test(p);
/** A module imported without its extension is a component when its file is a .tsx. */
const isComponent = (target: string) =>
  /\.tsx$/.test(target) ||
  (!/\.tsx?$/.test(target) && existsSync(path.join(ROOT, `${target}.tsx`)));

/** Every import from one feature into another, as `from -> to/module`, with the importing file. */
function crossings(files: string[]) {
  const found = new Map<string, { from: string; to: string; file: string; target: string }>();
  for (const file of files) {
    const from = featureOf(file);
    if (!from) continue;
    for (const target of importsOf(file)) {
      const to = featureOf(`${target}/`);
      if (!to || to === from) continue;
      const name = `${from} -> ${to}/${path.basename(target).replace(/\.(ts|tsx)$/, "")}`;
      if (!found.has(name)) found.set(name, { from, to, file, target });
    }
  }
  return found;
}

/**
 * The features from the ground floor up (each after all it imports), or the first circle found,
 * as its features in import order with the first repeated at the end.
 */
function floorOrder(
  edges: Iterable<{ from: string; to: string }>,
): { order: string[] } | { circle: string[] } {
  const imports = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (!imports.has(to)) imports.set(to, new Set());
    imports.set(from, (imports.get(from) ?? new Set()).add(to));
  }
  const order: string[] = [];
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (f: string): string[] | null => {
    if (state.get(f) === "done") return null;
    if (state.get(f) === "open") return [...path.slice(path.indexOf(f)), f];
    state.set(f, "open");
    path.push(f);
    for (const g of [...(imports.get(f) ?? [])].sort()) {
      const circle = visit(g);
      if (circle) return circle;
    }
    path.pop();
    state.set(f, "done");
    order.push(f);
    return null;
  };
  for (const f of [...imports.keys()].sort()) {
    const circle = visit(f);
    if (circle) return { circle };
  }
  return { order };
}

describe("module boundaries", () => {
  const files = sourceFiles("app").filter((f) => !isTest(f));
  const found = crossings(files);

  it("a feature imports another feature only through an allowed crossing", () => {
    const unlisted = [...found.keys()].filter((c) => !ALLOWED_CROSSINGS.has(c)).sort();
    expect(unlisted, "unlisted cross-feature imports").toEqual([]);
    const unused = [...ALLOWED_CROSSINGS].filter((c) => !found.has(c)).sort();
    expect(unused, "allow-list entries no longer used (remove them)").toEqual([]);
  });

  it("features import downward only: no circle between features", () => {
    const result = floorOrder(found.values());
    if ("circle" in result) {
      const steps = result.circle.slice(1).map((to, i) => {
        const from = result.circle[i] as string;
        const via = [...found.values()].find((c) => c.from === from && c.to === to);
        return `  ${from} -> ${to}: ${via?.file} imports ${via?.target}`;
      });
      expect.fail(
        `features import each other in a circle: ${result.circle.join(" -> ")}\n${steps.join("\n")}`,
      );
    }
    expect(result.order.length).toBeGreaterThan(0);
  });

  it("a feature never imports another feature's components (pages compose them)", () => {
    const offenders = [...found.entries()]
      .filter(([, c]) => isComponent(c.target))
      .map(([name, c]) => `${name} (${c.file})`)
      .sort();
    expect(offenders, "feature components imported by another feature").toEqual([]);
  });

  it("shared code (app/lib, app/components) does not depend on features, pages or routes", () => {
    const found = new Set<string>();
    for (const file of files.filter((f) => /^app\/(lib|components)\//.test(f))) {
      for (const target of importsOf(file)) {
        if (/^app\/(features|pages|routes)\//.test(target))
          found.add(`${file} -> ${target.replace(/\.(ts|tsx)$/, "")}`);
      }
    }
    expect([...found].sort()).toEqual([]);
  });

  it("only routes and pages import a page module", () => {
    const offenders = files.flatMap((file) =>
      importsOf(file)
        .filter((t) => t.startsWith("app/pages/") && !/^app\/(routes|pages)\//.test(file))
        .map((t) => `${file} -> ${t}`),
    );
    expect(offenders).toEqual([]);
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
