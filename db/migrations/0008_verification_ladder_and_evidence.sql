CREATE TABLE "lineup_confirmations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"artist_profile_id" uuid NOT NULL,
	"answer" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lineup_confirmations_answer_check" CHECK (answer IN ('confirmed', 'declined'))
);
--> statement-breakpoint
ALTER TABLE "music_sessions" DROP CONSTRAINT "music_sessions_verification_method_check";--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD COLUMN "client_verified_sessions" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "venue_public" boolean;--> statement-breakpoint
ALTER TABLE "session_media" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "lineup_confirmations" ADD CONSTRAINT "lineup_confirmations_session_id_music_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."music_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lineup_confirmations" ADD CONSTRAINT "lineup_confirmations_artist_profile_id_artist_profiles_id_fk" FOREIGN KEY ("artist_profile_id") REFERENCES "public"."artist_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lineup_confirmations_session_id_artist_profile_id_index" ON "lineup_confirmations" USING btree ("session_id","artist_profile_id");--> statement-breakpoint
CREATE INDEX "lineup_confirmations_artist_profile_id_index" ON "lineup_confirmations" USING btree ("artist_profile_id");--> statement-breakpoint
CREATE INDEX "artist_profiles_client_verified_idx" ON "artist_profiles" USING btree ("rating" DESC NULLS LAST,"id") WHERE "artist_profiles"."client_verified_sessions" > 0;--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD CONSTRAINT "artist_profiles_client_verified_check" CHECK ("artist_profiles"."client_verified_sessions" >= 0);--> statement-breakpoint
ALTER TABLE "music_sessions" ADD CONSTRAINT "music_sessions_verification_method_check" CHECK ("music_sessions"."verification_method" IS NULL OR verification_method IN ('peer', 'client_booking', 'lineup'));--> statement-breakpoint
ALTER TABLE "session_media" ADD CONSTRAINT "session_media_sha256_check" CHECK ("session_media"."sha256" IS NULL OR "session_media"."sha256" ~ '^[0-9a-f]{64}$');--> statement-breakpoint
-- The counters trigger of 0001 also keeps client_verified_sessions: sessions logged from a rated
-- booking (booking_id set), for discovery's "at least N client-verified gigs".
CREATE OR REPLACE FUNCTION music_sessions_maintain_artist_counters() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE artist_profiles SET
      total_sessions = total_sessions - 1,
      verified_sessions = verified_sessions - (CASE WHEN OLD.is_verified THEN 1 ELSE 0 END),
      client_verified_sessions = client_verified_sessions - (CASE WHEN OLD.booking_id IS NOT NULL THEN 1 ELSE 0 END),
      total_minutes = total_minutes - OLD.duration_minutes
    WHERE id = OLD.artist_profile_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    UPDATE artist_profiles SET
      total_sessions = total_sessions + 1,
      verified_sessions = verified_sessions + (CASE WHEN NEW.is_verified THEN 1 ELSE 0 END),
      client_verified_sessions = client_verified_sessions + (CASE WHEN NEW.booking_id IS NOT NULL THEN 1 ELSE 0 END),
      total_minutes = total_minutes + NEW.duration_minutes
    WHERE id = NEW.artist_profile_id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER music_sessions_artist_counters ON music_sessions;
--> statement-breakpoint
CREATE TRIGGER music_sessions_artist_counters
AFTER INSERT OR DELETE OR UPDATE OF artist_profile_id, is_verified, duration_minutes, booking_id
ON music_sessions
FOR EACH ROW EXECUTE FUNCTION music_sessions_maintain_artist_counters();
--> statement-breakpoint
UPDATE artist_profiles a SET client_verified_sessions = c.n
FROM (SELECT artist_profile_id, count(*)::int AS n FROM music_sessions
      WHERE booking_id IS NOT NULL GROUP BY artist_profile_id) c
WHERE a.id = c.artist_profile_id;
--> statement-breakpoint
-- Gigs rated before the client could choose hide their venue until the client chooses (decision
-- 017): the public row keeps "{event type}, {city}" (the artist's location), the booking keeps the
-- venue for its two parties. A title the artist rewrote is left as it is.
UPDATE music_sessions m SET
  location = coalesce(m.location, a.location),
  title = CASE WHEN m.title = b.event_type || ' at ' || b.venue
               THEN b.event_type || ', ' || coalesce(m.location, a.location)
               ELSE m.title END,
  venue = NULL
FROM bookings b, artist_profiles a
WHERE m.booking_id = b.id AND a.id = m.artist_profile_id AND b.venue_public IS NULL;
