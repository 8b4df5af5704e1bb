ALTER TABLE "artist_profiles" ADD COLUMN "search_bits" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD COLUMN "name_bits" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The search's signatures (decision 065). Each term sets one of 63 bits, chosen by its MD5 (the
-- same on every server and version, unlike the internal hash functions). A row whose signature
-- lacks a bit of the query's mask cannot match, so the words' walk in rating order tests the
-- index alone and reads only rows that may match; a mask of 0 rules nothing out.
-- The functions are PL/pgSQL, not SQL: a query's masks are computed while its plan is made, and
-- a SQL function with a subquery is planned again at each call (measured: 1.0-1.4 ms of planning
-- per search, 0.3-0.4 ms with the masks written as numbers).
CREATE OR REPLACE FUNCTION search_bits(terms text[]) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  bits bigint := 0;
  term text;
BEGIN
  FOREACH term IN ARRAY coalesce(terms, '{}') LOOP
    bits := bits | (1::bigint << (('x' || substr(md5(term), 1, 8))::bit(32)::bigint % 63)::int);
  END LOOP;
  RETURN bits;
END;
$$;
--> statement-breakpoint
-- The trigrams of a text (pg_trgm's, lower case, padded at word ends), for "contains" matches.
CREATE OR REPLACE FUNCTION search_name_bits(name text, genre text, instruments text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN search_bits(show_trgm(
    coalesce(name, '') || ' ' || coalesce(genre, '') || ' ' || coalesce(instruments, '')));
END;
$$;
--> statement-breakpoint
-- A query's words mask: the lexemes every match has. Only for a query that is lexemes joined by
-- AND or phrase (<->); with OR, a weight or prefix, or nothing left but negations, 0. querytree
-- keeps the part an index can use (it drops negated words, which a match lacks anyway).
CREATE OR REPLACE FUNCTION search_query_bits(query tsquery) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  tree text := querytree(query);
BEGIN
  IF tree ~ '[|!]' OR tree ~ ''':' THEN
    RETURN 0;
  END IF;
  RETURN search_bits(ARRAY(
    SELECT replace(m[1], '''''', '''')
    FROM regexp_matches(tree, '''((?:[^'']|'''')*)''', 'g') m));
END;
$$;
--> statement-breakpoint
-- A "contains" pattern's mask: its trigrams inside words (three plain characters, no padding),
-- which any text containing the pattern has too. Hashed trigrams (non-ASCII) are left out.
CREATE OR REPLACE FUNCTION search_contains_bits(pattern text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN search_bits(ARRAY(
    SELECT t FROM unnest(show_trgm(pattern)) t WHERE length(t) = 3 AND position(' ' in t) = 0));
END;
$$;
--> statement-breakpoint
-- Runs after artist_profiles_search_document (BEFORE triggers fire in name order), and whenever
-- a session title or a review writes the document again.
CREATE OR REPLACE FUNCTION artist_profiles_search_signature() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_bits := search_bits(tsvector_to_array(NEW.search_document));
  NEW.name_bits := search_name_bits(NEW.artist_name, NEW.genre, NEW.instruments);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER artist_profiles_search_signature
BEFORE INSERT OR UPDATE OF artist_name, genre, instruments, occasions, bio, search_document
ON artist_profiles
FOR EACH ROW EXECUTE FUNCTION artist_profiles_search_signature();
--> statement-breakpoint
UPDATE artist_profiles SET search_bits = search_bits(tsvector_to_array(search_document)),
  name_bits = search_name_bits(artist_name, genre, instruments);
--> statement-breakpoint
CREATE INDEX "artist_profiles_words_idx" ON "artist_profiles" USING btree ("rating" DESC NULLS LAST,"id","search_bits","name_bits");--> statement-breakpoint
CREATE INDEX "artist_profiles_location_words_idx" ON "artist_profiles" USING btree ("location","rating" DESC NULLS LAST,"id","search_bits","name_bits");
