-- Keeps artist_profiles.total_sessions, verified_sessions and total_minutes equal to what the
-- artist's music_sessions rows say, in the same transaction as the change. Deltas (not recounts)
-- so that concurrent writers for one artist serialise on the artist row and never lose an update.
CREATE OR REPLACE FUNCTION music_sessions_maintain_artist_counters() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE artist_profiles SET
      total_sessions = total_sessions - 1,
      verified_sessions = verified_sessions - (CASE WHEN OLD.is_verified THEN 1 ELSE 0 END),
      total_minutes = total_minutes - OLD.duration_minutes
    WHERE id = OLD.artist_profile_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE artist_profiles SET
      total_sessions = total_sessions + 1,
      verified_sessions = verified_sessions + (CASE WHEN NEW.is_verified THEN 1 ELSE 0 END),
      total_minutes = total_minutes + NEW.duration_minutes
    WHERE id = NEW.artist_profile_id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER music_sessions_artist_counters
AFTER INSERT OR DELETE OR UPDATE OF artist_profile_id, is_verified, duration_minutes
ON music_sessions
FOR EACH ROW EXECUTE FUNCTION music_sessions_maintain_artist_counters();
