-- "Available on" reads a day's "available" marks best rated first, within one location when the
-- search has one (decision 015). So each mark carries its artist's location and rating, copied
-- by the triggers below; the app never writes them.
DROP INDEX "availability_available_on_idx";--> statement-breakpoint
ALTER TABLE "availability" ADD COLUMN "artist_location" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "availability" ADD COLUMN "artist_rating" numeric(3, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "availability" AS av SET "artist_location" = ap."location", "artist_rating" = ap."rating"
FROM "artist_profiles" AS ap WHERE ap."id" = av."artist_profile_id";--> statement-breakpoint
CREATE INDEX "availability_available_in_idx" ON "availability" USING btree ("date","artist_location","artist_rating" DESC NULLS LAST,"artist_profile_id") WHERE "availability"."status" = 'available';--> statement-breakpoint
CREATE INDEX "availability_available_on_idx" ON "availability" USING btree ("date","artist_rating" DESC NULLS LAST,"artist_profile_id") WHERE "availability"."status" = 'available';
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
-- An artist who moves or whose rating changes carries their marks along.
CREATE OR REPLACE FUNCTION artist_profiles_copy_to_availability() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE availability SET artist_location = NEW.location, artist_rating = NEW.rating
  WHERE artist_profile_id = NEW.id;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER artist_profiles_availability_fields
AFTER UPDATE OF location, rating ON artist_profiles
FOR EACH ROW WHEN (OLD.location IS DISTINCT FROM NEW.location OR OLD.rating IS DISTINCT FROM NEW.rating)
EXECUTE FUNCTION artist_profiles_copy_to_availability();
