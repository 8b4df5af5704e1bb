CREATE TABLE "client_ratings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"client_user_id" uuid NOT NULL,
	"artist_profile_id" uuid,
	"stars" integer NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "client_ratings_bookingId_unique" UNIQUE("booking_id"),
	CONSTRAINT "client_ratings_stars_check" CHECK ("client_ratings"."stars" BETWEEN 1 AND 5),
	CONSTRAINT "client_ratings_comment_check" CHECK ("client_ratings"."comment" IS NULL OR length("client_ratings"."comment") <= 500)
);
--> statement-breakpoint
CREATE TABLE "problem_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"report_id" uuid NOT NULL,
	"side" text NOT NULL,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "problem_files_storageKey_unique" UNIQUE("storage_key"),
	CONSTRAINT "problem_files_side_check" CHECK ("problem_files"."side" IN ('report', 'answer')),
	CONSTRAINT "problem_files_sha256_check" CHECK ("problem_files"."sha256" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "problem_files_size_check" CHECK ("problem_files"."size_bytes" > 0)
);
--> statement-breakpoint
CREATE TABLE "reconciliation_runs" (
	"day" date PRIMARY KEY NOT NULL,
	"unexplained_paise" bigint NOT NULL,
	"clean" boolean NOT NULL,
	"report" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "client_ratings" ADD CONSTRAINT "client_ratings_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_ratings" ADD CONSTRAINT "client_ratings_client_user_id_users_id_fk" FOREIGN KEY ("client_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_ratings" ADD CONSTRAINT "client_ratings_artist_profile_id_artist_profiles_id_fk" FOREIGN KEY ("artist_profile_id") REFERENCES "public"."artist_profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "problem_files" ADD CONSTRAINT "problem_files_report_id_problem_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."problem_reports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_ratings_client_user_id_index" ON "client_ratings" USING btree ("client_user_id");--> statement-breakpoint
CREATE INDEX "problem_files_report_id_index" ON "problem_files" USING btree ("report_id");