CREATE TABLE "callback_attempts" (
	"event_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"status_code" integer,
	"latency_ms" integer,
	"error" text,
	"response_excerpt" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "callback_attempts_event_id_attempt_pk" PRIMARY KEY("event_id","attempt")
);
--> statement-breakpoint
CREATE TABLE "callback_events" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" bigint NOT NULL,
	"type" text NOT NULL,
	"ref_type" text NOT NULL,
	"ref_id" bigint NOT NULL,
	"url" text NOT NULL,
	"payload" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "callback_events_type_valid" CHECK ("callback_events"."type" in ('collection.paid', 'collection.closed', 'collection.failed', 'payout.succeeded', 'payout.failed', 'payout.refunded')),
	CONSTRAINT "callback_events_status_valid" CHECK ("callback_events"."status" in ('pending', 'delivered', 'failed')),
	CONSTRAINT "callback_events_ref_type_valid" CHECK ("callback_events"."ref_type" in ('collection', 'payout'))
);
--> statement-breakpoint
CREATE TABLE "channels" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "channels_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"provider" text DEFAULT 'sandbox' NOT NULL,
	"country" text NOT NULL,
	"currency" text NOT NULL,
	"fee_rate_ppm" integer NOT NULL,
	"fixed_fee_minor" bigint DEFAULT 0 NOT NULL,
	"min_amount_minor" bigint NOT NULL,
	"max_amount_minor" bigint NOT NULL,
	"settlement_cycle" text,
	"expiry_minutes" integer DEFAULT 30 NOT NULL,
	"sandbox_mode" text DEFAULT 'manual' NOT NULL,
	"sandbox_success_ppm" integer DEFAULT 900000 NOT NULL,
	"sandbox_delay_seconds" integer DEFAULT 5 NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"opened_by" text NOT NULL,
	"closed_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channels_merchant_kind_code_key" UNIQUE("merchant_id","kind","code"),
	CONSTRAINT "channels_kind_valid" CHECK ("channels"."kind" in ('collection', 'payout')),
	CONSTRAINT "channels_provider_valid" CHECK ("channels"."provider" in ('sandbox')),
	CONSTRAINT "channels_country_valid" CHECK ("channels"."country" in ('CN', 'IN', 'BR', 'VN')),
	CONSTRAINT "channels_currency_valid" CHECK ("channels"."currency" in ('CNY', 'INR', 'BRL', 'VND', 'USD', 'USDT')),
	CONSTRAINT "channels_status_valid" CHECK ("channels"."status" in ('open', 'closed')),
	CONSTRAINT "channels_sandbox_mode_valid" CHECK ("channels"."sandbox_mode" in ('manual', 'auto')),
	CONSTRAINT "channels_fee_valid" CHECK ("channels"."fee_rate_ppm" between 0 and 1000000 and "channels"."fixed_fee_minor" >= 0),
	CONSTRAINT "channels_limits_valid" CHECK ("channels"."min_amount_minor" > 0 and "channels"."min_amount_minor" <= "channels"."max_amount_minor"),
	CONSTRAINT "channels_cycle_valid" CHECK (("channels"."kind" = 'collection') = ("channels"."settlement_cycle" is not null)
          and ("channels"."settlement_cycle" is null or "channels"."settlement_cycle" in ('T0', 'T1'))),
	CONSTRAINT "channels_expiry_valid" CHECK ("channels"."expiry_minutes" between 1 and 1440),
	CONSTRAINT "channels_sandbox_valid" CHECK ("channels"."sandbox_success_ppm" between 0 and 1000000 and "channels"."sandbox_delay_seconds" between 0 and 86400)
);
--> statement-breakpoint
CREATE TABLE "collections" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "collections_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"channel_id" bigint NOT NULL,
	"channel_code" text NOT NULL,
	"trade_no" text NOT NULL,
	"out_trade_no" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"fee_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'to_be_paid' NOT NULL,
	"settlement_status" text DEFAULT 'unsettled' NOT NULL,
	"settlement_id" bigint,
	"notify_url" text,
	"return_url" text,
	"payer_name" text,
	"note" text,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "collections_trade_no_unique" UNIQUE("trade_no"),
	CONSTRAINT "collections_merchant_out_trade_no_key" UNIQUE("merchant_id","out_trade_no"),
	CONSTRAINT "collections_status_valid" CHECK ("collections"."status" in ('to_be_paid', 'paid', 'closed', 'failed')),
	CONSTRAINT "collections_settlement_status_valid" CHECK ("collections"."settlement_status" in ('unsettled', 'pending_settlement', 'settled')),
	CONSTRAINT "collections_currency_valid" CHECK ("collections"."currency" in ('CNY', 'INR', 'BRL', 'VND', 'USD', 'USDT')),
	CONSTRAINT "collections_amounts_valid" CHECK ("collections"."amount_minor" > 0 and "collections"."fee_minor" >= 0),
	CONSTRAINT "collections_settled_only_when_paid" CHECK ("collections"."settlement_status" = 'unsettled' or ("collections"."status" = 'paid' and "collections"."settlement_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "gateway_nonces" (
	"merchant_id" bigint NOT NULL,
	"nonce" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gateway_nonces_merchant_id_nonce_pk" PRIMARY KEY("merchant_id","nonce")
);
--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "settlements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"settlement_no" text NOT NULL,
	"merchant_id" bigint NOT NULL,
	"channel_id" bigint NOT NULL,
	"channel_code" text NOT NULL,
	"cycle" text NOT NULL,
	"business_date" date NOT NULL,
	"order_count" integer NOT NULL,
	"gross_minor" bigint NOT NULL,
	"fee_minor" bigint NOT NULL,
	"net_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'pending_settlement' NOT NULL,
	"entry_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "settlements_settlement_no_unique" UNIQUE("settlement_no"),
	CONSTRAINT "settlements_cycle_valid" CHECK ("settlements"."cycle" in ('T0', 'T1')),
	CONSTRAINT "settlements_status_valid" CHECK ("settlements"."status" in ('pending_settlement', 'settled')),
	CONSTRAINT "settlements_sums_valid" CHECK ("settlements"."order_count" > 0 and "settlements"."fee_minor" >= 0 and "settlements"."net_minor" = "settlements"."gross_minor" - "settlements"."fee_minor"),
	CONSTRAINT "settlements_posted_when_settled" CHECK (("settlements"."status" = 'settled') = ("settlements"."entry_id" is not null and "settlements"."settled_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "access_keys" ADD COLUMN "webhook_secret_encrypted" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "access_keys" ADD COLUMN "notify_url" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "timezone" text DEFAULT 'Asia/Shanghai' NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "ip_whitelist" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "callback_attempts" ADD CONSTRAINT "callback_attempts_event_id_callback_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."callback_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "callback_events" ADD CONSTRAINT "callback_events_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collections" ADD CONSTRAINT "collections_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collections" ADD CONSTRAINT "collections_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "collections" ADD CONSTRAINT "collections_settlement_id_settlements_id_fk" FOREIGN KEY ("settlement_id") REFERENCES "public"."settlements"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_nonces" ADD CONSTRAINT "gateway_nonces_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "callback_events_ref_idx" ON "callback_events" USING btree ("merchant_id","ref_type","ref_id");--> statement-breakpoint
CREATE INDEX "callback_events_due_idx" ON "callback_events" USING btree ("next_attempt_at") WHERE "callback_events"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "collections_merchant_created_idx" ON "collections" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "collections_merchant_status_created_idx" ON "collections" USING btree ("merchant_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "collections_merchant_paid_idx" ON "collections" USING btree ("merchant_id","paid_at") WHERE "collections"."paid_at" is not null;--> statement-breakpoint
CREATE INDEX "collections_channel_idx" ON "collections" USING btree ("channel_id");--> statement-breakpoint
CREATE INDEX "collections_settlement_idx" ON "collections" USING btree ("settlement_id");--> statement-breakpoint
CREATE INDEX "collections_expiring_idx" ON "collections" USING btree ("expires_at") WHERE "collections"."status" = 'to_be_paid';--> statement-breakpoint
CREATE INDEX "collections_unsettled_idx" ON "collections" USING btree ("channel_id","paid_at") WHERE "collections"."status" = 'paid' and "collections"."settlement_status" = 'unsettled';--> statement-breakpoint
CREATE INDEX "gateway_nonces_created_idx" ON "gateway_nonces" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "settlements_merchant_created_idx" ON "settlements" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "settlements_channel_idx" ON "settlements" USING btree ("channel_id");--> statement-breakpoint
CREATE INDEX "settlements_entry_idx" ON "settlements" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "settlements_pending_idx" ON "settlements" USING btree ("id") WHERE "settlements"."status" = 'pending_settlement';