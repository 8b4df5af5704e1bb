ALTER TABLE "booking_messages" DROP CONSTRAINT "booking_messages_sender_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "booking_messages" ALTER COLUMN "sender_user_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "booking_messages" ADD CONSTRAINT "booking_messages_sender_user_id_users_id_fk" FOREIGN KEY ("sender_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;