CREATE TABLE "payout_approval_settings" (
	"merchant_id" bigint PRIMARY KEY NOT NULL,
	"console_threshold_minor" bigint DEFAULT 0 NOT NULL,
	"gateway_threshold_minor" bigint DEFAULT 0 NOT NULL,
	"updated_by_user_id" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_approval_settings_not_negative" CHECK ("payout_approval_settings"."console_threshold_minor" >= 0 and "payout_approval_settings"."gateway_threshold_minor" >= 0)
);
--> statement-breakpoint
ALTER TABLE "security_events" DROP CONSTRAINT "security_events_type_valid";--> statement-breakpoint
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_status_valid";--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "reviewed_by_user_id" bigint;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payout_approval_settings" ADD CONSTRAINT "payout_approval_settings_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_approval_settings" ADD CONSTRAINT "payout_approval_settings_updated_by_user_id_users_id_fk" FOREIGN KEY ("updated_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_reviewed_by_user_id_users_id_fk" FOREIGN KEY ("reviewed_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payouts_merchant_pending_approval_idx" ON "payouts" USING btree ("merchant_id") WHERE "payouts"."status" = 'pending_approval';--> statement-breakpoint
ALTER TABLE "security_events" ADD CONSTRAINT "security_events_type_valid" CHECK ("security_events"."type" in ('login', 'login_failed', 'logout', 'two_factor_challenge_failed', 'two_factor_enabled', 'two_factor_disabled', 'recovery_codes_viewed', 'recovery_codes_regenerated', 'recovery_code_used', 'password_changed', 'payment_password_set', 'payment_password_changed', 'payment_password_reset', 'payment_password_failed', 'payment_password_locked', 'profile_updated', 'other_sessions_ended', 'access_key_revealed', 'access_key_regenerated', 'notify_url_changed', 'ip_whitelist_changed', 'withdrawal_requested', 'withdrawal_approved', 'withdrawal_paid', 'withdrawal_rejected', 'topup_approved', 'topup_rejected', 'payout_approval_changed', 'payout_approved', 'payout_rejected'));--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_status_valid" CHECK ("payouts"."status" in ('pending_approval', 'pending', 'processing', 'success', 'failed', 'cancelled', 'rejected', 'refund_received'));