/** Who may do what with a booking. Pure rules, used by the server and to show or hide buttons. */
export type BookingParties = {
  status: "pending" | "confirmed" | "rejected" | "completed" | "cancelled";
  eventDate: string;
  ratingGiven: boolean;
  clientUserId: string | null;
  artistUserId: string | null;
};

export const isBookingClient = (userId: string, b: BookingParties) => b.clientUserId === userId;
export const isBookingArtist = (userId: string, b: BookingParties) => b.artistUserId === userId;
export const canReadBooking = (userId: string, b: BookingParties) =>
  isBookingClient(userId, b) || isBookingArtist(userId, b);

/** Only the artist, only while pending. */
export const canRespondToBooking = (userId: string, b: BookingParties) =>
  isBookingArtist(userId, b) && b.status === "pending";

/** The client, while pending or confirmed, before the event date. */
export const canCancelBooking = (userId: string, b: BookingParties, today: string) =>
  isBookingClient(userId, b) &&
  (b.status === "pending" || b.status === "confirmed") &&
  b.eventDate > today;

/** The client, once, when completed. */
export const canRateBooking = (userId: string, b: BookingParties) =>
  isBookingClient(userId, b) && b.status === "completed" && !b.ratingGiven;

/** Both parties may message while the booking exists and both still have accounts. */
export const canMessageBooking = (userId: string, b: BookingParties) =>
  canReadBooking(userId, b) && b.clientUserId !== null && b.artistUserId !== null;
