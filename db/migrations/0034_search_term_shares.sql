CREATE TABLE "search_term_shares" (
	"kind" text NOT NULL,
	"term" text NOT NULL,
	"share" double precision NOT NULL,
	CONSTRAINT "search_term_shares_kind_term_pk" PRIMARY KEY("kind","term"),
	CONSTRAINT "search_term_shares_kind_check" CHECK ("search_term_shares"."kind" IN ('word', 'part')),
	CONSTRAINT "search_term_shares_share_check" CHECK ("search_term_shares"."share" > 0 AND "search_term_shares"."share" <= 1)
);
--> statement-breakpoint
-- Decision 070: how common each term of the words search is, from a sample of at most about
-- 20,000 artists (whole pages, TABLESAMPLE SYSTEM): a word (a stem of the search document) or a
-- trigram inside the words of name, genre and instruments (as search_contains_bits takes them),
-- with the share of sampled artists that have it. Written again by a job every hour; returns the
-- terms written.
CREATE OR REPLACE FUNCTION refresh_search_term_shares() RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  estimated double precision := (SELECT reltuples FROM pg_class WHERE oid = 'artist_profiles'::regclass);
  percent double precision := CASE WHEN estimated > 20000 THEN 100 * 20000 / estimated ELSE 100 END;
  written integer;
BEGIN
  DELETE FROM search_term_shares;
  WITH sample AS MATERIALIZED (
    SELECT search_document, lower(artist_name || ' ' || genre || ' ' || instruments) AS parts
    FROM artist_profiles TABLESAMPLE SYSTEM (percent)
  ), total AS (SELECT count(*)::double precision AS n FROM sample)
  INSERT INTO search_term_shares (kind, term, share)
  SELECT 'word', word, count(*) / min(total.n)
  FROM sample, total, unnest(tsvector_to_array(sample.search_document)) word
  GROUP BY word
  UNION ALL
  SELECT 'part', trigram, count(*) / min(total.n)
  FROM sample, total, unnest(show_trgm(sample.parts)) trigram
  WHERE length(trigram) = 3 AND position(' ' in trigram) = 0
  GROUP BY trigram;
  GET DIAGNOSTICS written = ROW_COUNT;
  RETURN written;
END;
$$;
--> statement-breakpoint
-- Decision 070: the share of artists who have all of several terms, from each term's share: the
-- product (the terms taken as independent), or the least share when that is 5% or more (common
-- terms are often related); 0 when a term is unknown; null for no terms.
CREATE OR REPLACE FUNCTION search_share_of_all(shares double precision[]) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN min(share) >= 0.05 THEN min(share)
    WHEN min(share) = 0 THEN 0
    ELSE exp(sum(ln(share)) FILTER (WHERE share > 0)) END
  FROM unnest(shares) share
$$;
--> statement-breakpoint
-- Decision 070: whether a words search is too rare for the words' walk, which passes over 10,000
-- artists per page (decision 069) and so finds a page only of words that about one artist in 400
-- or more matches. Rare: the words' estimated share and, with parts, the pattern's add up to less
-- than one in 500. Words: per "or" alternative, the share of all its words (search_share_of_all),
-- summed over the alternatives. Parts: per word of the pattern, the least share of its trigrams;
-- the share of all those words. A term nobody in the sample has counts 0. Not rare when nothing
-- is known yet, or for a query it does not read (a negation, a group, a prefix, a quote inside a
-- word, stop words only): those take the walk as before. It only chooses how a page is found,
-- never what is found.
CREATE OR REPLACE FUNCTION search_words_rare(q text, with_parts boolean) RETURNS boolean
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
  tree text := websearch_to_tsquery('english', q)::text;
  words double precision;
  parts double precision := 0;
BEGIN
  IF tree = '' OR tree ~ '[!()]' OR tree ~ ''':' OR position('''''' in tree) > 0
     OR NOT EXISTS (SELECT 1 FROM search_term_shares) THEN
    RETURN false;
  END IF;
  SELECT coalesce(sum(share), 0) INTO words
  FROM (
    SELECT search_share_of_all(array_agg(coalesce(s.share, 0))) AS share
    FROM unnest(string_to_array(tree, ' | ')) WITH ORDINALITY a(alternative, n)
    CROSS JOIN LATERAL regexp_matches(a.alternative, '''([^'']*)''', 'g') m
    LEFT JOIN search_term_shares s ON s.kind = 'word' AND s.term = m[1]
    GROUP BY a.n
  ) alternatives;
  IF with_parts THEN
    SELECT coalesce(search_share_of_all(array_agg(least_share)), 1) INTO parts
    FROM (
      SELECT min(coalesce(s.share, 0)) AS least_share
      FROM regexp_split_to_table(lower(q), '[^[:alnum:]]+') WITH ORDINALITY w(word, n)
      CROSS JOIN LATERAL unnest(show_trgm(w.word)) t
      LEFT JOIN search_term_shares s ON s.kind = 'part' AND s.term = t
      WHERE length(t) = 3 AND position(' ' in t) = 0
      GROUP BY w.n
    ) pattern_words;
  END IF;
  RETURN words + parts < 0.002;
END;
$$;
