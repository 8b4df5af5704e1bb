-- An artist's name signature holds only the trigrams a "contains" mask is made of (decision 076):
-- three plain characters inside a word, the ones search_contains_bits keeps. pg_trgm's padded
-- trigrams at word ends ("  g", " gu", "ar ") were set too, but no mask ever asks for them: they
-- only filled the 63 bits (26 set on average, 17 now), so masks matched by chance. At a million
-- artists, 387 of Mumbai's first 8,423 let "wedding sitar" through on their name bits alone,
-- none of them holding its trigrams. A mask's trigram is still in every text containing the
-- pattern, so nothing that matches is passed over.
CREATE OR REPLACE FUNCTION search_name_bits(name text, genre text, instruments text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN search_contains_bits(
    coalesce(name, '') || ' ' || coalesce(genre, '') || ' ' || coalesce(instruments, ''));
END;
$$;
--> statement-breakpoint
-- Every artist's name bits again; the marks' copies follow (trigger artist_profiles_day_fields).
UPDATE artist_profiles SET name_bits = search_name_bits(artist_name, genre, instruments)
WHERE name_bits IS DISTINCT FROM search_name_bits(artist_name, genre, instruments);
