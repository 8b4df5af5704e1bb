ALTER TABLE "bookings" ADD COLUMN "responded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
CREATE INDEX "bookings_artist_confirmed_idx" ON "bookings" USING btree ("artist_profile_id","confirmed_at") WHERE "bookings"."confirmed_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_cancelled_by_check" CHECK (cancelled_by IN ('client', 'artist'));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_cancel_reason_check" CHECK ("bookings"."cancel_reason" IS NULL OR char_length("bookings"."cancel_reason") <= 500);--> statement-breakpoint
-- hand-written: bookings answered before this change were last updated by that answer.
UPDATE "bookings" SET "responded_at" = "updated_at" WHERE "status" IN ('confirmed', 'rejected');--> statement-breakpoint
-- hand-written: a completed booking was confirmed by its date at the latest.
UPDATE "bookings" SET "confirmed_at" = CASE WHEN "status" = 'confirmed' THEN "updated_at" ELSE "event_date"::timestamptz END WHERE "status" IN ('confirmed', 'completed');
