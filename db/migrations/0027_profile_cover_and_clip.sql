ALTER TABLE "artist_profiles" ADD COLUMN "cover_media_id" uuid;--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD COLUMN "featured_clip_id" uuid;--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD CONSTRAINT "artist_profiles_cover_media_id_session_media_id_fk" FOREIGN KEY ("cover_media_id") REFERENCES "public"."session_media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD CONSTRAINT "artist_profiles_featured_clip_id_session_media_id_fk" FOREIGN KEY ("featured_clip_id") REFERENCES "public"."session_media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- The cover is a photo and the clip an audio file, each of one of the artist's own sessions.
CREATE OR REPLACE FUNCTION artist_profiles_check_media() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.cover_media_id IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM session_media m JOIN music_sessions s ON s.id = m.session_id
    WHERE m.id = NEW.cover_media_id AND m.media_type = 'photo' AND s.artist_profile_id = NEW.id
  ) THEN
    RAISE EXCEPTION 'the cover must be a photo of the artist''s own session' USING ERRCODE = 'check_violation';
  END IF;
  IF NEW.featured_clip_id IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM session_media m JOIN music_sessions s ON s.id = m.session_id
    WHERE m.id = NEW.featured_clip_id AND m.media_type = 'audio' AND s.artist_profile_id = NEW.id
  ) THEN
    RAISE EXCEPTION 'the clip must be audio of the artist''s own session' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER artist_profiles_media
BEFORE INSERT OR UPDATE OF cover_media_id, featured_clip_id ON artist_profiles
FOR EACH ROW EXECUTE FUNCTION artist_profiles_check_media();
