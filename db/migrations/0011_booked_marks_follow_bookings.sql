-- A date's booked mark follows its bookings (docs/product.md, "Availability"). acceptBooking
-- marks the date booked in the transaction that confirms the booking; this trigger frees it in the
-- statement that takes a booking out of confirmed (a cancel by either party), whatever the app
-- read before. A cancel that read the booking as pending, then waited on the row lock of an accept
-- that confirmed it, used to cancel the confirmed booking and leave the date booked. A trigger
-- sees the row as committed, so every interleaving ends with the mark the bookings say. The
-- artist's row is locked first, as refresh_artist_busy_day does, so writers of one artist's days
-- take their locks in the same order.
CREATE OR REPLACE FUNCTION bookings_free_booked_mark() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM artist_profiles WHERE id = OLD.artist_profile_id FOR NO KEY UPDATE;
  IF NOT EXISTS (SELECT 1 FROM bookings
    WHERE artist_profile_id = OLD.artist_profile_id AND event_date = OLD.event_date
      AND status IN ('confirmed', 'completed') AND id <> OLD.id)
  THEN
    UPDATE availability SET status = 'available', updated_at = now()
    WHERE artist_profile_id = OLD.artist_profile_id AND date = OLD.event_date AND status = 'booked';
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER bookings_free_booked_mark
AFTER UPDATE OF status ON bookings
FOR EACH ROW
WHEN (OLD.artist_profile_id IS NOT NULL
  AND OLD.status IN ('confirmed', 'completed') AND NEW.status NOT IN ('confirmed', 'completed'))
EXECUTE FUNCTION bookings_free_booked_mark();
--> statement-breakpoint
-- Dates a race already left booked without a booking: the rule applied once to what is stored.
-- Only marks untouched since a confirmed booking of that date was cancelled, so a mark the artist
-- set by hand (for a gig elsewhere) stays.
UPDATE availability av SET status = 'available', updated_at = now()
WHERE av.status = 'booked'
  AND EXISTS (SELECT 1 FROM bookings b
    WHERE b.artist_profile_id = av.artist_profile_id AND b.event_date = av.date
      AND b.status = 'cancelled' AND b.confirmed_at IS NOT NULL AND av.updated_at <= b.cancelled_at)
  AND NOT EXISTS (SELECT 1 FROM bookings b
    WHERE b.artist_profile_id = av.artist_profile_id AND b.event_date = av.date
      AND b.status IN ('confirmed', 'completed'));
