-- Channel adapters (DESIGN 13, issue 35 item 5): every attempt of an order on a channel is a row of
-- channel_attempts (channel, provider, the provider's reference, request and answer summaries, outcome,
-- times), written with the order and updated when the channel reports how it ended. collections.pay_url
-- keeps where the payer pays as the channel's adapter said at creation (today the sandbox's hosted page,
-- a path of this server; a real provider's is its own URL), so no service derives it from a provider name.
-- Existing orders get what new ones get, set-based: their pay_url, and one attempt each from their channel
-- and status (the outcome as adapters/outcomes.ts maps it), timed from the order's own times. The sandbox
-- was the only provider until now, so every existing collection's pay page is the sandbox's.
CREATE TABLE "channel_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "channel_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_kind" text NOT NULL,
	"order_id" bigint NOT NULL,
	"merchant_id" bigint NOT NULL,
	"channel_id" bigint NOT NULL,
	"provider" text NOT NULL,
	"channel_ref" text,
	"request_summary" jsonb,
	"answer_summary" jsonb,
	"outcome" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_attempts_kind_valid" CHECK ("channel_attempts"."order_kind" in ('collection', 'payout')),
	CONSTRAINT "channel_attempts_outcome_valid" CHECK ("channel_attempts"."outcome" in ('pending', 'processing', 'succeeded', 'failed', 'expired', 'cancelled', 'returned'))
);
--> statement-breakpoint
ALTER TABLE "collections" ADD COLUMN "pay_url" text;--> statement-breakpoint
ALTER TABLE "channel_attempts" ADD CONSTRAINT "channel_attempts_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_attempts" ADD CONSTRAINT "channel_attempts_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channel_attempts_order_idx" ON "channel_attempts" USING btree ("merchant_id","order_kind","order_id","id");--> statement-breakpoint
CREATE INDEX "channel_attempts_channel_idx" ON "channel_attempts" USING btree ("channel_id");--> statement-breakpoint
UPDATE "collections" SET "pay_url" = '/sandbox/pay/' || "trade_no" WHERE "pay_url" IS NULL;--> statement-breakpoint
INSERT INTO "channel_attempts" ("order_kind", "order_id", "merchant_id", "channel_id", "provider", "channel_ref",
                                "request_summary", "outcome", "created_at", "updated_at")
SELECT 'collection', o."id", o."merchant_id", o."channel_id", c."provider", o."channel_ref",
       json_build_object('amount_minor', o."amount_minor"::text, 'currency', o."currency"),
       CASE o."status" WHEN 'to_be_paid' THEN 'pending' WHEN 'paid' THEN 'succeeded' WHEN 'failed' THEN 'failed'
                       ELSE 'expired' END,
       o."created_at", coalesce(o."paid_at", o."finished_at", o."created_at")
  FROM "collections" o JOIN "channels" c ON c."id" = o."channel_id"
 ORDER BY o."id";--> statement-breakpoint
INSERT INTO "channel_attempts" ("order_kind", "order_id", "merchant_id", "channel_id", "provider", "channel_ref",
                                "request_summary", "outcome", "created_at", "updated_at")
SELECT 'payout', o."id", o."merchant_id", o."channel_id", c."provider", o."channel_ref",
       json_build_object('amount_minor', o."amount_minor"::text, 'currency', o."currency",
                         'account', '*' || right(o."account_no", 4)),
       CASE o."status" WHEN 'pending' THEN 'pending' WHEN 'processing' THEN 'processing'
                       WHEN 'success' THEN 'succeeded' WHEN 'failed' THEN 'failed'
                       WHEN 'refund_received' THEN 'returned' ELSE 'cancelled' END,
       o."created_at", coalesce(o."refunded_at", o."finished_at", o."processing_at", o."created_at")
  FROM "payouts" o JOIN "channels" c ON c."id" = o."channel_id"
 ORDER BY o."id";
