DROP INDEX "channel_attempts_channel_idx";--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "priority" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "weight" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "cooldown_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "health_since" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "channel_attempts_channel_idx" ON "channel_attempts" USING btree ("channel_id","id");--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_routing_valid" CHECK ("channels"."priority" between -1000000 and 1000000 and "channels"."weight" between 1 and 1000000);--> statement-breakpoint
-- Hand-written: until now an order went to the merchant's first opened channel of its kind; each later
-- one ranks one priority below the one before, so routing sends every order where it went before (a
-- channel opened from now on without a priority also goes below the others: ops channel:open).
UPDATE "channels" c SET "priority" = -r.rank
  FROM (SELECT id, row_number() OVER (PARTITION BY merchant_id, kind ORDER BY id) - 1 AS rank FROM channels) r
 WHERE r.id = c.id AND r.rank > 0;
