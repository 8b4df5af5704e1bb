CREATE TABLE "operator_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "operator_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"operator_user_id" text NOT NULL,
	"operator_email" text NOT NULL,
	"action" text NOT NULL,
	"target" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "problem_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"party" text NOT NULL,
	"reporter_user_id" uuid,
	"category" text NOT NULL,
	"statement" text NOT NULL,
	"reported_at" timestamp with time zone NOT NULL,
	"decision_due_at" timestamp with time zone NOT NULL,
	"answer" text,
	"answered_at" timestamp with time zone,
	"answered_by_user_id" uuid,
	"decision" text,
	"refund_paise" bigint,
	"decision_reason" text,
	"decided_at" timestamp with time zone,
	"decided_by_user_id" uuid,
	CONSTRAINT "problem_reports_category_check" CHECK (category IN ('artist_no_show', 'not_as_agreed', 'balance_not_paid', 'venue_refused_entry', 'safety_or_conduct', 'other')),
	CONSTRAINT "problem_reports_party_check" CHECK (party IN ('artist', 'client')),
	CONSTRAINT "problem_reports_decision_check" CHECK (decision IN ('refund_full', 'refund_partial', 'release')),
	CONSTRAINT "problem_reports_statement_check" CHECK (length("problem_reports"."statement") BETWEEN 1 AND 2000),
	CONSTRAINT "problem_reports_answer_check" CHECK ("problem_reports"."answer" IS NULL OR length("problem_reports"."answer") BETWEEN 1 AND 2000),
	CONSTRAINT "problem_reports_decided_check" CHECK (("problem_reports"."decision" IS NULL) = ("problem_reports"."decided_at" IS NULL) AND ("problem_reports"."decision" IS NULL) = ("problem_reports"."decision_reason" IS NULL)),
	CONSTRAINT "problem_reports_refund_check" CHECK ("problem_reports"."refund_paise" IS NULL OR "problem_reports"."refund_paise" >= 0)
);
--> statement-breakpoint
ALTER TABLE "money_events" DROP CONSTRAINT "money_events_kind_check";--> statement-breakpoint
ALTER TABLE "user_roles" DROP CONSTRAINT "user_roles_role_check";--> statement-breakpoint
ALTER TABLE "problem_reports" ADD CONSTRAINT "problem_reports_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "problem_reports" ADD CONSTRAINT "problem_reports_reporter_user_id_users_id_fk" FOREIGN KEY ("reporter_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "problem_reports" ADD CONSTRAINT "problem_reports_answered_by_user_id_users_id_fk" FOREIGN KEY ("answered_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "problem_reports" ADD CONSTRAINT "problem_reports_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_log_at_index" ON "operator_log" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "problem_reports_booking_id_party_index" ON "problem_reports" USING btree ("booking_id","party");--> statement-breakpoint
CREATE INDEX "problem_reports_decided_at_decision_due_at_index" ON "problem_reports" USING btree ("decided_at","decision_due_at");--> statement-breakpoint
ALTER TABLE "money_events" ADD CONSTRAINT "money_events_kind_check" CHECK (kind IN ('deposit_requested', 'balance_requested', 'payment_received', 'payment_failed', 'payout_held', 'payout_released', 'refund_started', 'refund_paid', 'automatic_refund', 'balance_reminder', 'more_time_given', 'cancelled_for_non_payment', 'problem_reported', 'problem_answered', 'problem_decided'));--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_check" CHECK (role IN ('artist', 'client', 'admin', 'operator'));--> statement-breakpoint
-- The operator log is append-only: what an operator did stays as it was written.
CREATE FUNCTION operator_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the operator log is append-only';
END $$;--> statement-breakpoint
CREATE TRIGGER operator_log_no_change BEFORE UPDATE OR DELETE ON operator_log
  FOR EACH ROW EXECUTE FUNCTION operator_log_append_only();
--> statement-breakpoint
-- A problem reported or decided changes whether the booking's session is Paid & agreed (decision
-- 056): its credential job is added in the same transaction, as migration 0022 does on release.
CREATE FUNCTION credential_queue_on_problem() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO jobs (queue, key)
  SELECT 'credentials.refresh-session', s.id::text FROM music_sessions s
  WHERE s.booking_id = NEW.booking_id
  ON CONFLICT (queue, key) WHERE failed_at IS NULL
  DO UPDATE SET revision = jobs.revision + 1;
  IF FOUND THEN
    PERFORM pg_notify('jobs', 'credentials.refresh-session');
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER problem_reports_credential
AFTER INSERT OR UPDATE OF decision ON problem_reports
FOR EACH ROW EXECUTE FUNCTION credential_queue_on_problem();
