ALTER TABLE "external_calendars" ADD COLUMN "stopped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "external_calendars" ADD COLUMN "stop_reason" text;--> statement-breakpoint
ALTER TABLE "external_calendars" ADD CONSTRAINT "external_calendars_stop_reason_check" CHECK (stop_reason IN ('timeout', 'memory', 'crashed'));--> statement-breakpoint
-- An artist keeps at most 5 imported calendars (MAX_CALENDARS_PER_ARTIST, docs/product.md
-- "Calendars"). The app counted before it inserted, so 12 adds at once stored 6. Here the count
-- runs under the artist's row lock, taken first as the busy-day triggers take it, so two adds of
-- one artist wait for each other and the second counts the first.
CREATE OR REPLACE FUNCTION external_calendars_limit() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM artist_profiles WHERE id = NEW.artist_profile_id FOR NO KEY UPDATE;
  IF (SELECT count(*) FROM external_calendars WHERE artist_profile_id = NEW.artist_profile_id) >= 5
  THEN
    RAISE EXCEPTION 'An artist keeps at most 5 imported calendars.'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'external_calendars_limit';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER external_calendars_limit
BEFORE INSERT ON external_calendars
FOR EACH ROW EXECUTE FUNCTION external_calendars_limit();
