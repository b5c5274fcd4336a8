CREATE TABLE "limit_usage" (
	"merchant_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"day" date NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"amount_minor" bigint DEFAULT 0 NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "limit_usage_merchant_id_kind_day_subject_pk" PRIMARY KEY("merchant_id","kind","day","subject")
);
--> statement-breakpoint
CREATE TABLE "merchant_blocks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "merchant_blocks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"list" text NOT NULL,
	"value" text NOT NULL,
	"created_by" text NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merchant_blocks_merchant_list_value_key" UNIQUE("merchant_id","list","value"),
	CONSTRAINT "merchant_blocks_list_valid" CHECK ("merchant_blocks"."list" in ('payee_account', 'wallet_address', 'payer_ip'))
);
--> statement-breakpoint
CREATE TABLE "merchant_limits" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "merchant_limits_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"per_order_min_minor" bigint,
	"per_order_max_minor" bigint,
	"daily_amount_minor" bigint,
	"daily_count" integer,
	"payee_daily_count" integer,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merchant_limits_merchant_kind_key" UNIQUE("merchant_id","kind"),
	CONSTRAINT "merchant_limits_kind_valid" CHECK ("merchant_limits"."kind" in ('collection', 'payout', 'withdrawal')),
	CONSTRAINT "merchant_limits_not_negative" CHECK (coalesce("merchant_limits"."per_order_min_minor", 0) >= 0 and coalesce("merchant_limits"."per_order_max_minor", 0) >= 0
        and coalesce("merchant_limits"."daily_amount_minor", 0) >= 0 and coalesce("merchant_limits"."daily_count", 0) >= 0
        and coalesce("merchant_limits"."payee_daily_count", 0) >= 0)
);
--> statement-breakpoint
ALTER TABLE "limit_usage" ADD CONSTRAINT "limit_usage_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchant_blocks" ADD CONSTRAINT "merchant_blocks_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchant_limits" ADD CONSTRAINT "merchant_limits_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;