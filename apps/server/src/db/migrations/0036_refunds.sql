CREATE TABLE "refunds" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "refunds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"collection_id" bigint NOT NULL,
	"trade_no" text NOT NULL,
	"out_trade_no" text NOT NULL,
	"channel_id" bigint NOT NULL,
	"channel_code" text NOT NULL,
	"refund_no" text NOT NULL,
	"out_refund_no" text NOT NULL,
	"source" text NOT NULL,
	"created_by_user_id" bigint,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"reason" text,
	"failure_reason" text,
	"channel_ref" text,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_refund_no_unique" UNIQUE("refund_no"),
	CONSTRAINT "refunds_merchant_out_refund_no_key" UNIQUE("merchant_id","out_refund_no"),
	CONSTRAINT "refunds_status_valid" CHECK ("refunds"."status" in ('processing', 'succeeded', 'failed')),
	CONSTRAINT "refunds_source_valid" CHECK ("refunds"."source" in ('console', 'gateway')),
	CONSTRAINT "refunds_currency_valid" CHECK ("refunds"."currency" in ('CNY', 'INR', 'BRL', 'VND', 'USD', 'USDT')),
	CONSTRAINT "refunds_amount_valid" CHECK ("refunds"."amount_minor" > 0)
);
--> statement-breakpoint
ALTER TABLE "fund_flows" DROP CONSTRAINT "fund_flows_type_valid";--> statement-breakpoint
ALTER TABLE "holds" DROP CONSTRAINT "holds_type_valid";--> statement-breakpoint
ALTER TABLE "journal_entries" DROP CONSTRAINT "journal_entries_type_valid";--> statement-breakpoint
ALTER TABLE "callback_events" DROP CONSTRAINT "callback_events_type_valid";--> statement-breakpoint
ALTER TABLE "callback_events" DROP CONSTRAINT "callback_events_ref_type_valid";--> statement-breakpoint
ALTER TABLE "list_daily" DROP CONSTRAINT "list_daily_list_valid";--> statement-breakpoint
ALTER TABLE "list_hourly" DROP CONSTRAINT "list_hourly_list_valid";--> statement-breakpoint
ALTER TABLE "daily_reports" DROP CONSTRAINT "daily_reports_balanced";--> statement-breakpoint
ALTER TABLE "collections" ADD COLUMN "refunded_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "daily_reports" ADD COLUMN "collection_refunds_minor" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_merchant_created_idx" ON "refunds" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "refunds_merchant_status_created_idx" ON "refunds" USING btree ("merchant_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "refunds_collection_idx" ON "refunds" USING btree ("collection_id");--> statement-breakpoint
CREATE INDEX "refunds_channel_idx" ON "refunds" USING btree ("channel_id");--> statement-breakpoint
CREATE INDEX "refunds_user_idx" ON "refunds" USING btree ("created_by_user_id");--> statement-breakpoint
CREATE INDEX "refunds_processing_idx" ON "refunds" USING btree ("created_at") WHERE "refunds"."status" = 'processing';--> statement-breakpoint
ALTER TABLE "fund_flows" ADD CONSTRAINT "fund_flows_type_valid" CHECK ("fund_flows"."type" in ('collection_settlement', 'payout_deduction', 'payout_refund', 'recharge', 'withdrawal', 'withdrawal_rejected', 'transfer_in', 'transfer_out', 'funds_frozen', 'funds_unfrozen', 'refund', 'refund_reversal'));--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_type_valid" CHECK ("holds"."type" in ('payout_deduction', 'withdrawal', 'funds_frozen', 'refund'));--> statement-breakpoint
ALTER TABLE "journal_entries" ADD CONSTRAINT "journal_entries_type_valid" CHECK ("journal_entries"."type" in ('collection_settlement', 'payout_deduction', 'payout_refund', 'recharge', 'withdrawal', 'withdrawal_rejected', 'transfer_in', 'transfer_out', 'funds_frozen', 'funds_unfrozen', 'refund', 'refund_reversal', 'payout_paid', 'withdrawal_paid', 'refund_paid'));--> statement-breakpoint
ALTER TABLE "callback_events" ADD CONSTRAINT "callback_events_type_valid" CHECK ("callback_events"."type" in ('collection.paid', 'collection.closed', 'collection.failed', 'payout.succeeded', 'payout.failed', 'payout.refunded', 'refund.succeeded', 'refund.failed'));--> statement-breakpoint
ALTER TABLE "callback_events" ADD CONSTRAINT "callback_events_ref_type_valid" CHECK ("callback_events"."ref_type" in ('collection', 'payout', 'refund'));--> statement-breakpoint
ALTER TABLE "collections" ADD CONSTRAINT "collections_refunded_valid" CHECK ("collections"."refunded_minor" >= 0 and "collections"."refunded_minor" <= "collections"."amount_minor" and ("collections"."refunded_minor" = 0 or "collections"."status" = 'paid'));--> statement-breakpoint
ALTER TABLE "list_daily" ADD CONSTRAINT "list_daily_list_valid" CHECK ("list_daily"."list" in ('recharge', 'withdrawal', 'settlement', 'refund'));--> statement-breakpoint
ALTER TABLE "list_hourly" ADD CONSTRAINT "list_hourly_list_valid" CHECK ("list_hourly"."list" in ('recharge', 'withdrawal', 'settlement', 'refund'));--> statement-breakpoint
ALTER TABLE "daily_reports" ADD CONSTRAINT "daily_reports_balanced" CHECK ("daily_reports"."closing_minor" = "daily_reports"."opening_minor" + "daily_reports"."collection_net_minor" + "daily_reports"."payout_deducted_minor"
          + "daily_reports"."refunds_minor" + "daily_reports"."collection_refunds_minor" + "daily_reports"."top_ups_minor" + "daily_reports"."withdrawals_minor" + "daily_reports"."transfers_minor" + "daily_reports"."freezes_minor");--> statement-breakpoint
-- Hand-written: keeps list_hourly and list_daily in step with refunds (the Refunds list's sums, DESIGN 8),
-- as migration 0015 does for top-ups, withdrawals and settlements: status, channel as the facet, amount.
CREATE FUNCTION "refunds_list_hourly"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM list_hourly_add('refund', OLD.merchant_id, OLD.status, OLD.channel_code, OLD.created_at,
                            -1, -OLD.amount_minor, 0, 0);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM list_hourly_add('refund', NEW.merchant_id, NEW.status, NEW.channel_code, NEW.created_at,
                            1, NEW.amount_minor, 0, 0);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "refunds_list_hourly" AFTER INSERT OR DELETE ON "refunds"
  FOR EACH ROW EXECUTE FUNCTION refunds_list_hourly();
--> statement-breakpoint
CREATE TRIGGER "refunds_list_hourly_update"
  AFTER UPDATE OF merchant_id, status, channel_code, created_at, amount_minor ON "refunds"
  FOR EACH ROW WHEN (OLD.merchant_id IS DISTINCT FROM NEW.merchant_id OR OLD.status IS DISTINCT FROM NEW.status
    OR OLD.channel_code IS DISTINCT FROM NEW.channel_code OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.amount_minor IS DISTINCT FROM NEW.amount_minor)
  EXECUTE FUNCTION refunds_list_hourly();
