ALTER TABLE "artist_profiles" ADD COLUMN "occasions" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD COLUMN "search_document" "tsvector" DEFAULT ''::tsvector NOT NULL;--> statement-breakpoint
CREATE INDEX "artist_profiles_document_idx" ON "artist_profiles" USING gin ("search_document");--> statement-breakpoint
CREATE INDEX "artist_profiles_occasions_idx" ON "artist_profiles" USING btree ("occasions");--> statement-breakpoint
CREATE INDEX "artist_profiles_price_idx" ON "artist_profiles" USING btree ("hourly_rate","id");--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD CONSTRAINT "artist_profiles_occasions_check" CHECK (occasions <@ ARRAY['Live Show', 'Private Event', 'Jam Session', 'Recording Session', 'Corporate Event', 'Wedding']::text[]);--> statement-breakpoint
-- Discovery's text search (decision 059): one weighted document per artist. A: name, genre and
-- instruments; B: occasions; C: bio and session titles; D: reviews. Stemmed in English, so
-- "weddings" finds "wedding". The latest 200 session titles and 200 reviews are enough to be found.
CREATE OR REPLACE FUNCTION artist_search_document(
  profile_id uuid, name text, genre text, instruments text, occasions text[], bio text
) RETURNS tsvector LANGUAGE sql STABLE AS $$
  SELECT setweight(to_tsvector('english', coalesce(name, '') || ' ' || coalesce(genre, '') || ' ' || coalesce(instruments, '')), 'A')
    || setweight(to_tsvector('english', coalesce(array_to_string(occasions, ' '), '')), 'B')
    || setweight(to_tsvector('english', coalesce(bio, '') || ' ' || coalesce((
         SELECT string_agg(title, ' ') FROM (
           SELECT title FROM music_sessions WHERE artist_profile_id = profile_id
           ORDER BY start_time DESC LIMIT 200) s), '')), 'C')
    || setweight(to_tsvector('english', coalesce((
         SELECT string_agg(review, ' ') FROM (
           SELECT review FROM bookings WHERE artist_profile_id = profile_id AND review IS NOT NULL
           ORDER BY created_at DESC LIMIT 200) r), '')), 'D')
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION artist_profiles_search_document() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_document := artist_search_document(NEW.id, NEW.artist_name, NEW.genre,
    NEW.instruments, NEW.occasions, NEW.bio);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER artist_profiles_search_document
BEFORE INSERT OR UPDATE OF artist_name, genre, instruments, occasions, bio ON artist_profiles
FOR EACH ROW EXECUTE FUNCTION artist_profiles_search_document();
--> statement-breakpoint
-- A session's title or a review changed: the artist's document is written again.
CREATE OR REPLACE FUNCTION artist_search_document_refresh() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  artist uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.artist_profile_id ELSE NEW.artist_profile_id END;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.artist_profile_id IS DISTINCT FROM NEW.artist_profile_id THEN
    UPDATE artist_profiles SET search_document = artist_search_document(id, artist_name, genre,
      instruments, occasions, bio) WHERE id = OLD.artist_profile_id;
  END IF;
  UPDATE artist_profiles SET search_document = artist_search_document(id, artist_name, genre,
    instruments, occasions, bio) WHERE id = artist;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER music_sessions_search_document
AFTER INSERT OR DELETE OR UPDATE OF title, artist_profile_id ON music_sessions
FOR EACH ROW EXECUTE FUNCTION artist_search_document_refresh();
--> statement-breakpoint
CREATE TRIGGER bookings_search_document
AFTER UPDATE OF review ON bookings
FOR EACH ROW WHEN (OLD.review IS DISTINCT FROM NEW.review)
EXECUTE FUNCTION artist_search_document_refresh();
--> statement-breakpoint
UPDATE artist_profiles SET search_document = artist_search_document(id, artist_name, genre,
  instruments, occasions, bio);
--> statement-breakpoint
-- Finer statistics, so the planner tells a rare word from a common one (as migration 0003 does).
ALTER TABLE artist_profiles ALTER COLUMN search_document SET STATISTICS 1000;
