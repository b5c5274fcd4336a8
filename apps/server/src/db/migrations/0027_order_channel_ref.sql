-- The channel's own number for an order (the spec's outNo, "associated order number"), set when the channel
-- takes a payout or reports a collection; older orders have none.
ALTER TABLE "collections" ADD COLUMN "channel_ref" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "channel_ref" text;