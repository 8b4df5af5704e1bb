CREATE TABLE "agreements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"offer_id" uuid NOT NULL,
	"status" text DEFAULT 'in_force' NOT NULL,
	"json" text NOT NULL,
	"sha256" text NOT NULL,
	"frozen_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "agreements_offerId_unique" UNIQUE("offer_id"),
	CONSTRAINT "agreements_sha256_unique" UNIQUE("sha256"),
	CONSTRAINT "agreements_status_check" CHECK (status IN ('in_force', 'superseded', 'cancelled')),
	CONSTRAINT "agreements_sha256_check" CHECK ("agreements"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "offer_acceptances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"offer_id" uuid NOT NULL,
	"party" text NOT NULL,
	"user_id" uuid,
	"accepted_at" timestamp with time zone NOT NULL,
	"sha256_shown" text NOT NULL,
	"ip" text,
	"user_agent" text,
	CONSTRAINT "offer_acceptances_party_check" CHECK (party IN ('artist', 'client'))
);
--> statement-breakpoint
CREATE TABLE "offer_change_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"offer_id" uuid NOT NULL,
	"requested_by" uuid,
	"message" text NOT NULL,
	"wished_total_paise" bigint,
	"wished_deposit_bps" integer,
	"wished_policy" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "offer_change_requests_message_check" CHECK (char_length("offer_change_requests"."message") BETWEEN 1 AND 2000)
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"total_paise" bigint NOT NULL,
	"expires_at" timestamp with time zone,
	"canonical" text NOT NULL,
	"sha256" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	CONSTRAINT "offers_version_check" CHECK ("offers"."version" >= 1),
	CONSTRAINT "offers_kind_check" CHECK (kind IN ('request', 'quote')),
	CONSTRAINT "offers_status_check" CHECK (status IN ('open', 'superseded', 'declined', 'withdrawn', 'accepted')),
	CONSTRAINT "offers_total_check" CHECK ("offers"."total_paise" >= 0 AND "offers"."total_paise" <= 2500000000),
	CONSTRAINT "offers_sha256_check" CHECK ("offers"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD COLUMN "deposit_bps" integer DEFAULT 3000 NOT NULL;--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD COLUMN "balance_due_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD COLUMN "cancellation_policy" text DEFAULT 'moderate' NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "cancel_outcome" jsonb;--> statement-breakpoint
ALTER TABLE "agreements" ADD CONSTRAINT "agreements_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agreements" ADD CONSTRAINT "agreements_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_acceptances" ADD CONSTRAINT "offer_acceptances_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_acceptances" ADD CONSTRAINT "offer_acceptances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_change_requests" ADD CONSTRAINT "offer_change_requests_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offer_change_requests" ADD CONSTRAINT "offer_change_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agreements_one_in_force_idx" ON "agreements" USING btree ("booking_id") WHERE "agreements"."status" = 'in_force';--> statement-breakpoint
CREATE UNIQUE INDEX "offer_acceptances_offer_id_party_index" ON "offer_acceptances" USING btree ("offer_id","party");--> statement-breakpoint
CREATE INDEX "offer_change_requests_offer_id_index" ON "offer_change_requests" USING btree ("offer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "offers_booking_id_version_index" ON "offers" USING btree ("booking_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "offers_one_open_idx" ON "offers" USING btree ("booking_id") WHERE "offers"."status" = 'open';--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD CONSTRAINT "artist_profiles_deposit_check" CHECK ("artist_profiles"."deposit_bps" = 0 OR ("artist_profiles"."deposit_bps" BETWEEN 1000 AND 10000 AND "artist_profiles"."deposit_bps" % 500 = 0));--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD CONSTRAINT "artist_profiles_balance_due_check" CHECK ("artist_profiles"."balance_due_days" IN (0, 3, 7, 14, 28));--> statement-breakpoint
ALTER TABLE "artist_profiles" ADD CONSTRAINT "artist_profiles_policy_check" CHECK (cancellation_policy IN ('flexible', 'moderate', 'strict'));--> statement-breakpoint
-- What was offered and what was agreed is never rewritten (docs/decisions/047): an offer's and an
-- agreement's bytes and hash cannot change, and acceptances are never updated.
CREATE FUNCTION offers_never_rewritten() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.canonical, NEW.sha256, NEW.booking_id, NEW.version) IS DISTINCT FROM (OLD.canonical, OLD.sha256, OLD.booking_id, OLD.version) THEN
    RAISE EXCEPTION 'an offer''s terms cannot change' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE FUNCTION agreements_never_rewritten() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.json, NEW.sha256, NEW.offer_id, NEW.booking_id) IS DISTINCT FROM (OLD.json, OLD.sha256, OLD.offer_id, OLD.booking_id) THEN
    RAISE EXCEPTION 'an agreement cannot change' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE FUNCTION offer_acceptances_never_rewritten() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.offer_id, NEW.party, NEW.accepted_at, NEW.sha256_shown) IS DISTINCT FROM (OLD.offer_id, OLD.party, OLD.accepted_at, OLD.sha256_shown) THEN
    RAISE EXCEPTION 'an acceptance cannot change' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER offers_never_rewritten BEFORE UPDATE ON offers
  FOR EACH ROW EXECUTE FUNCTION offers_never_rewritten();
--> statement-breakpoint
CREATE TRIGGER agreements_never_rewritten BEFORE UPDATE ON agreements
  FOR EACH ROW EXECUTE FUNCTION agreements_never_rewritten();
--> statement-breakpoint
CREATE TRIGGER offer_acceptances_never_rewritten BEFORE UPDATE ON offer_acceptances
  FOR EACH ROW EXECUTE FUNCTION offer_acceptances_never_rewritten();
--> statement-breakpoint
-- A change both parties agreed can move a confirmed booking to another date: the old date's booked
-- mark is freed by the same rule as a cancellation's (migration 0011).
CREATE TRIGGER bookings_free_moved_mark
AFTER UPDATE OF event_date ON bookings
FOR EACH ROW
WHEN (OLD.artist_profile_id IS NOT NULL
  AND OLD.status IN ('confirmed', 'completed') AND NEW.event_date <> OLD.event_date)
EXECUTE FUNCTION bookings_free_booked_mark();
