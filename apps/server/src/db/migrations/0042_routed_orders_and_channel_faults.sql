ALTER TABLE "channel_attempts" ADD COLUMN "channel_fault" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "collections" ADD COLUMN "routed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "routed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "payouts_in_flight_idx" ON "payouts" USING btree ("created_at") WHERE "payouts"."status" in ('pending', 'processing');--> statement-breakpoint
-- Hand-written: attempts that failed over until now failed because no connection was made (the only
-- failure an adapter called safe to retry elsewhere), and those left for review had no answer: both are
-- the channel's fault. Every other failed attempt was a decline and stays out of the channel's health.
UPDATE "channel_attempts" SET "channel_fault" = true WHERE "answer_summary" ? 'failure';
-- Orders written before this migration are not known to have been routed: they read as forced (routed
-- false), so an order in flight during the upgrade is never moved to another channel.

