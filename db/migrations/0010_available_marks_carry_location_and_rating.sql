-- "Available on" reads a day's "available" marks best rated first, within one location when the
-- search has one, and a day's busy artists within that location (decision 015). So each mark
-- carries its artist's location and rating, and each busy day its artist's location, copied by
-- the triggers below; the app never writes them.
DROP INDEX "artist_busy_days_date_idx";--> statement-breakpoint
DROP INDEX "availability_available_on_idx";--> statement-breakpoint
ALTER TABLE "artist_busy_days" ADD COLUMN "artist_location" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "availability" ADD COLUMN "artist_location" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "availability" ADD COLUMN "artist_rating" numeric(3, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "availability" AS av SET "artist_location" = ap."location", "artist_rating" = ap."rating"
FROM "artist_profiles" AS ap WHERE ap."id" = av."artist_profile_id";--> statement-breakpoint
UPDATE "artist_busy_days" AS bd SET "artist_location" = ap."location"
FROM "artist_profiles" AS ap WHERE ap."id" = bd."artist_profile_id";--> statement-breakpoint
CREATE INDEX "availability_available_in_idx" ON "availability" USING btree ("date","artist_location","artist_rating" DESC NULLS LAST,"artist_profile_id") WHERE "availability"."status" = 'available';--> statement-breakpoint
CREATE INDEX "artist_busy_days_date_idx" ON "artist_busy_days" USING btree ("date","artist_location","artist_profile_id");--> statement-breakpoint
CREATE INDEX "availability_available_on_idx" ON "availability" USING btree ("date","artist_rating" DESC NULLS LAST,"artist_profile_id") WHERE "availability"."status" = 'available';
--> statement-breakpoint
-- As in migration 0007, with the artist's location written beside the busy day (read after the
-- artist's row is locked, so a concurrent move is either wholly before or wholly after).
CREATE OR REPLACE FUNCTION refresh_artist_busy_day(artist uuid, day date) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  artist_location text;
BEGIN
  IF artist IS NULL OR day IS NULL THEN
    RETURN;
  END IF;
  SELECT location INTO artist_location FROM artist_profiles WHERE id = artist FOR NO KEY UPDATE;
  IF FOUND AND (
    EXISTS (SELECT 1 FROM availability
      WHERE artist_profile_id = artist AND date = day AND status IN ('booked', 'unavailable'))
    OR EXISTS (SELECT 1 FROM bookings
      WHERE artist_profile_id = artist AND event_date = day AND status IN ('confirmed', 'completed'))
    OR EXISTS (SELECT 1 FROM imported_busy_days WHERE artist_profile_id = artist AND date = day)
  ) THEN
    INSERT INTO artist_busy_days (artist_profile_id, date, artist_location)
    VALUES (artist, day, artist_location) ON CONFLICT DO NOTHING;
  ELSE
    DELETE FROM artist_busy_days WHERE artist_profile_id = artist AND date = day;
  END IF;
END;
$$;
--> statement-breakpoint
-- Every mark written copies its artist's location and rating. The artist's row is locked the way
-- refresh_artist_busy_day locks it, so a mark written while the artist moves waits for the move
-- and copies the new location.
CREATE OR REPLACE FUNCTION availability_copy_artist_fields() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  SELECT location, rating INTO NEW.artist_location, NEW.artist_rating
  FROM artist_profiles WHERE id = NEW.artist_profile_id FOR NO KEY UPDATE;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER availability_artist_fields
BEFORE INSERT OR UPDATE ON availability
FOR EACH ROW EXECUTE FUNCTION availability_copy_artist_fields();
--> statement-breakpoint
-- An artist who moves or whose rating changes carries their marks and busy days along.
CREATE OR REPLACE FUNCTION artist_profiles_copy_to_days() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE availability SET artist_location = NEW.location, artist_rating = NEW.rating
  WHERE artist_profile_id = NEW.id;
  IF OLD.location IS DISTINCT FROM NEW.location THEN
    UPDATE artist_busy_days SET artist_location = NEW.location WHERE artist_profile_id = NEW.id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER artist_profiles_day_fields
AFTER UPDATE OF location, rating ON artist_profiles
FOR EACH ROW WHEN (OLD.location IS DISTINCT FROM NEW.location OR OLD.rating IS DISTINCT FROM NEW.rating)
EXECUTE FUNCTION artist_profiles_copy_to_days();
