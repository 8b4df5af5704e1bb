CREATE SEQUENCE "public"."credential_status_index_seq" INCREMENT BY 1 MINVALUE 0 MAXVALUE 9223372036854775807 START WITH 0 CACHE 1;--> statement-breakpoint
CREATE TABLE "credential_cv_queue" (
	"artist_profile_id" uuid PRIMARY KEY NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credential_issuer_keys" (
	"public_key_multibase" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credential_presentations" (
	"artist_profile_id" uuid PRIMARY KEY NOT NULL,
	"credential_count" integer NOT NULL,
	"document" text NOT NULL,
	"document_gzip" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credential_queue" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credential_status_lists" (
	"list_number" integer PRIMARY KEY NOT NULL,
	"document" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credentials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"artist_profile_id" uuid NOT NULL,
	"status_index" integer NOT NULL,
	"level" text NOT NULL,
	"claims_digest" text NOT NULL,
	"document" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "credential_presentations" ADD CONSTRAINT "credential_presentations_artist_profile_id_artist_profiles_id_fk" FOREIGN KEY ("artist_profile_id") REFERENCES "public"."artist_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "credentials_status_index_idx" ON "credentials" USING btree ("status_index");--> statement-breakpoint
CREATE UNIQUE INDEX "credentials_live_session_idx" ON "credentials" USING btree ("session_id") WHERE "credentials"."revoked_at" IS NULL;--> statement-breakpoint
CREATE INDEX "credentials_live_artist_idx" ON "credentials" USING btree ("artist_profile_id","issued_at") WHERE "credentials"."revoked_at" IS NULL;--> statement-breakpoint
-- Deletes the database makes by cascade (an account deleted with its sessions, a verifier's
-- account deleted with its verifications) may change a session's level too: queue the session
-- here, in the deleting transaction, as queueCredentialRefresh does for the app's own writes.
-- The trigger's argument names the column that holds the session's id.
CREATE OR REPLACE FUNCTION credential_queue_on_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO credential_queue (session_id)
  VALUES ((to_jsonb(OLD) ->> TG_ARGV[0])::uuid)
  ON CONFLICT (session_id) DO NOTHING;
  PERFORM pg_notify('credential_refresh', '');
  RETURN OLD;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER music_sessions_credential_queue
AFTER DELETE ON music_sessions
FOR EACH ROW EXECUTE FUNCTION credential_queue_on_delete('id');
--> statement-breakpoint
CREATE TRIGGER peer_verifications_credential_queue
AFTER DELETE ON peer_verifications
FOR EACH ROW EXECUTE FUNCTION credential_queue_on_delete('session_id');
--> statement-breakpoint
CREATE TRIGGER session_participants_credential_queue
AFTER DELETE ON session_participants
FOR EACH ROW EXECUTE FUNCTION credential_queue_on_delete('session_id');
--> statement-breakpoint
-- Sessions verified before credentials existed are signed by the worker's first rounds.
INSERT INTO credential_queue (session_id)
SELECT id FROM music_sessions WHERE is_verified
ON CONFLICT (session_id) DO NOTHING;
