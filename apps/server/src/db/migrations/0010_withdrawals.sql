CREATE TABLE "withdrawals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "withdrawals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"withdrawal_no" text NOT NULL,
	"created_by_user_id" bigint,
	"status" text DEFAULT 'pending_review' NOT NULL,
	"network" text NOT NULL,
	"address" text NOT NULL,
	"amount_usdt_minor" bigint NOT NULL,
	"fee_usdt_minor" bigint NOT NULL,
	"is_free" boolean DEFAULT false NOT NULL,
	"rate" text NOT NULL,
	"local_currency" text NOT NULL,
	"amount_local_minor" bigint NOT NULL,
	"fee_local_minor" bigint NOT NULL,
	"hold_id" bigint,
	"tx_hash" text,
	"reject_reason" text,
	"approved_at" timestamp with time zone,
	"approved_by" text,
	"paid_at" timestamp with time zone,
	"paid_by" text,
	"rejected_at" timestamp with time zone,
	"rejected_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawals_withdrawal_no_unique" UNIQUE("withdrawal_no"),
	CONSTRAINT "withdrawals_status_valid" CHECK ("withdrawals"."status" in ('pending_review', 'approved', 'paid', 'rejected')),
	CONSTRAINT "withdrawals_network_valid" CHECK ("withdrawals"."network" in ('TRC20', 'ERC20')),
	CONSTRAINT "withdrawals_local_currency_valid" CHECK ("withdrawals"."local_currency" in ('CNY', 'INR', 'BRL', 'VND', 'USD', 'USDT')),
	CONSTRAINT "withdrawals_amounts_valid" CHECK ("withdrawals"."amount_usdt_minor" > 0 and "withdrawals"."fee_usdt_minor" >= 0 and "withdrawals"."amount_local_minor" > 0 and "withdrawals"."fee_local_minor" >= 0),
	CONSTRAINT "withdrawals_paid_has_hash" CHECK (("withdrawals"."status" = 'paid') = ("withdrawals"."tx_hash" is not null and "withdrawals"."paid_at" is not null)),
	CONSTRAINT "withdrawals_rejected_has_reason" CHECK (("withdrawals"."status" = 'rejected') = ("withdrawals"."reject_reason" is not null and "withdrawals"."rejected_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "security_events" DROP CONSTRAINT "security_events_type_valid";--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_hold_id_holds_id_fk" FOREIGN KEY ("hold_id") REFERENCES "public"."holds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "withdrawals_merchant_created_idx" ON "withdrawals" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "withdrawals_merchant_status_created_idx" ON "withdrawals" USING btree ("merchant_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "withdrawals_status_created_idx" ON "withdrawals" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "withdrawals_hold_idx" ON "withdrawals" USING btree ("hold_id");--> statement-breakpoint
CREATE INDEX "withdrawals_user_idx" ON "withdrawals" USING btree ("created_by_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_tx_hash_key" ON "withdrawals" USING btree ("tx_hash") WHERE "withdrawals"."tx_hash" is not null;--> statement-breakpoint
ALTER TABLE "security_events" ADD CONSTRAINT "security_events_type_valid" CHECK ("security_events"."type" in ('login', 'login_failed', 'logout', 'two_factor_challenge_failed', 'two_factor_enabled', 'two_factor_disabled', 'recovery_codes_viewed', 'recovery_codes_regenerated', 'recovery_code_used', 'password_changed', 'payment_password_set', 'payment_password_changed', 'payment_password_reset', 'payment_password_failed', 'payment_password_locked', 'profile_updated', 'other_sessions_ended', 'access_key_revealed', 'access_key_regenerated', 'notify_url_changed', 'ip_whitelist_changed', 'withdrawal_requested', 'withdrawal_approved', 'withdrawal_paid', 'withdrawal_rejected'));