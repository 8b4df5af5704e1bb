-- A words search on a date reads that day's "available" marks (decision 067): each mark now
-- carries its artist's search signatures too (migration 0030), copied by the triggers of
-- migrations 0010 and 0031, here written again; the app never writes them. The day's two indexes
-- hold the signatures after their order, so a mark whose artist cannot match is passed over from
-- the index alone.
ALTER TABLE "availability" ADD COLUMN "artist_search_bits" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "availability" ADD COLUMN "artist_name_bits" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "availability" AS av SET "artist_search_bits" = ap."search_bits", "artist_name_bits" = ap."name_bits"
FROM "artist_profiles" AS ap WHERE ap."id" = av."artist_profile_id";--> statement-breakpoint
DROP INDEX "availability_available_on_idx";--> statement-breakpoint
DROP INDEX "availability_available_in_idx";--> statement-breakpoint
CREATE INDEX "availability_available_on_idx" ON "availability" USING btree ("date","artist_rating" DESC NULLS LAST,"artist_profile_id","artist_search_bits","artist_name_bits") WHERE "availability"."status" = 'available';--> statement-breakpoint
CREATE INDEX "availability_available_in_idx" ON "availability" USING btree ("date","artist_location","artist_rating" DESC NULLS LAST,"artist_profile_id","artist_search_bits","artist_name_bits") WHERE "availability"."status" = 'available';--> statement-breakpoint
CREATE OR REPLACE FUNCTION availability_copy_artist_fields() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  SELECT location, rating, hourly_rate, search_bits, name_bits
  INTO NEW.artist_location, NEW.artist_rating, NEW.artist_hourly_rate, NEW.artist_search_bits,
    NEW.artist_name_bits
  FROM artist_profiles WHERE id = NEW.artist_profile_id FOR NO KEY UPDATE;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION artist_profiles_copy_to_days() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE availability SET artist_location = NEW.location, artist_rating = NEW.rating,
    artist_hourly_rate = NEW.hourly_rate, artist_search_bits = NEW.search_bits,
    artist_name_bits = NEW.name_bits
  WHERE artist_profile_id = NEW.id;
  IF OLD.location IS DISTINCT FROM NEW.location THEN
    UPDATE artist_busy_days SET artist_location = NEW.location WHERE artist_profile_id = NEW.id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- The signatures are set by a BEFORE trigger (artist_profiles_search_signature), never named in
-- an UPDATE, so this trigger fires on every update and its WHEN tells whether a copied field
-- changed.
DROP TRIGGER artist_profiles_day_fields ON artist_profiles;
--> statement-breakpoint
CREATE TRIGGER artist_profiles_day_fields
AFTER UPDATE ON artist_profiles
FOR EACH ROW WHEN (OLD.location IS DISTINCT FROM NEW.location OR OLD.rating IS DISTINCT FROM NEW.rating
  OR OLD.hourly_rate IS DISTINCT FROM NEW.hourly_rate OR OLD.search_bits IS DISTINCT FROM NEW.search_bits
  OR OLD.name_bits IS DISTINCT FROM NEW.name_bits)
EXECUTE FUNCTION artist_profiles_copy_to_days();
