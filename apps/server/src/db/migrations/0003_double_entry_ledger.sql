CREATE TABLE "journal_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "journal_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"type" text NOT NULL,
	"merchant_id" bigint,
	"ref_type" text NOT NULL,
	"ref_id" text NOT NULL,
	"ref_no" text,
	"note" text,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journal_entries_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "journal_entries_type_valid" CHECK ("journal_entries"."type" in ('collection_settlement', 'payout_deduction', 'payout_refund', 'recharge', 'withdrawal', 'withdrawal_rejected', 'transfer_in', 'transfer_out', 'funds_frozen', 'funds_unfrozen', 'payout_paid', 'withdrawal_paid'))
);--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"merchant_id" bigint,
	"channel_code" text,
	"currency" text NOT NULL,
	"balance_minor" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_code_unique" UNIQUE("code"),
	CONSTRAINT "ledger_accounts_kind_valid" CHECK ("ledger_accounts"."kind" in ('merchant_available', 'merchant_locked', 'channel_clearing', 'fee_revenue', 'usdt_deposits', 'withdrawals_payable', 'operator_adjustments')),
	CONSTRAINT "ledger_accounts_currency_valid" CHECK ("ledger_accounts"."currency" in ('CNY', 'INR', 'BRL', 'VND', 'USD', 'USDT')),
	CONSTRAINT "ledger_accounts_merchant_nonneg" CHECK ("ledger_accounts"."kind" not in ('merchant_available', 'merchant_locked') or "ledger_accounts"."balance_minor" >= 0),
	CONSTRAINT "ledger_accounts_owner" CHECK (("ledger_accounts"."kind" in ('merchant_available', 'merchant_locked')) = ("ledger_accounts"."merchant_id" is not null)
          and ("ledger_accounts"."kind" = 'channel_clearing') = ("ledger_accounts"."channel_code" is not null))
);--> statement-breakpoint
CREATE TABLE "postings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "postings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"entry_id" bigint NOT NULL,
	"account_id" bigint NOT NULL,
	"amount_minor" bigint NOT NULL,
	CONSTRAINT "postings_amount_nonzero" CHECK ("postings"."amount_minor" <> 0)
);--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "journal_entries_merchant_idx" ON "journal_entries" USING btree ("merchant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_accounts_merchant_kind_idx" ON "ledger_accounts" USING btree ("merchant_id","kind");--> statement-breakpoint
CREATE INDEX "postings_entry_idx" ON "postings" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "postings_account_idx" ON "postings" USING btree ("account_id");--> statement-breakpoint
-- Data: the single-entry ledger (balances, holds, fund flows) becomes double-entry without changing any
-- merchant's balance or history. Each fund flow becomes the journal entry it showed (same id, key, time and
-- reference), with its posting on the merchant's available account and the counterpart DESIGN section 3
-- names: the merchant's locked account for a hold or its release; operator adjustments for transfers;
-- USDT deposits for top-ups; a clearing account of the channel "legacy" for settlements and refunds
-- received (the old rows did not record their channel). Each captured hold gets the entry the old ledger
-- never wrote: locked -> channel clearing (payout), withdrawals payable (withdrawal) or operator
-- adjustments (a freeze captured, recorded as transfer_out).
ALTER TABLE "fund_flows" ADD COLUMN "entry_id" bigint;--> statement-breakpoint
INSERT INTO "ledger_accounts" ("code", "kind", "merchant_id", "currency", "balance_minor")
SELECT 'merchant:' || m.id || ':available', 'merchant_available', m.id, m.currency, coalesce(b.available_minor, 0)
FROM "merchants" m LEFT JOIN "balances" b ON b.merchant_id = m.id
UNION ALL
SELECT 'merchant:' || m.id || ':locked', 'merchant_locked', m.id, m.currency, coalesce(b.locked_minor, 0)
FROM "merchants" m LEFT JOIN "balances" b ON b.merchant_id = m.id;--> statement-breakpoint
INSERT INTO "journal_entries" ("id", "type", "merchant_id", "ref_type", "ref_id", "ref_no", "note", "idempotency_key", "created_at")
OVERRIDING SYSTEM VALUE
SELECT f.id, f.type, f.merchant_id, f.ref_type, f.ref_id, f.ref_no, f.note, f.idempotency_key, f.created_at
FROM "fund_flows" f;--> statement-breakpoint
UPDATE "fund_flows" SET "entry_id" = "id";--> statement-breakpoint
CREATE TEMPORARY TABLE "migration_captures" ON COMMIT DROP AS
SELECT (SELECT coalesce(max(id), 0) FROM "journal_entries") + row_number() OVER (ORDER BY h.id) AS entry_id, h.*
FROM "holds" h WHERE h.status = 'captured';--> statement-breakpoint
INSERT INTO "journal_entries" ("id", "type", "merchant_id", "ref_type", "ref_id", "ref_no", "note", "idempotency_key", "created_at")
OVERRIDING SYSTEM VALUE
SELECT c.entry_id,
       CASE c.type WHEN 'payout_deduction' THEN 'payout_paid' WHEN 'withdrawal' THEN 'withdrawal_paid' ELSE 'transfer_out' END,
       c.merchant_id, c.ref_type, c.ref_id, c.ref_no, c.note,
       CASE WHEN EXISTS (SELECT 1 FROM "journal_entries" j WHERE j.idempotency_key = c.close_key)
            THEN c.close_key || ':capture' ELSE c.close_key END,
       coalesce(c.closed_at, c.created_at)
