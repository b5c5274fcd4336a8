CREATE INDEX "payout_approval_settings_user_idx" ON "payout_approval_settings" USING btree ("updated_by_user_id");--> statement-breakpoint
CREATE INDEX "payouts_reviewer_idx" ON "payouts" USING btree ("reviewed_by_user_id") WHERE "payouts"."reviewed_by_user_id" is not null;--> statement-breakpoint
CREATE INDEX "user_invitations_invited_by_idx" ON "user_invitations" USING btree ("invited_by");--> statement-breakpoint
CREATE INDEX "user_invitations_accepted_user_idx" ON "user_invitations" USING btree ("accepted_user_id");--> statement-breakpoint
CREATE INDEX "notifications_merchant_idx" ON "notifications" USING btree ("merchant_id");