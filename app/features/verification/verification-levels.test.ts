import { describe, expect, it } from "vitest";
import {
  type Confirmation,
  LEVEL_INFO,
  type LevelFacts,
  levelOf,
  levelRank,
  VERIFICATION_LEVELS,
  verifiedByText,
} from "./verification-levels";

const at = (hour: number) => new Date(Date.UTC(2026, 10, 15, hour));
const facts = (over: Partial<LevelFacts> = {}): LevelFacts => ({
  clientRatedAt: null,
  peers: [],
  lineup: [],
  ...over,
});
/** A confirmation that counts, from an artist outside the owner's ring, unless told. */
const voice = (name: string, hour: number, over: Partial<Confirmation> = {}): Confirmation => ({
  artistId: `id-${name}`,
  name,
  artistSlug: name.toLowerCase(),
  at: at(hour),
  void: null,
  hasClientGig: false,
  independent: true,
  ...over,
});
const member = (
  name: string,
  answer: "confirmed" | "declined" | null,
  hour: number | null,
  over: Partial<Confirmation> = {},
): LevelFacts["lineup"][number] => ({
  artistId: `id-${name}`,
  name,
  artistSlug: name.toLowerCase(),
  answer,
  confirmation: answer === "confirmed" && hour !== null ? voice(name, hour, over) : null,
});

describe("the ladder's order and words", () => {
  it("runs by independence: Self-logged < Peer-confirmed < Lineup-verified < Client-verified < Paid & agreed", () => {
    expect(VERIFICATION_LEVELS.map((l) => l.label)).toEqual([
      "Self-logged",
      "Peer-confirmed",
      "Lineup-verified",
      "Client-verified",
      "Paid & agreed",
    ]);
    expect(levelRank("client_verified")).toBeGreaterThan(levelRank("lineup_verified"));
    expect(levelRank("paid_and_agreed")).toBeGreaterThan(levelRank("client_verified"));
    expect(LEVEL_INFO.paid_and_agreed.explanation).toBe(
      "Agreed and paid here; the payout was released with no problem reported.",
    );
    expect(LEVEL_INFO.client_verified.explanation).toBe(
      "Booked and completed here, and rated by its client.",
    );
  });

  it("says for each level what it proves and what it does not", () => {
    for (const level of VERIFICATION_LEVELS.slice(1)) {
      expect(level.detail).toMatch(/proves/);
      expect(level.detail).toMatch(/does not prove/);
    }
  });
});

describe("levelOf: Paid & agreed", () => {
  it("stands above every other rung, verified by the client when the payout was released", () => {
    const level = levelOf(
      facts({
        clientRatedAt: at(1),
        paidAndAgreedAt: at(50),
        peers: [voice("A", 2), voice("B", 3)],
      }),
    );
    expect(level).toEqual({
      level: "paid_and_agreed",
      verifiers: [{ name: "the client", artistSlug: null, at: at(50) }],
      reachedAt: at(50),
    });
    expect(verifiedByText(level, (d) => d.toISOString().slice(0, 10))).toBe(
      "Verified by the client on 2026-11-17",
    );
  });

  it("a rated booking whose payout is not released (or not paid here) stays Client-verified", () => {
    expect(levelOf(facts({ clientRatedAt: at(1), paidAndAgreedAt: null })).level).toBe(
      "client_verified",
    );
  });
});

describe("levelOf: more than one voice", () => {
  it.each([
    ["nobody", facts(), "self_logged"],
    ["one voice", facts({ peers: [voice("A", 1)] }), "self_logged"],
    ["two voices", facts({ peers: [voice("A", 1), voice("B", 2)] }), "peer_confirmed"],
    [
      "one voice with a client-verified gig of their own",
      facts({ peers: [voice("A", 1, { hasClientGig: true })] }),
      "peer_confirmed",
    ],
    [
      "the same artist twice (a peer verification and a lineup answer)",
      facts({ peers: [voice("A", 1)], lineup: [member("A", "confirmed", 2)] }),
      "self_logged",
    ],
    [
      "two voices, one of them void",
      facts({ peers: [voice("A", 1), voice("B", 2, { void: "new_account" })] }),
      "self_logged",
    ],
    ...(["own", "before_end", "new_account", "no_sessions", "repeat"] as const).map(
      (reason) =>
        [
          `two voices and a third that is void (${reason})`,
          facts({ peers: [voice("A", 1), voice("C", 3, { void: reason })] }),
          "self_logged",
        ] as const,
    ),
    [
      "a rated booking wins over everything",
      facts({ clientRatedAt: at(3), lineup: [member("X", "confirmed", 4)] }),
      "client_verified",
    ],
  ] as const)("%s → %s", (_what, f, level) => {
    expect(levelOf(f).level).toBe(level);
  });
});

