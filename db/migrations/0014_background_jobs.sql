CREATE TABLE "job_schedules" (
	"queue" text PRIMARY KEY NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "jobs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"queue" text NOT NULL,
	"key" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"revision" integer DEFAULT 0 NOT NULL,
	"lease" uuid,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"failed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_attempts_check" CHECK ("jobs"."attempts" >= 0 AND "jobs"."max_attempts" >= 1)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_waiting_key_idx" ON "jobs" USING btree ("queue","key") WHERE "jobs"."failed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("queue","run_at") WHERE "jobs"."failed_at" IS NULL;--> statement-breakpoint
-- The credential queues become jobs of the one mechanism (app/lib/jobs.server.ts): what waited
-- in them waits on as jobs.
INSERT INTO jobs (queue, key, run_at)
SELECT 'credentials.refresh-session', session_id::text, queued_at FROM credential_queue;
--> statement-breakpoint
INSERT INTO jobs (queue, key, run_at)
SELECT 'credentials.sign-cv', artist_profile_id::text, queued_at FROM credential_cv_queue;
--> statement-breakpoint
-- Deletes the database makes by cascade (an account deleted with its sessions, a verifier's
-- account deleted with its verifications) may change a session's level too: a job for the
-- session is added here, in the deleting transaction, as queueCredentialRefresh does for the
-- app's own writes. The trigger's argument names the column that holds the session's id.
CREATE OR REPLACE FUNCTION credential_queue_on_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO jobs (queue, key)
  VALUES ('credentials.refresh-session', (to_jsonb(OLD) ->> TG_ARGV[0]))
  ON CONFLICT (queue, key) WHERE failed_at IS NULL
  DO UPDATE SET revision = jobs.revision + 1;
  PERFORM pg_notify('jobs', 'credentials.refresh-session');
  RETURN OLD;
END;
$$;
--> statement-breakpoint
DROP TABLE "credential_cv_queue" CASCADE;
--> statement-breakpoint
DROP TABLE "credential_queue" CASCADE;
