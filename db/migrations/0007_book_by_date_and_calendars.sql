CREATE TABLE "artist_busy_days" (
	"artist_profile_id" uuid NOT NULL,
	"date" date NOT NULL,
	CONSTRAINT "artist_busy_days_artist_profile_id_date_pk" PRIMARY KEY("artist_profile_id","date")
);
--> statement-breakpoint
CREATE TABLE "calendar_feeds" (
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"salt" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_feeds_user_id_kind_pk" PRIMARY KEY("user_id","kind"),
	CONSTRAINT "calendar_feeds_tokenHash_unique" UNIQUE("token_hash"),
	CONSTRAINT "calendar_feeds_kind_check" CHECK (kind IN ('artist', 'client'))
);
--> statement-breakpoint
CREATE TABLE "external_calendars" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"artist_profile_id" uuid NOT NULL,
	"url" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sync_started_at" timestamp with time zone,
	"last_synced_at" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "external_calendars_url_check" CHECK (char_length("external_calendars"."url") <= 2000)
);
--> statement-breakpoint
CREATE TABLE "imported_busy_days" (
	"calendar_id" uuid NOT NULL,
	"artist_profile_id" uuid NOT NULL,
	"date" date NOT NULL,
	CONSTRAINT "imported_busy_days_calendar_id_date_pk" PRIMARY KEY("calendar_id","date")
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "calendar_sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "artist_busy_days" ADD CONSTRAINT "artist_busy_days_artist_profile_id_artist_profiles_id_fk" FOREIGN KEY ("artist_profile_id") REFERENCES "public"."artist_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "external_calendars" ADD CONSTRAINT "external_calendars_artist_profile_id_artist_profiles_id_fk" FOREIGN KEY ("artist_profile_id") REFERENCES "public"."artist_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imported_busy_days" ADD CONSTRAINT "imported_busy_days_calendar_id_external_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."external_calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imported_busy_days" ADD CONSTRAINT "imported_busy_days_artist_profile_id_artist_profiles_id_fk" FOREIGN KEY ("artist_profile_id") REFERENCES "public"."artist_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "availability_available_on_idx" ON "availability" USING btree ("date","artist_profile_id") WHERE "availability"."status" = 'available';--> statement-breakpoint
CREATE INDEX "artist_profiles_location_genre_idx" ON "artist_profiles" USING btree ("location","id","genre");--> statement-breakpoint
CREATE INDEX "artist_busy_days_date_idx" ON "artist_busy_days" USING btree ("date","artist_profile_id");--> statement-breakpoint
CREATE UNIQUE INDEX "external_calendars_artist_profile_id_url_index" ON "external_calendars" USING btree ("artist_profile_id","url");--> statement-breakpoint
CREATE INDEX "external_calendars_due_idx" ON "external_calendars" USING btree ("sync_started_at");--> statement-breakpoint
CREATE INDEX "imported_busy_days_artist_profile_id_date_index" ON "imported_busy_days" USING btree ("artist_profile_id","date");--> statement-breakpoint
-- artist_busy_days holds a row for each day an artist is not free (decision 015): the day is
-- marked booked or unavailable, holds a confirmed or completed booking, or is busy in one of the
-- artist's imported calendars. These triggers recompute one (artist, day) from those sources in
-- the same transaction as any change to them. Locking the artist's row first serialises the
-- writers of one artist, so two concurrent changes (a mark removed while a booking is confirmed)
-- cannot leave a day wrong; a row lock takes no shared memory, so bulk changes are fine.
CREATE OR REPLACE FUNCTION refresh_artist_busy_day(artist uuid, day date) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF artist IS NULL OR day IS NULL THEN
    RETURN;
  END IF;
  PERFORM 1 FROM artist_profiles WHERE id = artist FOR NO KEY UPDATE;
  IF FOUND AND (
    EXISTS (SELECT 1 FROM availability
      WHERE artist_profile_id = artist AND date = day AND status IN ('booked', 'unavailable'))
    OR EXISTS (SELECT 1 FROM bookings
      WHERE artist_profile_id = artist AND event_date = day AND status IN ('confirmed', 'completed'))
    OR EXISTS (SELECT 1 FROM imported_busy_days WHERE artist_profile_id = artist AND date = day)
  ) THEN
    INSERT INTO artist_busy_days (artist_profile_id, date) VALUES (artist, day) ON CONFLICT DO NOTHING;
  ELSE
    DELETE FROM artist_busy_days WHERE artist_profile_id = artist AND date = day;
  END IF;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION availability_refresh_busy_day() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM refresh_artist_busy_day(OLD.artist_profile_id, OLD.date);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM refresh_artist_busy_day(NEW.artist_profile_id, NEW.date);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER availability_busy_day
AFTER INSERT OR DELETE OR UPDATE OF artist_profile_id, date, status ON availability
FOR EACH ROW EXECUTE FUNCTION availability_refresh_busy_day();
--> statement-breakpoint
CREATE TRIGGER imported_busy_days_busy_day
AFTER INSERT OR DELETE OR UPDATE ON imported_busy_days
FOR EACH ROW EXECUTE FUNCTION availability_refresh_busy_day();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION bookings_refresh_busy_day() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM refresh_artist_busy_day(OLD.artist_profile_id, OLD.event_date);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM refresh_artist_busy_day(NEW.artist_profile_id, NEW.event_date);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER bookings_busy_day
AFTER INSERT OR DELETE OR UPDATE OF artist_profile_id, event_date, status ON bookings
FOR EACH ROW EXECUTE FUNCTION bookings_refresh_busy_day();
--> statement-breakpoint
-- A calendar feed's SEQUENCE for a booking grows with every change a calendar would show.
CREATE OR REPLACE FUNCTION bookings_next_calendar_sequence() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF ROW(NEW.status, NEW.event_date, NEW.start_time, NEW.duration_hours, NEW.venue, NEW.event_type, NEW.event_name)
     IS DISTINCT FROM
     ROW(OLD.status, OLD.event_date, OLD.start_time, OLD.duration_hours, OLD.venue, OLD.event_type, OLD.event_name) THEN
    NEW.calendar_sequence := OLD.calendar_sequence + 1;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER bookings_calendar_sequence
BEFORE UPDATE ON bookings
FOR EACH ROW EXECUTE FUNCTION bookings_next_calendar_sequence();
--> statement-breakpoint
INSERT INTO artist_busy_days (artist_profile_id, date)
SELECT artist_profile_id, date FROM availability WHERE status IN ('booked', 'unavailable')
UNION
SELECT artist_profile_id, event_date FROM bookings
WHERE artist_profile_id IS NOT NULL AND status IN ('confirmed', 'completed')
ON CONFLICT DO NOTHING;
