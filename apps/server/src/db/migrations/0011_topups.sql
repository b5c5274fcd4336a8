CREATE TABLE "recharges" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "recharges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"recharge_no" text NOT NULL,
	"created_by_user_id" bigint,
	"network" text NOT NULL,
	"deposit_address" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"status" text DEFAULT 'pending_review' NOT NULL,
	"screenshot_key" text NOT NULL,
	"screenshot_type" text NOT NULL,
	"screenshot_bytes" integer NOT NULL,
	"received_minor" bigint,
	"rate" text,
	"usd_rate" text,
	"credited_minor" bigint,
	"credited_usd_minor" bigint,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	"review_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recharges_recharge_no_unique" UNIQUE("recharge_no"),
	CONSTRAINT "recharges_status_valid" CHECK ("recharges"."status" in ('pending_review', 'approved', 'rejected')),
	CONSTRAINT "recharges_network_valid" CHECK ("recharges"."network" in ('TRC20', 'ERC20')),
	CONSTRAINT "recharges_screenshot_type_valid" CHECK ("recharges"."screenshot_type" in ('image/png', 'image/jpeg')),
	CONSTRAINT "recharges_currency_valid" CHECK ("recharges"."currency" in ('CNY', 'INR', 'BRL', 'VND', 'USD', 'USDT')),
	CONSTRAINT "recharges_amount_positive" CHECK ("recharges"."amount_minor" > 0),
	CONSTRAINT "recharges_approved_complete" CHECK ("recharges"."status" <> 'approved' or ("recharges"."received_minor" > 0 and "recharges"."rate" is not null and "recharges"."credited_minor" >= 0 and "recharges"."credited_usd_minor" >= 0)),
	CONSTRAINT "recharges_reviewed_complete" CHECK ("recharges"."status" = 'pending_review' or ("recharges"."reviewed_by" is not null and "recharges"."reviewed_at" is not null and "recharges"."review_reason" is not null))
);
--> statement-breakpoint
ALTER TABLE "security_events" DROP CONSTRAINT "security_events_type_valid";--> statement-breakpoint
ALTER TABLE "recharges" ADD CONSTRAINT "recharges_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharges" ADD CONSTRAINT "recharges_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recharges_merchant_created_idx" ON "recharges" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "recharges_merchant_status_created_idx" ON "recharges" USING btree ("merchant_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "recharges_status_created_idx" ON "recharges" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "recharges_user_idx" ON "recharges" USING btree ("created_by_user_id");--> statement-breakpoint
ALTER TABLE "security_events" ADD CONSTRAINT "security_events_type_valid" CHECK ("security_events"."type" in ('login', 'login_failed', 'logout', 'two_factor_challenge_failed', 'two_factor_enabled', 'two_factor_disabled', 'recovery_codes_viewed', 'recovery_codes_regenerated', 'recovery_code_used', 'password_changed', 'payment_password_set', 'payment_password_changed', 'payment_password_reset', 'payment_password_failed', 'payment_password_locked', 'profile_updated', 'other_sessions_ended', 'access_key_revealed', 'access_key_regenerated', 'notify_url_changed', 'ip_whitelist_changed', 'withdrawal_requested', 'withdrawal_approved', 'withdrawal_paid', 'withdrawal_rejected', 'topup_approved', 'topup_rejected'));