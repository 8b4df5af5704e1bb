CREATE TABLE "psp_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"amount" bigint NOT NULL,
	"amount_paid" bigint DEFAULT 0 NOT NULL,
	"currency" text NOT NULL,
	"receipt" text,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"notes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "psp_orders_amount_check" CHECK ("psp_orders"."amount" > 0),
	CONSTRAINT "psp_orders_status_check" CHECK ("psp_orders"."status" IN ('created', 'attempted', 'paid'))
);
--> statement-breakpoint
CREATE TABLE "psp_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"amount_refunded" bigint DEFAULT 0 NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"error_code" text,
	"error_description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "psp_payments_status_check" CHECK ("psp_payments"."status" IN ('captured', 'refunded', 'failed')),
	CONSTRAINT "psp_payments_refunded_check" CHECK ("psp_payments"."amount_refunded" >= 0 AND "psp_payments"."amount_refunded" <= "psp_payments"."amount")
);
--> statement-breakpoint
CREATE TABLE "psp_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"payment_id" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" text NOT NULL,
	"idempotency_key" text,
	"request_digest" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "psp_refunds_amount_check" CHECK ("psp_refunds"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "psp_webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"event" text NOT NULL,
	"target_url" text NOT NULL,
	"body" text NOT NULL,
	"signature" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "psp_payments" ADD CONSTRAINT "psp_payments_order_id_psp_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."psp_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "psp_refunds" ADD CONSTRAINT "psp_refunds_payment_id_psp_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."psp_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "psp_orders_receipt_idx" ON "psp_orders" USING btree ("receipt");--> statement-breakpoint
CREATE INDEX "psp_payments_order_id_index" ON "psp_payments" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "psp_refunds_payment_id_index" ON "psp_refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "psp_refunds_idempotency_key_idx" ON "psp_refunds" USING btree ("idempotency_key");