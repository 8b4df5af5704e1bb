-- Paid & agreed (docs/decisions/056): the top verification level is derived at read time from the
-- booking's columns (features/verification), so nothing stores it. What changes it is a payout
-- released by the payments feature, which must not import verification: this trigger adds the
-- credential job for the session logged from the booking in the releasing transaction, as
-- queueCredentialRefresh does for the app's own writes (and credential_queue_on_delete of 0014
-- for cascaded deletes). The job writes the session's level on its row and signs again.
CREATE OR REPLACE FUNCTION credential_queue_on_payout() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO jobs (queue, key)
  SELECT 'credentials.refresh-session', s.id::text FROM music_sessions s WHERE s.booking_id = NEW.id
  ON CONFLICT (queue, key) WHERE failed_at IS NULL
  DO UPDATE SET revision = jobs.revision + 1;
  IF FOUND THEN
    PERFORM pg_notify('jobs', 'credentials.refresh-session');
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- The rule reads the release time and the booking's status (a cancelled booking is no gig).
CREATE TRIGGER bookings_credential_on_payout
AFTER UPDATE OF payout_released_at, status ON bookings
FOR EACH ROW
WHEN (OLD.payout_released_at IS DISTINCT FROM NEW.payout_released_at
  OR (NEW.payout_released_at IS NOT NULL AND OLD.status IS DISTINCT FROM NEW.status))
EXECUTE FUNCTION credential_queue_on_payout();
--> statement-breakpoint
-- Payouts released before this migration: their sessions are signed again at the new level.
INSERT INTO jobs (queue, key)
SELECT 'credentials.refresh-session', s.id::text FROM music_sessions s
JOIN bookings b ON b.id = s.booking_id
WHERE b.payout_released_at IS NOT NULL
ON CONFLICT (queue, key) WHERE failed_at IS NULL DO NOTHING;
--> statement-breakpoint
SELECT pg_notify('jobs', 'credentials.refresh-session');
