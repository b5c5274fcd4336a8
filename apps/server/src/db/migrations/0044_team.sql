CREATE TABLE "user_invitations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "user_invitations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" bigint,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_user_id" bigint,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "user_invitations_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "user_invitations_role_valid" CHECK ("user_invitations"."role" in ('ROOT', 'FINANCE', 'OPERATOR', 'VIEWER'))
);
--> statement-breakpoint
ALTER TABLE "security_events" DROP CONSTRAINT "security_events_type_valid";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_invitations" ADD CONSTRAINT "user_invitations_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_invitations" ADD CONSTRAINT "user_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_invitations" ADD CONSTRAINT "user_invitations_accepted_user_id_users_id_fk" FOREIGN KEY ("accepted_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_invitations_merchant_idx" ON "user_invitations" USING btree ("merchant_id","created_at");--> statement-breakpoint
ALTER TABLE "security_events" ADD CONSTRAINT "security_events_type_valid" CHECK ("security_events"."type" in ('login', 'login_failed', 'logout', 'two_factor_challenge_failed', 'two_factor_enabled', 'two_factor_disabled', 'recovery_codes_viewed', 'recovery_codes_regenerated', 'recovery_code_used', 'password_changed', 'payment_password_set', 'payment_password_changed', 'payment_password_reset', 'payment_password_failed', 'payment_password_locked', 'profile_updated', 'other_sessions_ended', 'access_key_revealed', 'access_key_regenerated', 'notify_url_changed', 'ip_whitelist_changed', 'withdrawal_requested', 'withdrawal_approved', 'withdrawal_paid', 'withdrawal_rejected', 'topup_approved', 'topup_rejected', 'payout_approval_changed', 'payout_approved', 'payout_rejected', 'user_invited', 'user_role_changed', 'user_disabled', 'user_enabled', 'user_two_factor_reset', 'invitation_accepted'));