CREATE TABLE "idempotency_keys" (
	"merchant_id" bigint NOT NULL,
	"key" text NOT NULL,
	"scope" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" text DEFAULT 'in_flight' NOT NULL,
	"response_status" integer,
	"response_body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_merchant_id_key_pk" PRIMARY KEY("merchant_id","key"),
	CONSTRAINT "idempotency_keys_status_valid" CHECK ("idempotency_keys"."status" in ('in_flight', 'done'))
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payouts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"channel_id" bigint NOT NULL,
	"channel_code" text NOT NULL,
	"trade_no" text NOT NULL,
	"out_trade_no" text NOT NULL,
	"source" text NOT NULL,
	"created_by_user_id" bigint,
	"amount_minor" bigint NOT NULL,
	"fee_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"account_type" text NOT NULL,
	"bank_code" text,
	"bank_name" text,
	"branch_name" text,
	"ifsc" text,
	"cpf_cnpj" text,
	"payee_name" text NOT NULL,
	"account_no" text NOT NULL,
	"notify_url" text,
	"note" text,
	"hold_id" bigint,
	"failure_reason" text,
	"processing_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payouts_trade_no_unique" UNIQUE("trade_no"),
	CONSTRAINT "payouts_merchant_out_trade_no_key" UNIQUE("merchant_id","out_trade_no"),
	CONSTRAINT "payouts_status_valid" CHECK ("payouts"."status" in ('pending', 'processing', 'success', 'failed', 'cancelled', 'rejected', 'refund_received')),
	CONSTRAINT "payouts_account_type_valid" CHECK ("payouts"."account_type" in ('individual', 'company')),
	CONSTRAINT "payouts_source_valid" CHECK ("payouts"."source" in ('console', 'gateway')),
	CONSTRAINT "payouts_currency_valid" CHECK ("payouts"."currency" in ('CNY', 'INR', 'BRL', 'VND', 'USD', 'USDT')),
	CONSTRAINT "payouts_amounts_valid" CHECK ("payouts"."amount_minor" > 0 and "payouts"."fee_minor" >= 0)
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_hold_id_holds_id_fk" FOREIGN KEY ("hold_id") REFERENCES "public"."holds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "payouts_merchant_created_idx" ON "payouts" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payouts_merchant_status_created_idx" ON "payouts" USING btree ("merchant_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payouts_merchant_account_idx" ON "payouts" USING btree ("merchant_id","account_no","created_at");--> statement-breakpoint
CREATE INDEX "payouts_merchant_finished_idx" ON "payouts" USING btree ("merchant_id","finished_at") WHERE "payouts"."finished_at" is not null;--> statement-breakpoint
CREATE INDEX "payouts_channel_idx" ON "payouts" USING btree ("channel_id");--> statement-breakpoint
CREATE INDEX "payouts_hold_idx" ON "payouts" USING btree ("hold_id");--> statement-breakpoint
CREATE INDEX "payouts_user_idx" ON "payouts" USING btree ("created_by_user_id");