-- The marks carry their artist's rate in the rating-ordered "available on" indexes too, so a planned
-- date search tests a budget on the marks from the index alone (decision 084).
DROP INDEX "availability_available_on_idx";--> statement-breakpoint
DROP INDEX "availability_available_in_idx";--> statement-breakpoint
CREATE INDEX "availability_available_on_idx" ON "availability" USING btree ("date","artist_rating" DESC NULLS LAST,"artist_profile_id","artist_search_bits","artist_name_bits","artist_hourly_rate") WHERE "availability"."status" = 'available';--> statement-breakpoint
CREATE INDEX "availability_available_in_idx" ON "availability" USING btree ("date","artist_location","artist_rating" DESC NULLS LAST,"artist_profile_id","artist_search_bits","artist_name_bits","artist_hourly_rate") WHERE "availability"."status" = 'available';