-- The artists' rating order with the rate after it, so a budget is tested in the index: a later page
-- of a budget few meet reads only the rows within it, not every artist in rating order. Apart from
-- artist_profiles_listing_idx, which the walks keep reading (decision 085).
CREATE INDEX "artist_profiles_rate_by_rating_idx" ON "artist_profiles" USING btree ("rating" DESC NULLS LAST,"id","hourly_rate");