FROM "migration_captures" c;--> statement-breakpoint
CREATE TEMPORARY TABLE "migration_legs" ON COMMIT DROP AS
WITH legs AS (
  SELECT f.id AS entry_id, f.merchant_id, 'merchant_available' AS kind, NULL::text AS channel_code, f.amount_minor
  FROM "fund_flows" f
  UNION ALL
  SELECT f.id, f.merchant_id,
         CASE WHEN f.hold_id IS NOT NULL THEN 'merchant_locked'
              WHEN f.type IN ('collection_settlement', 'payout_refund') THEN 'channel_clearing'
              WHEN f.type = 'recharge' THEN 'usdt_deposits'
              ELSE 'operator_adjustments' END,
         CASE WHEN f.hold_id IS NULL AND f.type IN ('collection_settlement', 'payout_refund') THEN 'legacy' END,
         -f.amount_minor
  FROM "fund_flows" f
  UNION ALL
  SELECT c.entry_id, c.merchant_id, 'merchant_locked', NULL, -c.amount_minor FROM "migration_captures" c
  UNION ALL
  SELECT c.entry_id, c.merchant_id,
         CASE c.type WHEN 'payout_deduction' THEN 'channel_clearing' WHEN 'withdrawal' THEN 'withdrawals_payable'
                     ELSE 'operator_adjustments' END,
         CASE c.type WHEN 'payout_deduction' THEN 'legacy' END,
         c.amount_minor
  FROM "migration_captures" c
)
SELECT l.*, m.currency,
       CASE WHEN l.kind = 'merchant_available' THEN 'merchant:' || l.merchant_id || ':available'
            WHEN l.kind = 'merchant_locked' THEN 'merchant:' || l.merchant_id || ':locked'
            WHEN l.kind = 'channel_clearing' THEN 'channel_clearing:' || l.channel_code || ':' || m.currency
            ELSE l.kind || ':' || m.currency END AS code
FROM legs l JOIN "merchants" m ON m.id = l.merchant_id;--> statement-breakpoint
INSERT INTO "ledger_accounts" ("code", "kind", "channel_code", "currency")
SELECT DISTINCT code, kind, channel_code, currency FROM "migration_legs"
WHERE kind NOT IN ('merchant_available', 'merchant_locked')
ON CONFLICT ("code") DO NOTHING;--> statement-breakpoint
INSERT INTO "postings" ("entry_id", "account_id", "amount_minor")
SELECT l.entry_id, a.id, l.amount_minor FROM "migration_legs" l JOIN "ledger_accounts" a ON a.code = l.code
ORDER BY l.entry_id, a.id;--> statement-breakpoint
UPDATE "ledger_accounts" a SET "balance_minor" = s.total
FROM (SELECT account_id, sum(amount_minor) AS total FROM "postings" GROUP BY account_id) s
WHERE s.account_id = a.id AND a.kind NOT IN ('merchant_available', 'merchant_locked');--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('journal_entries', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM "journal_entries"), false);--> statement-breakpoint
ALTER TABLE "fund_flows" ALTER COLUMN "entry_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "fund_flows" ADD CONSTRAINT "fund_flows_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fund_flows" ADD CONSTRAINT "fund_flows_entry_id_unique" UNIQUE("entry_id");--> statement-breakpoint
ALTER TABLE "fund_flows" DROP CONSTRAINT "fund_flows_idempotency_key_unique";--> statement-breakpoint
ALTER TABLE "fund_flows" DROP COLUMN "idempotency_key";--> statement-breakpoint
ALTER TABLE "balances" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "balances" CASCADE;--> statement-breakpoint
CREATE INDEX "sessions_pending_user_idx" ON "sessions" USING btree ("pending_user_id") WHERE "sessions"."pending_user_id" is not null;--> statement-breakpoint
CREATE INDEX "fund_flows_hold_idx" ON "fund_flows" USING btree ("hold_id") WHERE "fund_flows"."hold_id" is not null;--> statement-breakpoint
CREATE INDEX "holds_merchant_idx" ON "holds" USING btree ("merchant_id","created_at");--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_currency_valid" CHECK ("merchants"."currency" in ('CNY', 'INR', 'BRL', 'VND', 'USD', 'USDT'));--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_status_valid" CHECK ("merchants"."status" in ('active', 'disabled'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_roles_valid" CHECK (cardinality("users"."roles") > 0 and "users"."roles" <@ array['ROOT', 'FINANCE', 'OPERATOR', 'VIEWER']::text[]);--> statement-breakpoint
ALTER TABLE "security_events" ADD CONSTRAINT "security_events_type_valid" CHECK ("security_events"."type" in ('login', 'login_failed', 'logout', 'two_factor_challenge_failed', 'two_factor_enabled', 'two_factor_disabled', 'recovery_codes_viewed', 'recovery_codes_regenerated', 'recovery_code_used', 'password_changed', 'payment_password_set', 'payment_password_changed', 'payment_password_failed', 'payment_password_locked', 'profile_updated', 'other_sessions_ended'));--> statement-breakpoint
-- Every journal entry balances: checked when its transaction commits, after all its postings are written.
CREATE FUNCTION "journal_entry_balanced"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT count(*) FROM "postings" WHERE "entry_id" = NEW.id) < 2 OR EXISTS (
    SELECT 1 FROM "postings" p JOIN "ledger_accounts" a ON a.id = p.account_id
    WHERE p.entry_id = NEW.id GROUP BY a.currency HAVING sum(p.amount_minor) <> 0
  ) THEN
    RAISE EXCEPTION 'journal entry % does not balance', NEW.idempotency_key USING ERRCODE = '23514';
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "journal_entries_balanced" AFTER INSERT ON "journal_entries"
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "journal_entry_balanced"();
