CREATE TABLE "ledger_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"booking_id" uuid,
	"artist_profile_id" uuid,
	"allow_negative" boolean DEFAULT false NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "ledger_accounts_kind_check" CHECK (kind IN ('world', 'liability', 'income', 'expense', 'suspense')),
	CONSTRAINT "ledger_accounts_nonneg" CHECK ("ledger_accounts"."allow_negative" OR "ledger_accounts"."balance" >= 0),
	CONSTRAINT "ledger_accounts_id_check" CHECK ("ledger_accounts"."id" ~ '^(world|platform|booking|artist):[^:]+(:[a-z_]+)?$')
);
--> statement-breakpoint
CREATE TABLE "ledger_legs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_legs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"txn_id" uuid NOT NULL,
	"from_account" text NOT NULL,
	"to_account" text NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "ledger_legs_amount_check" CHECK ("ledger_legs"."amount" > 0),
	CONSTRAINT "ledger_legs_accounts_check" CHECK ("ledger_legs"."from_account" <> "ledger_legs"."to_account")
);
--> statement-breakpoint
CREATE TABLE "ledger_txns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "ledger_txns_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"idempotency_key" text NOT NULL,
	"kind" text NOT NULL,
	"booking_id" uuid,
	"effective_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"legs_digest" text NOT NULL,
	"reverses" uuid,
	CONSTRAINT "ledger_txns_seq_unique" UNIQUE("seq"),
	CONSTRAINT "ledger_txns_idempotencyKey_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "ledger_txns_kind_check" CHECK (kind IN ('capture', 'split', 'transfer', 'fee', 'release', 'refund_init', 'reversal', 'refund', 'settle', 'chargeback', 'adjustment')),
	CONSTRAINT "ledger_txns_source_check" CHECK ("ledger_txns"."source" ~ '^(event|command|job|admin):.+$'),
	CONSTRAINT "ledger_txns_digest_check" CHECK ("ledger_txns"."legs_digest" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "ledger_legs" ADD CONSTRAINT "ledger_legs_txn_id_ledger_txns_id_fk" FOREIGN KEY ("txn_id") REFERENCES "public"."ledger_txns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_legs" ADD CONSTRAINT "ledger_legs_from_account_ledger_accounts_id_fk" FOREIGN KEY ("from_account") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_legs" ADD CONSTRAINT "ledger_legs_to_account_ledger_accounts_id_fk" FOREIGN KEY ("to_account") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_txns" ADD CONSTRAINT "ledger_txns_reverses_ledger_txns_id_fk" FOREIGN KEY ("reverses") REFERENCES "public"."ledger_txns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_accounts_booking_id_index" ON "ledger_accounts" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "ledger_legs_txn_id_index" ON "ledger_legs" USING btree ("txn_id");--> statement-breakpoint
CREATE INDEX "ledger_legs_from_account_index" ON "ledger_legs" USING btree ("from_account");--> statement-breakpoint
CREATE INDEX "ledger_legs_to_account_index" ON "ledger_legs" USING btree ("to_account");--> statement-breakpoint
CREATE INDEX "ledger_txns_booking_id_index" ON "ledger_txns" USING btree ("booking_id");--> statement-breakpoint
-- The ledger's rules are the database's (docs/decisions/050, design money-and-terms §4.3–4.5).
-- ledger_post() is the only writer: it marks its own transaction while it writes, and the ledger's
-- rows refuse any write made without the mark.
CREATE FUNCTION ledger_writing() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('ledger.writer', true), '') = 'ledger_post'
$$;
--> statement-breakpoint
CREATE FUNCTION ledger_written_by_post() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT ledger_writing() THEN
    RAISE EXCEPTION 'ledger rows are written only by ledger_post() (%)', TG_TABLE_NAME;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- L2: transactions and legs never change or disappear; a correction is a new transaction.
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger rows are append-only (%)', TG_TABLE_NAME;
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_txns_written_by_post BEFORE INSERT ON ledger_txns
  FOR EACH ROW EXECUTE FUNCTION ledger_written_by_post();
--> statement-breakpoint
CREATE TRIGGER ledger_legs_written_by_post BEFORE INSERT ON ledger_legs
  FOR EACH ROW EXECUTE FUNCTION ledger_written_by_post();
--> statement-breakpoint
CREATE TRIGGER ledger_txns_no_change BEFORE UPDATE OR DELETE ON ledger_txns
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_legs_no_change BEFORE UPDATE OR DELETE ON ledger_legs
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_txns_no_truncate BEFORE TRUNCATE ON ledger_txns
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_legs_no_truncate BEFORE TRUNCATE ON ledger_legs
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
-- An account opens at 0, keeps what it is, is never removed, and its balance moves only with legs.
CREATE FUNCTION ledger_accounts_open_at_zero() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.balance <> 0 OR NEW.version <> 0 THEN
    RAISE EXCEPTION 'ledger account % must open at 0', NEW.id;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE FUNCTION ledger_accounts_moved_by_legs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.id, NEW.kind, NEW.booking_id, NEW.artist_profile_id, NEW.allow_negative)
     IS DISTINCT FROM (OLD.id, OLD.kind, OLD.booking_id, OLD.artist_profile_id, OLD.allow_negative) THEN
    RAISE EXCEPTION 'ledger account % cannot change', OLD.id;
  END IF;
  IF (NEW.balance, NEW.version) IS DISTINCT FROM (OLD.balance, OLD.version) AND NOT ledger_writing() THEN
    RAISE EXCEPTION 'the balance of ledger account % moves only with legs posted by ledger_post()', OLD.id;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_accounts_open_at_zero BEFORE INSERT ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_accounts_open_at_zero();
