-- Decision 089: the marks' by-price indexes carry the artists' signatures last, as the
-- rating-ordered ones do (decision 067), so a date search in price order passes over the marks
-- whose artist cannot match the words, genre or occasion without reading the artist's row.
DROP INDEX "availability_available_by_price_idx";--> statement-breakpoint
DROP INDEX "availability_available_in_by_price_idx";--> statement-breakpoint
CREATE INDEX "availability_available_by_price_idx" ON "availability" USING btree ("date","artist_hourly_rate","artist_profile_id","artist_search_bits","artist_name_bits") WHERE "availability"."status" = 'available';--> statement-breakpoint
CREATE INDEX "availability_available_in_by_price_idx" ON "availability" USING btree ("date","artist_location","artist_hourly_rate","artist_profile_id","artist_search_bits","artist_name_bits") WHERE "availability"."status" = 'available';