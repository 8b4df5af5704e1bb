ALTER TABLE "bookings" ADD COLUMN "request_group_id" uuid;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "withdrawn_for_id" uuid;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_withdrawn_for_id_bookings_id_fk" FOREIGN KEY ("withdrawn_for_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bookings_request_group_idx" ON "bookings" USING btree ("request_group_id") WHERE "bookings"."request_group_id" IS NOT NULL;