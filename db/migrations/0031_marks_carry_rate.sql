-- "Price: low to high" on a date reads that day's "available" marks lowest rate first (decision
-- 066): each mark now carries its artist's hourly rate too, copied by the triggers of migration
-- 0010, here written again; the app never writes it.
ALTER TABLE "availability" ADD COLUMN "artist_hourly_rate" numeric(10, 2);--> statement-breakpoint
UPDATE "availability" AS av SET "artist_hourly_rate" = ap."hourly_rate"
FROM "artist_profiles" AS ap WHERE ap."id" = av."artist_profile_id";--> statement-breakpoint
CREATE INDEX "availability_available_by_price_idx" ON "availability" USING btree ("date","artist_hourly_rate","artist_profile_id") WHERE "availability"."status" = 'available';--> statement-breakpoint
CREATE INDEX "availability_available_in_by_price_idx" ON "availability" USING btree ("date","artist_location","artist_hourly_rate","artist_profile_id") WHERE "availability"."status" = 'available';--> statement-breakpoint
CREATE OR REPLACE FUNCTION availability_copy_artist_fields() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  SELECT location, rating, hourly_rate
  INTO NEW.artist_location, NEW.artist_rating, NEW.artist_hourly_rate
  FROM artist_profiles WHERE id = NEW.artist_profile_id FOR NO KEY UPDATE;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION artist_profiles_copy_to_days() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE availability SET artist_location = NEW.location, artist_rating = NEW.rating,
    artist_hourly_rate = NEW.hourly_rate
  WHERE artist_profile_id = NEW.id;
  IF OLD.location IS DISTINCT FROM NEW.location THEN
    UPDATE artist_busy_days SET artist_location = NEW.location WHERE artist_profile_id = NEW.id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER artist_profiles_day_fields ON artist_profiles;
--> statement-breakpoint
CREATE TRIGGER artist_profiles_day_fields
AFTER UPDATE OF location, rating, hourly_rate ON artist_profiles
FOR EACH ROW WHEN (OLD.location IS DISTINCT FROM NEW.location OR OLD.rating IS DISTINCT FROM NEW.rating
  OR OLD.hourly_rate IS DISTINCT FROM NEW.hourly_rate)
EXECUTE FUNCTION artist_profiles_copy_to_days();
