-- The words' walk in price order (decision 069): the price index holds the search signatures after
-- its order, so "Price: low to high" with words passes over artists who cannot match from the
-- index alone.
DROP INDEX "artist_profiles_price_idx";--> statement-breakpoint
CREATE INDEX "artist_profiles_price_idx" ON "artist_profiles" USING btree ("hourly_rate","id","search_bits","name_bits");