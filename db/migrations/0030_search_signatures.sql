ALTER TABLE "artist_profiles" ADD COLUMN "search_bits" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD COLUMN "name_bits" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The search's signatures (decision 065). Each term sets one of 63 bits, chosen by its MD5 (the
-- same on every server and version, unlike the internal hash functions). A row whose signature
-- lacks a bit of the query's mask cannot match, so the words' walk in rating order tests the
-- index alone and reads only rows that may match; a mask of 0 rules nothing out.
-- The functions are PL/pgSQL without queries inside: a query's masks are computed while its plan
-- is made, and a SQL function with a subquery is planned again at each call (measured: planning
-- a words search took 1.0-1.4 ms so, 0.6-0.8 ms with PL/pgSQL running a query, 0.4-0.5 ms now).
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
-- AND or phrase (<->, <N>); with OR, a weight or prefix, or a quote in a lexeme, 0. querytree
-- keeps the part an index can use (it drops negated words, which a match lacks anyway). Whatever
-- is not a whole quoted lexeme after the split is left out: fewer bits only rule out less.
CREATE OR REPLACE FUNCTION search_query_bits(query tsquery) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  tree text := querytree(query);
  bits bigint := 0;
  part text;
BEGIN
  IF tree ~ '[|!]' OR tree ~ ''':' OR position('''''' in tree) > 0 THEN
    RETURN 0;
  END IF;
  FOREACH part IN ARRAY regexp_split_to_array(tree, ' *(?:&|<[0-9]+>|<->|[()]) *') LOOP
    IF part ~ '^''.*''$' THEN
      bits := bits | search_bits(ARRAY[substr(part, 2, length(part) - 2)]);
    END IF;
  END LOOP;
  RETURN bits;
END;
$$;
--> statement-breakpoint
-- A "contains" pattern's mask: its trigrams inside words (three plain characters, no padding),
-- which any text containing the pattern has too. Hashed trigrams (non-ASCII) are left out.
CREATE OR REPLACE FUNCTION search_contains_bits(pattern text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  trigrams text[] := '{}';
  t text;
BEGIN
  FOREACH t IN ARRAY show_trgm(pattern) LOOP
    IF length(t) = 3 AND position(' ' in t) = 0 THEN
      trigrams := trigrams || t;
    END IF;
  END LOOP;
  RETURN search_bits(trigrams);
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
