-- The planner needs finer statistics on the trigram indexes to tell a rare search term from a
-- common one; with the default it sorted 25k matches for a name that matches a few hundred
-- (measured with npm run bench:discovery at 1M artists: name search p95 383 ms → 33 ms).
ALTER INDEX artist_profiles_search_idx ALTER COLUMN 1 SET STATISTICS 1000;
--> statement-breakpoint
ALTER INDEX artist_profiles_genre_idx ALTER COLUMN 1 SET STATISTICS 1000;
--> statement-breakpoint
ANALYZE artist_profiles;
