CREATE TABLE "commission_invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"financial_year" text NOT NULL,
	"number" integer NOT NULL,
	"booking_id" uuid NOT NULL,
	"artist_profile_id" uuid,
	"commission_paise" bigint NOT NULL,
	"gst_paise" bigint NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	CONSTRAINT "commission_invoices_bookingId_unique" UNIQUE("booking_id"),
	CONSTRAINT "commission_invoices_fy_check" CHECK ("commission_invoices"."financial_year" ~ '^[0-9]{4}-[0-9]{2}$'),
	CONSTRAINT "commission_invoices_number_check" CHECK ("commission_invoices"."number" > 0)
);
--> statement-breakpoint
CREATE TABLE "invoice_counters" (
	"financial_year" text PRIMARY KEY NOT NULL,
	"last_number" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "money_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"amount_paise" bigint,
	"at" timestamp with time zone NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "money_events_key_unique" UNIQUE("key"),
	CONSTRAINT "money_events_kind_check" CHECK (kind IN ('deposit_requested', 'balance_requested', 'payment_received', 'payment_failed', 'payout_held', 'payout_released', 'refund_started', 'refund_paid', 'automatic_refund', 'balance_reminder', 'more_time_given', 'cancelled_for_non_payment'))
);
--> statement-breakpoint
CREATE TABLE "payment_intents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"agreement_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"amount_paise" bigint NOT NULL,
	"artist_share_paise" bigint NOT NULL,
	"commission_paise" bigint NOT NULL,
	"gst_paise" bigint NOT NULL,
	"tds_paise" bigint NOT NULL,
	"provider" text NOT NULL,
	"provider_link_id" text,
	"checkout_url" text,
	"provider_payment_id" text,
	"status" text DEFAULT 'created' NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"captured_at" timestamp with time zone,
	"refunded_paise" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_intents_providerLinkId_unique" UNIQUE("provider_link_id"),
	CONSTRAINT "payment_intents_providerPaymentId_unique" UNIQUE("provider_payment_id"),
	CONSTRAINT "payment_intents_purpose_check" CHECK (purpose IN ('deposit', 'balance', 'full')),
	CONSTRAINT "payment_intents_status_check" CHECK (status IN ('created', 'pending', 'captured', 'failed', 'expired', 'cancelled')),
	CONSTRAINT "payment_intents_provider_check" CHECK (provider IN ('razorpay')),
	CONSTRAINT "payment_intents_split_check" CHECK ("payment_intents"."amount_paise" > 0 AND "payment_intents"."artist_share_paise" >= 0 AND "payment_intents"."commission_paise" >= 0 AND "payment_intents"."gst_paise" >= 0 AND "payment_intents"."tds_paise" >= 0 AND "payment_intents"."artist_share_paise" + "payment_intents"."commission_paise" + "payment_intents"."gst_paise" + "payment_intents"."tds_paise" = "payment_intents"."amount_paise"),
	CONSTRAINT "payment_intents_refunded_check" CHECK ("payment_intents"."refunded_paise" >= 0 AND "payment_intents"."refunded_paise" <= "payment_intents"."amount_paise")
);
--> statement-breakpoint
CREATE TABLE "payout_accounts" (
	"artist_profile_id" uuid PRIMARY KEY NOT NULL,
	"legal_name" text NOT NULL,
	"pan_masked" text NOT NULL,
	"method" text NOT NULL,
	"destination" text NOT NULL,
	"provider" text NOT NULL,
	"provider_account_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_accounts_providerAccountId_unique" UNIQUE("provider_account_id"),
	CONSTRAINT "payout_accounts_method_check" CHECK (method IN ('upi', 'bank')),
	CONSTRAINT "payout_accounts_provider_check" CHECK (provider IN ('razorpay')),
	CONSTRAINT "payout_accounts_legal_name_check" CHECK (char_length("payout_accounts"."legal_name") BETWEEN 2 AND 120)
);
--> statement-breakpoint
CREATE TABLE "provider_commands" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"booking_id" uuid NOT NULL,
	"intent_id" uuid,
	"idempotency_key" text NOT NULL,
	"request" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"response" jsonb,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	CONSTRAINT "provider_commands_idempotencyKey_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "provider_commands_kind_check" CHECK (kind IN ('create_transfer', 'release_transfer', 'reverse_transfer', 'refund')),
	CONSTRAINT "provider_commands_status_check" CHECK (status IN ('pending', 'succeeded', 'needs_attention'))
);
--> statement-breakpoint
CREATE TABLE "provider_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"intent_id" uuid NOT NULL,
	"booking_id" uuid NOT NULL,
	"amount_paise" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_refunds_amount_check" CHECK ("provider_refunds"."amount_paise" > 0)
);
--> statement-breakpoint
CREATE TABLE "provider_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"intent_id" uuid NOT NULL,
	"booking_id" uuid NOT NULL,
	"amount_paise" bigint NOT NULL,
	"reversed_paise" bigint DEFAULT 0 NOT NULL,
	"on_hold" boolean DEFAULT true NOT NULL,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_transfers_intentId_unique" UNIQUE("intent_id"),
	CONSTRAINT "provider_transfers_amount_check" CHECK ("provider_transfers"."amount_paise" > 0 AND "provider_transfers"."reversed_paise" >= 0 AND "provider_transfers"."reversed_paise" <= "provider_transfers"."amount_paise")
);
--> statement-breakpoint
CREATE TABLE "psp_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text,
	"reference_id" text,
	"email" text NOT NULL,
	"legal_name" text NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "psp_accounts_idempotencyKey_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "psp_payment_links" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"reference_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"description" text NOT NULL,
	"expire_by" timestamp with time zone,
	"callback_url" text,
	"customer" jsonb NOT NULL,
	"notes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "psp_payment_links_referenceId_unique" UNIQUE("reference_id"),
	CONSTRAINT "psp_payment_links_amount_check" CHECK ("psp_payment_links"."amount" > 0),
	CONSTRAINT "psp_payment_links_status_check" CHECK ("psp_payment_links"."status" IN ('created', 'partially_paid', 'paid', 'cancelled', 'expired'))
);
--> statement-breakpoint
CREATE TABLE "psp_reversals" (
	"id" text PRIMARY KEY NOT NULL,
	"transfer_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"notes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "psp_reversals_amount_check" CHECK ("psp_reversals"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "psp_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"account_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"amount_reversed" bigint DEFAULT 0 NOT NULL,
	"on_hold" boolean NOT NULL,
	"settled" boolean DEFAULT false NOT NULL,
	"notes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "psp_transfers_amount_check" CHECK ("psp_transfers"."amount" > 0 AND "psp_transfers"."amount_reversed" >= 0 AND "psp_transfers"."amount_reversed" <= "psp_transfers"."amount")
);
--> statement-breakpoint
ALTER TABLE "bookings" DROP CONSTRAINT "bookings_status_check";--> statement-breakpoint
ALTER TABLE "agreements" ADD COLUMN "paid_through" text DEFAULT 'direct' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "release_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "payout_released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "provider_events" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "commission_invoices" ADD CONSTRAINT "commission_invoices_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "money_events" ADD CONSTRAINT "money_events_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_agreement_id_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."agreements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_accounts" ADD CONSTRAINT "payout_accounts_artist_profile_id_artist_profiles_id_fk" FOREIGN KEY ("artist_profile_id") REFERENCES "public"."artist_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_commands" ADD CONSTRAINT "provider_commands_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_commands" ADD CONSTRAINT "provider_commands_intent_id_payment_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "public"."payment_intents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_refunds" ADD CONSTRAINT "provider_refunds_intent_id_payment_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "public"."payment_intents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_refunds" ADD CONSTRAINT "provider_refunds_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_transfers" ADD CONSTRAINT "provider_transfers_intent_id_payment_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "public"."payment_intents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_transfers" ADD CONSTRAINT "provider_transfers_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psp_payment_links" ADD CONSTRAINT "psp_payment_links_order_id_psp_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."psp_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psp_reversals" ADD CONSTRAINT "psp_reversals_transfer_id_psp_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."psp_transfers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psp_transfers" ADD CONSTRAINT "psp_transfers_payment_id_psp_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."psp_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psp_transfers" ADD CONSTRAINT "psp_transfers_account_id_psp_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."psp_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "commission_invoices_number_idx" ON "commission_invoices" USING btree ("financial_year","number");--> statement-breakpoint
CREATE INDEX "money_events_booking_id_at_index" ON "money_events" USING btree ("booking_id","at");--> statement-breakpoint
CREATE INDEX "payment_intents_booking_id_index" ON "payment_intents" USING btree ("booking_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_intents_one_live_idx" ON "payment_intents" USING btree ("booking_id","purpose") WHERE "payment_intents"."status" IN ('created', 'pending');--> statement-breakpoint
CREATE UNIQUE INDEX "payment_intents_one_captured_idx" ON "payment_intents" USING btree ("booking_id","purpose") WHERE "payment_intents"."status" = 'captured';--> statement-breakpoint
CREATE INDEX "provider_commands_booking_id_index" ON "provider_commands" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "provider_commands_open_idx" ON "provider_commands" USING btree ("created_at") WHERE "provider_commands"."status" <> 'succeeded';--> statement-breakpoint
CREATE INDEX "provider_refunds_booking_id_index" ON "provider_refunds" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "provider_transfers_booking_id_index" ON "provider_transfers" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "psp_reversals_transfer_id_index" ON "psp_reversals" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "psp_transfers_payment_id_index" ON "psp_transfers" USING btree ("payment_id");--> statement-breakpoint
ALTER TABLE "agreements" ADD CONSTRAINT "agreements_paid_through_check" CHECK (paid_through IN ('direct', 'gigledger'));--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_status_check" CHECK (status IN ('pending', 'awaiting_deposit', 'confirmed', 'rejected', 'completed', 'cancelled'));--> statement-breakpoint
ALTER TABLE "provider_events" ADD CONSTRAINT "provider_events_outcome_check" CHECK (outcome IN ('applied', 'ignored', 'orphan', 'mismatch', 'refunded'));