import { describe, expect, it } from "vitest";
import {
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
const peer = (name: string, trustScore: number, hour: number) => ({
  name,
  artistSlug: name.toLowerCase(),
  trustScore,
  at: at(hour),
});
const member = (name: string, answer: "confirmed" | "declined" | null, hour: number | null) => ({
  name,
  artistSlug: name.toLowerCase(),
  answer,
  at: hour === null ? null : at(hour),
});

describe("the ladder's order and words", () => {
  it("runs Self-logged < Peer-confirmed < Client-verified < Lineup-verified", () => {
    expect(VERIFICATION_LEVELS.map((l) => l.label)).toEqual([
      "Self-logged",
      "Peer-confirmed",
      "Client-verified",
      "Lineup-verified",
    ]);
    expect(levelRank("lineup_verified")).toBeGreaterThan(levelRank("client_verified"));
    expect(LEVEL_INFO.client_verified.explanation).toBe(
      "Booked and completed here, and rated by its client.",
    );
  });
});

describe("levelOf: fixed facts", () => {
  it.each([
    ["nothing", facts(), "self_logged"],
    [
      "peers adding up to 75",
      facts({ peers: [peer("A", 50, 1), peer("B", 25, 2)] }),
      "self_logged",
    ],
    [
      "peers adding up to 100",
      facts({ peers: [peer("A", 75, 1), peer("B", 25, 2)] }),
      "peer_confirmed",
    ],
    ["a rated booking", facts({ clientRatedAt: at(3) }), "client_verified"],
    [
      "a rated booking and peers",
      facts({ clientRatedAt: at(3), peers: [peer("A", 100, 1)] }),
      "client_verified",
    ],
    ["a lineup all confirmed", facts({ lineup: [member("X", "confirmed", 4)] }), "lineup_verified"],
    [
      "a lineup with one answer missing",
      facts({ lineup: [member("X", "confirmed", 4), member("Y", null, null)] }),
      "self_logged",
    ],
    [
      "a lineup with one decline, and peers",
      facts({ lineup: [member("X", "declined", 4)], peers: [peer("A", 100, 1)] }),
      "peer_confirmed",
    ],
  ] as const)("%s → %s", (_what, f, level) => {
    expect(levelOf(f).level).toBe(level);
  });

  it("says who and when: the moment the rung was reached", () => {
    const peers = levelOf(
      facts({ peers: [peer("Asha", 50, 1), peer("Ravi", 50, 2), peer("Lee", 25, 3)] }),
    );
    expect(peers.reachedAt).toEqual(at(2));
    expect(verifiedByText(peers, (d) => d.toISOString().slice(0, 10))).toBe(
      "Verified by Asha, Ravi and Lee on 2026-11-15",
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
});
