import { describe, expect, it } from "vitest";
import type { Actor } from "~/lib/actor";
import {
  type BookingParties,
  canAddBookingToCalendar,
  canCancelBooking,
  canChooseVenueVisibility,
  canMessageBooking,
  canRateBooking,
  canReadBooking,
  canRespondToBooking,
  isBookingArtist,
  isBookingClient,
} from "./bookings.policy";

const actors = {
  visitor: null,
  client: { id: "u-client", roles: ["client"], artistProfileId: null },
  artist: { id: "u-artist", roles: ["artist"], artistProfileId: "a-artist" },
  otherClient: { id: "u-other", roles: ["client"], artistProfileId: null },
  otherArtist: { id: "u-rival", roles: ["artist"], artistProfileId: "a-rival" },
  admin: { id: "u-admin", roles: ["admin"], artistProfileId: null },
} satisfies Record<string, Actor>;
type Who = keyof typeof actors;

const parties = { clientUserId: "u-client", artistUserId: "u-artist" };
const booking = (over: Partial<BookingParties>): BookingParties => ({
  status: "pending",
  beforeEventDay: true,
  ratingGiven: false,
  ...parties,
  ...over,
});

const bookings = {
  pending: booking({}),
  confirmed: booking({ status: "confirmed" }),
  confirmedToday: booking({ status: "confirmed", beforeEventDay: false }),
  pendingToday: booking({ beforeEventDay: false }),
  completed: booking({ status: "completed", beforeEventDay: false }),
  rated: booking({ status: "completed", beforeEventDay: false, ratingGiven: true }),
  rejected: booking({ status: "rejected" }),
  cancelled: booking({ status: "cancelled" }),
  clientDeleted: booking({ status: "confirmed", clientUserId: null }),
  artistDeleted: booking({ status: "completed", beforeEventDay: false, artistUserId: null }),
} satisfies Record<string, BookingParties>;
type Which = keyof typeof bookings;

/** Every actor against every booking: `allowed` lists the pairs that get true. */
function table(allowed: `${Who} × ${Which}`[]) {
  const yes = new Set<string>(allowed);
  return (Object.keys(actors) as Who[]).flatMap((who) =>
    (Object.keys(bookings) as Which[]).map(
      (which) => [who, which, yes.has(`${who} × ${which}`)] as [Who, Which, boolean],
    ),
  );
}

const everyBooking = (who: Who, except: Which[] = []) =>
  (Object.keys(bookings) as Which[])
    .filter((b) => !except.includes(b))
    .map((b) => `${who} × ${b}` as const);

describe.each([
  {
    rule: "isBookingClient",
    check: isBookingClient,
    allowed: everyBooking("client", ["clientDeleted"]),
  },
  {
    rule: "isBookingArtist",
    check: isBookingArtist,
    allowed: everyBooking("artist", ["artistDeleted"]),
  },
  {
    rule: "canReadBooking",
    check: canReadBooking,
    allowed: [
      ...everyBooking("client", ["clientDeleted"]),
      ...everyBooking("artist", ["artistDeleted"]),
    ],
  },
  {
    rule: "canRespondToBooking",
    check: canRespondToBooking,
    allowed: ["artist × pending", "artist × pendingToday"],
  },
  {
    rule: "canCancelBooking",
    check: canCancelBooking,
    allowed: ["client × pending", "client × confirmed"],
  },
  {
    rule: "canRateBooking",
    check: canRateBooking,
    allowed: ["client × completed", "client × artistDeleted"],
  },
  {
    // Only the client of a rated booking chooses whether the venue is public.
    rule: "canChooseVenueVisibility",
    check: canChooseVenueVisibility,
    allowed: ["client × rated"],
  },
  {
    // Not on a declined or cancelled booking: there is no event to add.
    rule: "canAddBookingToCalendar",
    check: canAddBookingToCalendar,
    allowed: [
      ...everyBooking("client", ["clientDeleted", "rejected", "cancelled"]),
      ...everyBooking("artist", ["artistDeleted", "rejected", "cancelled"]),
    ],
  },
  {
    rule: "canMessageBooking",
    check: canMessageBooking,
    allowed: [
      ...everyBooking("client", ["clientDeleted", "artistDeleted"]),
      ...everyBooking("artist", ["clientDeleted", "artistDeleted"]),
    ],
  },
] as const)("$rule", ({ check, allowed }) => {
  it.each(table([...allowed]))("%s × %s → %s", (who, which, expected) => {
    expect(check(actors[who], bookings[which])).toBe(expected);
  });
});
