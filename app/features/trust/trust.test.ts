import { describe, expect, it } from "vitest";
import {
  cancellationText,
  clientRatingText,
  clientRecordText,
  formatWait,
  newcomerText,
  responseRateText,
} from "./trust";

describe("trust figures in words", () => {
  it.each([
    [0, "under a minute"],
    [1, "1 min"],
    [45, "45 min"],
    [180, "3 h"],
    [47 * 60, "47 h"],
    [3000, "2 days"],
  ])("a wait of %i minutes reads %s", (minutes, words) => {
    expect(formatWait(minutes)).toBe(words);
  });

  it("shows the response rate from five counted requests, rounded to a whole percent", () => {
    const rate = (counted: number, answered: number) =>
      responseRateText({ counted, answeredWithinWindow: answered, medianMinutes: 10 });
    expect(rate(4, 4)).toBeNull();
    expect(rate(5, 4)).toBe("Responds within 24 h to 80% of requests (5 in 90 days)");
    expect(rate(25, 23)).toBe("Responds within 24 h to 92% of requests (25 in 90 days)");
  });

  it("shows cancellations from five confirmed bookings, and the client's record", () => {
    expect(cancellationText({ confirmed: 4, cancelled: 1 })).toBeNull();
    expect(cancellationText({ confirmed: 12, cancelled: 1 })).toBe(
      "Cancelled 1 of 12 confirmed bookings in 12 months",
    );
    const none = { count: 0, average: null, latest: [] };
    expect(clientRecordText({ completedBookings: 0, cancelledBookings: 0, ratings: none })).toBe(
      "New to GigLedger bookings",
    );
    expect(clientRecordText({ completedBookings: 3, cancelledBookings: 1, ratings: none })).toBe(
      "3 completed bookings and 1 cancellation here",
    );
    expect(newcomerText(0)).toBe("New on GigLedger · no verified sessions yet");
    expect(newcomerText(1)).toBe("New on GigLedger · 1 verified session");
    expect(newcomerText(2)).toBe("New on GigLedger · 2 verified sessions");
    const rated = { count: 2, average: 4.5, latest: [{ stars: 5, comment: null }] };
    expect(
      clientRatingText({ completedBookings: 3, cancelledBookings: 0, ratings: none }),
    ).toBeNull();
    expect(clientRatingText({ completedBookings: 3, cancelledBookings: 0, ratings: rated })).toBe(
      "Rated 4.5 of 5 by artists (2 ratings)",
    );
  });
});
