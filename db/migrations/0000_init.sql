CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "artist_profiles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"slug" text NOT NULL,
	"artist_name" text NOT NULL,
	"bio" text NOT NULL,
	"genre" text NOT NULL,
	"location" text NOT NULL,
	"experience" text NOT NULL,
	"instruments" text NOT NULL,
	"hourly_rate" numeric(10, 2),
	"social_links" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"avatar_path" text,
	"is_available" boolean DEFAULT true NOT NULL,
	"rating" numeric(3, 2) DEFAULT 0 NOT NULL,
	"total_reviews" integer DEFAULT 0 NOT NULL,
	"total_sessions" integer DEFAULT 0 NOT NULL,
	"verified_sessions" integer DEFAULT 0 NOT NULL,
	"total_minutes" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "artist_profiles_userId_unique" UNIQUE("user_id"),
	CONSTRAINT "artist_profiles_slug_unique" UNIQUE("slug"),
	CONSTRAINT "artist_profiles_rating_check" CHECK ("artist_profiles"."rating" >= 0 AND "artist_profiles"."rating" <= 5),
	CONSTRAINT "artist_profiles_total_reviews_check" CHECK ("artist_profiles"."total_reviews" >= 0),
	CONSTRAINT "artist_profiles_hourly_rate_check" CHECK ("artist_profiles"."hourly_rate" IS NULL OR "artist_profiles"."hourly_rate" >= 0),
	CONSTRAINT "artist_profiles_counts_check" CHECK ("artist_profiles"."total_sessions" >= 0 AND "artist_profiles"."verified_sessions" >= 0 AND "artist_profiles"."total_minutes" >= 0),
	CONSTRAINT "artist_profiles_slug_check" CHECK ("artist_profiles"."slug" ~ '^[a-z0-9-]+$')
);
--> statement-breakpoint
CREATE TABLE "auth_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token" text NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_sessions_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "auth_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "availability" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"artist_profile_id" uuid NOT NULL,
	"date" date NOT NULL,
	"status" text NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "availability_status_check" CHECK (status IN ('available', 'booked', 'unavailable'))
);
--> statement-breakpoint
CREATE TABLE "booking_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"sender_user_id" uuid,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_messages_length_check" CHECK (char_length("booking_messages"."message") >= 1 AND char_length("booking_messages"."message") <= 2000)
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"artist_profile_id" uuid,
	"client_user_id" uuid,
	"event_date" date NOT NULL,
	"start_time" time,
	"duration_hours" numeric(4, 1) NOT NULL,
	"venue" text NOT NULL,
	"event_type" text NOT NULL,
	"event_name" text,
	"message" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"total_amount" numeric(12, 2) NOT NULL,
	"rating" integer,
	"review" text,
	"rating_given" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bookings_status_check" CHECK (status IN ('pending', 'confirmed', 'rejected', 'completed', 'cancelled')),
	CONSTRAINT "bookings_event_type_check" CHECK (event_type IN ('Live Show', 'Private Event', 'Jam Session', 'Recording Session', 'Corporate Event', 'Wedding')),
	CONSTRAINT "bookings_duration_check" CHECK ("bookings"."duration_hours" >= 0.5 AND "bookings"."duration_hours" <= 12 AND mod("bookings"."duration_hours" * 2, 1) = 0),
	CONSTRAINT "bookings_amount_check" CHECK ("bookings"."total_amount" >= 0),
	CONSTRAINT "bookings_rating_check" CHECK ("bookings"."rating" IS NULL OR ("bookings"."rating" >= 1 AND "bookings"."rating" <= 5)),
	CONSTRAINT "bookings_rating_given_check" CHECK ("bookings"."rating_given" = ("bookings"."rating" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "instagram_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"instagram_user_id" text,
	"username" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "instagram_connections_userId_unique" UNIQUE("user_id")
);
--> statement-breakpoint
CREATE TABLE "instagram_follows" (
	"connection_id" uuid NOT NULL,
	"artist_profile_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "music_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"artist_profile_id" uuid NOT NULL,
	"title" text NOT NULL,
	"session_type" text NOT NULL,
	"start_time" timestamp with time zone DEFAULT now() NOT NULL,
	"duration_minutes" integer DEFAULT 0 NOT NULL,
	"venue" text,
	"location" text,
	"description" text,
	"instruments_used" text[] DEFAULT '{}'::text[] NOT NULL,
	"genres" text[] DEFAULT '{}'::text[] NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_verified" boolean DEFAULT false NOT NULL,
	"peer_verification_score" numeric(5, 2),
	"verification_method" text,
	"collaborators" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"booking_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "music_sessions_bookingId_unique" UNIQUE("booking_id"),
	CONSTRAINT "music_sessions_type_check" CHECK (session_type IN ('performance', 'practice', 'jam', 'recording')),
	CONSTRAINT "music_sessions_verification_method_check" CHECK ("music_sessions"."verification_method" IS NULL OR verification_method IN ('peer', 'client_booking')),
	CONSTRAINT "music_sessions_duration_check" CHECK ("music_sessions"."duration_minutes" >= 0 AND "music_sessions"."duration_minutes" <= 100000),
	CONSTRAINT "music_sessions_score_check" CHECK ("music_sessions"."peer_verification_score" IS NULL OR ("music_sessions"."peer_verification_score" >= 0 AND "music_sessions"."peer_verification_score" <= 100))
);
--> statement-breakpoint
CREATE TABLE "peer_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"verified_by_artist_id" uuid NOT NULL,
	"verification_type" text DEFAULT 'collaboration' NOT NULL,
	"verification_level" text DEFAULT 'basic' NOT NULL,
	"trust_score" integer DEFAULT 100 NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "peer_verifications_trust_score_check" CHECK (trust_score IN (100, 75, 50, 25)),
	CONSTRAINT "peer_verifications_type_check" CHECK (verification_type IN ('collaboration')),
	CONSTRAINT "peer_verifications_level_check" CHECK (verification_level IN ('basic'))
);
--> statement-breakpoint
CREATE TABLE "portfolio_analytics" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"portfolio_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"media_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "portfolio_analytics_type_check" CHECK (event_type IN ('view', 'media_play', 'share'))
);
--> statement-breakpoint
CREATE TABLE "portfolio_sections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"portfolio_id" uuid NOT NULL,
	"title" text NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portfolios" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"artist_profile_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"auto_generated" boolean DEFAULT true NOT NULL,
	"theme_config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"view_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "portfolios_view_count_check" CHECK ("portfolios"."view_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" uuid PRIMARY KEY NOT NULL,
	"first_name" text,
	"last_name" text,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"last_request" bigint NOT NULL,
	CONSTRAINT "rate_limits_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "session_media" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"media_type" text NOT NULL,
	"file_path" text NOT NULL,
	"preview_path" text,
	"file_name" text NOT NULL,
	"file_size" bigint NOT NULL,
	"mime_type" text NOT NULL,
	"description" text,
	"is_featured" boolean DEFAULT false NOT NULL,
	"is_portfolio_featured" boolean DEFAULT false NOT NULL,
	"portfolio_category" text,
	"portfolio_sort_order" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_media_type_check" CHECK (media_type IN ('photo', 'video', 'audio')),
	CONSTRAINT "session_media_category_check" CHECK ("session_media"."portfolio_category" IS NULL OR portfolio_category IN ('photo', 'video', 'audio')),
	CONSTRAINT "session_media_size_check" CHECK ("session_media"."file_size" >= 0)
);
--> statement-breakpoint
CREATE TABLE "session_participants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"artist_profile_id" uuid NOT NULL,
	"joined_via_token" uuid,
	"participation_type" text NOT NULL,
	"verification_status" text NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_participants_type_check" CHECK (participation_type IN ('collaborator', 'verifier')),
	CONSTRAINT "session_participants_status_check" CHECK (verification_status IN ('verified', 'pending'))
);
--> statement-breakpoint
CREATE TABLE "session_sharing_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"creator_artist_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"max_uses" integer,
	"use_count" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_sharing_tokens_tokenHash_unique" UNIQUE("token_hash"),
	CONSTRAINT "session_sharing_tokens_max_uses_check" CHECK ("session_sharing_tokens"."max_uses" IS NULL OR "session_sharing_tokens"."max_uses" >= 1),
	CONSTRAINT "session_sharing_tokens_use_count_check" CHECK ("session_sharing_tokens"."use_count" >= 0 AND ("session_sharing_tokens"."max_uses" IS NULL OR "session_sharing_tokens"."use_count" <= "session_sharing_tokens"."max_uses"))
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_roles_role_check" CHECK (role IN ('artist', 'client', 'admin'))
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD CONSTRAINT "artist_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_accounts" ADD CONSTRAINT "auth_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "availability" ADD CONSTRAINT "availability_artist_profile_id_artist_profiles_id_fk" FOREIGN KEY ("artist_profile_id") REFERENCES "public"."artist_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_messages" ADD CONSTRAINT "booking_messages_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_messages" ADD CONSTRAINT "booking_messages_sender_user_id_users_id_fk" FOREIGN KEY ("sender_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_artist_profile_id_artist_profiles_id_fk" FOREIGN KEY ("artist_profile_id") REFERENCES "public"."artist_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_client_user_id_users_id_fk" FOREIGN KEY ("client_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instagram_connections" ADD CONSTRAINT "instagram_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instagram_follows" ADD CONSTRAINT "instagram_follows_connection_id_instagram_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."instagram_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instagram_follows" ADD CONSTRAINT "instagram_follows_artist_profile_id_artist_profiles_id_fk" FOREIGN KEY ("artist_profile_id") REFERENCES "public"."artist_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "music_sessions" ADD CONSTRAINT "music_sessions_artist_profile_id_artist_profiles_id_fk" FOREIGN KEY ("artist_profile_id") REFERENCES "public"."artist_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "music_sessions" ADD CONSTRAINT "music_sessions_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "peer_verifications" ADD CONSTRAINT "peer_verifications_session_id_music_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."music_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "peer_verifications" ADD CONSTRAINT "peer_verifications_verified_by_artist_id_artist_profiles_id_fk" FOREIGN KEY ("verified_by_artist_id") REFERENCES "public"."artist_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portfolio_analytics" ADD CONSTRAINT "portfolio_analytics_portfolio_id_portfolios_id_fk" FOREIGN KEY ("portfolio_id") REFERENCES "public"."portfolios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portfolio_analytics" ADD CONSTRAINT "portfolio_analytics_media_id_session_media_id_fk" FOREIGN KEY ("media_id") REFERENCES "public"."session_media"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portfolio_sections" ADD CONSTRAINT "portfolio_sections_portfolio_id_portfolios_id_fk" FOREIGN KEY ("portfolio_id") REFERENCES "public"."portfolios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portfolios" ADD CONSTRAINT "portfolios_artist_profile_id_artist_profiles_id_fk" FOREIGN KEY ("artist_profile_id") REFERENCES "public"."artist_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_id_users_id_fk" FOREIGN KEY ("id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_media" ADD CONSTRAINT "session_media_session_id_music_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."music_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_participants" ADD CONSTRAINT "session_participants_session_id_music_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."music_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_participants" ADD CONSTRAINT "session_participants_artist_profile_id_artist_profiles_id_fk" FOREIGN KEY ("artist_profile_id") REFERENCES "public"."artist_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_participants" ADD CONSTRAINT "session_participants_joined_via_token_session_sharing_tokens_id_fk" FOREIGN KEY ("joined_via_token") REFERENCES "public"."session_sharing_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_sharing_tokens" ADD CONSTRAINT "session_sharing_tokens_session_id_music_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."music_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_sharing_tokens" ADD CONSTRAINT "session_sharing_tokens_creator_artist_id_artist_profiles_id_fk" FOREIGN KEY ("creator_artist_id") REFERENCES "public"."artist_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "artist_profiles_search_idx" ON "artist_profiles" USING gin (lower("artist_name" || ' ' || "genre" || ' ' || "instruments") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "artist_profiles_genre_idx" ON "artist_profiles" USING gin (lower("genre") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "artist_profiles_location_idx" ON "artist_profiles" USING btree ("location","rating" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "artist_profiles_ranking_idx" ON "artist_profiles" USING btree ("verified_sessions" DESC NULLS LAST,"rating" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "artist_profiles_listing_idx" ON "artist_profiles" USING btree ("rating" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "auth_accounts_user_id_index" ON "auth_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "auth_sessions_user_id_index" ON "auth_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "auth_verifications_identifier_index" ON "auth_verifications" USING btree ("identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "availability_artist_profile_id_date_index" ON "availability" USING btree ("artist_profile_id","date");--> statement-breakpoint
CREATE INDEX "booking_messages_booking_id_created_at_index" ON "booking_messages" USING btree ("booking_id","created_at");--> statement-breakpoint
CREATE INDEX "bookings_artist_profile_id_created_at_index" ON "bookings" USING btree ("artist_profile_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "bookings_client_user_id_created_at_index" ON "bookings" USING btree ("client_user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "bookings_open_by_date_idx" ON "bookings" USING btree ("event_date") WHERE "bookings"."status" IN ('pending', 'confirmed');--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_one_confirmed_per_date_idx" ON "bookings" USING btree ("artist_profile_id","event_date") WHERE "bookings"."status" IN ('confirmed', 'completed');--> statement-breakpoint
CREATE UNIQUE INDEX "instagram_follows_connection_id_artist_profile_id_index" ON "instagram_follows" USING btree ("connection_id","artist_profile_id");--> statement-breakpoint
CREATE INDEX "instagram_follows_artist_profile_id_index" ON "instagram_follows" USING btree ("artist_profile_id");--> statement-breakpoint
CREATE INDEX "music_sessions_artist_profile_id_start_time_index" ON "music_sessions" USING btree ("artist_profile_id","start_time" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "peer_verifications_session_id_verified_by_artist_id_index" ON "peer_verifications" USING btree ("session_id","verified_by_artist_id");--> statement-breakpoint
CREATE INDEX "portfolio_analytics_portfolio_id_created_at_index" ON "portfolio_analytics" USING btree ("portfolio_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "portfolio_sections_portfolio_id_sort_order_index" ON "portfolio_sections" USING btree ("portfolio_id","sort_order");--> statement-breakpoint
CREATE UNIQUE INDEX "portfolios_one_active_idx" ON "portfolios" USING btree ("artist_profile_id") WHERE "portfolios"."is_active";--> statement-breakpoint
CREATE INDEX "session_media_session_id_created_at_index" ON "session_media" USING btree ("session_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "session_media_featured_idx" ON "session_media" USING btree ("session_id","portfolio_sort_order") WHERE "session_media"."is_portfolio_featured";--> statement-breakpoint
CREATE UNIQUE INDEX "session_participants_session_id_artist_profile_id_participation_type_index" ON "session_participants" USING btree ("session_id","artist_profile_id","participation_type");--> statement-breakpoint
CREATE INDEX "session_participants_artist_profile_id_participation_type_index" ON "session_participants" USING btree ("artist_profile_id","participation_type");--> statement-breakpoint
CREATE INDEX "session_sharing_tokens_session_id_index" ON "session_sharing_tokens" USING btree ("session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_roles_user_id_role_index" ON "user_roles" USING btree ("user_id","role");