describe("levelOf: the lineup", () => {
  it.each([
    ["a duo, alone", facts({ lineup: [member("X", "confirmed", 4)] }), "self_logged"],
    [
      "a duo whose partner has a client gig: Peer-confirmed, not Lineup",
      facts({ lineup: [member("X", "confirmed", 4, { hasClientGig: true })] }),
      "peer_confirmed",
    ],
    [
      "a duo and a second voice (a peer)",
      facts({ lineup: [member("X", "confirmed", 4)], peers: [voice("P", 5)] }),
      "lineup_verified",
    ],
    [
      "a duo and a second voice that is void",
      facts({
        lineup: [member("X", "confirmed", 4)],
        peers: [voice("P", 5, { void: "new_account" })],
      }),
      "self_logged",
    ],
    [
      "a trio, both confirmed",
      facts({ lineup: [member("X", "confirmed", 4), member("Y", "confirmed", 6)] }),
      "lineup_verified",
    ],
    [
      "a trio, one answer missing: one voice",
      facts({ lineup: [member("X", "confirmed", 4), member("Y", null, null)] }),
      "self_logged",
    ],
    [
      "a trio, one answer missing, and a peer",
      facts({
        lineup: [member("X", "confirmed", 4), member("Y", null, null)],
        peers: [voice("P", 5)],
      }),
      "peer_confirmed",
    ],
    [
      "a trio, one confirmation void (before the end)",
      facts({
        lineup: [member("X", "confirmed", 4), member("Y", "confirmed", 6, { void: "before_end" })],
        peers: [voice("P", 7)],
      }),
      "peer_confirmed",
    ],
    [
      "a trio, one decline, and a peer",
      facts({
        lineup: [member("X", "declined", 4), member("Y", "confirmed", 5)],
        peers: [voice("A", 1)],
      }),
      "peer_confirmed",
    ],
    [
      "a trio all in the owner's ring: Peer-confirmed at most",
      facts({
        lineup: [
          member("X", "confirmed", 4, { independent: false }),
          member("Y", "confirmed", 6, { independent: false }),
        ],
      }),
      "peer_confirmed",
    ],
    [
      "a trio in the ring, and an outsider's voice",
      facts({
        lineup: [
          member("X", "confirmed", 4, { independent: false }),
          member("Y", "confirmed", 6, { independent: false }),
        ],
        peers: [voice("O", 7)],
      }),
      "lineup_verified",
    ],
  ] as const)("%s → %s", (_what, f, level) => {
    expect(levelOf(f).level).toBe(level);
  });
});

describe("levelOf: who and when", () => {
  it("names the voices that count, at the moment the rung was reached", () => {
    const peers = levelOf(
      facts({
        peers: [voice("Asha", 1), voice("New", 2, { void: "new_account" }), voice("Ravi", 3)],
      }),
    );
    expect(peers.reachedAt).toEqual(at(3));
    expect(verifiedByText(peers, (d) => d.toISOString().slice(0, 10))).toBe(
      "Verified by Asha and Ravi on 2026-11-15",
    );
    const client = levelOf(facts({ clientRatedAt: at(5) }));
    expect(verifiedByText(client, () => "Nov 15, 2026")).toBe(
      "Verified by the client on Nov 15, 2026",
    );
    const lineup = levelOf(
      facts({ lineup: [member("Y", "confirmed", 6), member("X", "confirmed", 4)] }),
    );
    expect(lineup.reachedAt).toEqual(at(6));
    expect(lineup.verifiers.map((v) => v.name)).toEqual(["X", "Y"]);
    expect(verifiedByText(levelOf(facts()), () => "never")).toBeNull();
  });

  it.each([
    ["the owner's own card", undefined, "Verified by Ravi and Lee on Nov 21, 2026"],
    [
      "a collaborator's copy",
      { ownerName: "Asha Rao" },
      "Asha Rao's session, confirmed by Ravi and Lee on Nov 21, 2026",
    ],
  ] as const)("wording on %s", (_where, copyOf, text) => {
    const level = levelOf(facts({ peers: [voice("Ravi", 1), voice("Lee", 2)] }));
    expect(verifiedByText(level, () => "Nov 21, 2026", copyOf)).toBe(text);
  });

  it("a collaborator's copy of a self-logged session says whose it is", () => {
    expect(verifiedByText(levelOf(facts()), () => "", { ownerName: "Asha Rao" })).toBe(
      "Asha Rao's session, not confirmed yet",
    );
  });
});