--> statement-breakpoint
CREATE TRIGGER ledger_accounts_moved_by_legs BEFORE UPDATE ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_accounts_moved_by_legs();
--> statement-breakpoint
CREATE TRIGGER ledger_accounts_never_removed BEFORE DELETE ON ledger_accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_accounts_no_truncate BEFORE TRUNCATE ON ledger_accounts
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
-- L6: the legs of one statement move the balances in the same transaction, netted per account, so
-- the order of a transaction's legs never matters; ledger_accounts_nonneg (L3) then refuses an
-- overdraft and the whole posting rolls back.
CREATE FUNCTION ledger_legs_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ledger_accounts a
  SET balance = a.balance + m.net, version = a.version + 1
  FROM (
    SELECT account, sum(amount)::bigint AS net
    FROM (
      SELECT to_account AS account, amount FROM new_legs
      UNION ALL
      SELECT from_account, -amount FROM new_legs
    ) moves
    GROUP BY account
  ) m
  WHERE a.id = m.account;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ledger_legs_apply AFTER INSERT ON ledger_legs
  REFERENCING NEW TABLE AS new_legs
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_legs_apply();
--> statement-breakpoint
-- L4: no transaction without legs, checked at commit.
CREATE FUNCTION ledger_txns_have_legs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM ledger_legs WHERE txn_id = NEW.id) THEN
    RAISE EXCEPTION 'ledger transaction % has no legs', NEW.idempotency_key;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_txns_have_legs AFTER INSERT ON ledger_txns
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION ledger_txns_have_legs();
--> statement-breakpoint
-- The only writer. L5: one business fact posts once; the same key returns the first transaction,
-- the same key with other legs is an error. The accounts are locked in sorted id order (pgledger),
-- so two postings over the same accounts never deadlock, whatever order their legs are in.
CREATE FUNCTION ledger_post(
  p_key text, p_kind text, p_booking uuid, p_at timestamptz, p_source text, p_legs jsonb,
  p_reverses uuid DEFAULT NULL
) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  v_legs jsonb;
  v_digest text;
  v_id uuid;
  v_existing text;
  v_accounts text[];
  v_locked integer;
BEGIN
  -- The legs in one canonical form and order: the digest does not depend on how they were listed.
  SELECT coalesce(jsonb_agg(jsonb_build_object('from', l."from", 'to', l."to", 'amount', l.amount)
           ORDER BY l."from" COLLATE "C", l."to" COLLATE "C", l.amount), '[]'::jsonb)
  INTO v_legs
  FROM jsonb_to_recordset(p_legs) AS l("from" text, "to" text, amount bigint);
  v_digest := encode(sha256(convert_to(v_legs::text, 'UTF8')), 'hex');

  PERFORM set_config('ledger.writer', 'ledger_post', true);
  INSERT INTO ledger_txns (idempotency_key, kind, booking_id, effective_at, source, legs_digest, reverses)
  VALUES (p_key, p_kind, p_booking, p_at, p_source, v_digest, p_reverses)
  ON CONFLICT (idempotency_key) DO NOTHING
  RETURNING id INTO v_id;
  IF v_id IS NULL THEN
    PERFORM set_config('ledger.writer', '', true);
    SELECT id, legs_digest INTO v_id, v_existing FROM ledger_txns WHERE idempotency_key = p_key;
    IF v_existing <> v_digest THEN
      RAISE EXCEPTION 'idempotency key % reused with different legs', p_key;
    END IF;
    RETURN v_id;
  END IF;

  SELECT array_agg(DISTINCT account) INTO v_accounts
  FROM (
    SELECT e->>'from' AS account FROM jsonb_array_elements(v_legs) e
    UNION SELECT e->>'to' FROM jsonb_array_elements(v_legs) e
  ) s;
  SELECT count(*) INTO v_locked
  FROM (SELECT 1 FROM ledger_accounts WHERE id = ANY (v_accounts) ORDER BY id FOR UPDATE) locked;
  IF v_locked <> coalesce(cardinality(v_accounts), 0) THEN
    RAISE EXCEPTION 'ledger posting % names an account that does not exist', p_key;
  END IF;

  INSERT INTO ledger_legs (txn_id, from_account, to_account, amount)
  SELECT v_id, e->>'from', e->>'to', (e->>'amount')::bigint
  FROM jsonb_array_elements(v_legs) WITH ORDINALITY AS x(e, n)
  ORDER BY n;
  PERFORM set_config('ledger.writer', '', true);
  RETURN v_id;
END $$;
--> statement-breakpoint
-- The platform's accounts (§4.2); a booking's and an artist's are opened by ledger.server.ts.
INSERT INTO ledger_accounts (id, kind, allow_negative) VALUES
  ('world:razorpay', 'world', true),
  ('platform:commission', 'income', false),
  ('platform:gst_output', 'liability', false),
  ('platform:tds_payable', 'liability', false),
  ('platform:psp_fees', 'expense', true),
  ('platform:chargeback_loss', 'expense', true),
  ('platform:suspense', 'suspense', true);
