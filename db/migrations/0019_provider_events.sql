CREATE TABLE "provider_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"raw_body" text NOT NULL,
	"signature_ok" boolean NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"processed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	CONSTRAINT "provider_events_provider_check" CHECK (provider IN ('razorpay')),
	CONSTRAINT "provider_events_attempts_check" CHECK ("provider_events"."attempts" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "provider_events_provider_event_id_idx" ON "provider_events" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "provider_events_unprocessed_idx" ON "provider_events" USING btree ("processed_at") WHERE "provider_events"."processed_at" IS NULL;