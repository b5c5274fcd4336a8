CREATE TABLE "razorpay_stand_in_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" bigint NOT NULL,
	"payment_id" text NOT NULL,
	"idempotency_key" text,
	"status" text NOT NULL,
	"body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "razorpay_stand_in_refunds_status_valid" CHECK ("razorpay_stand_in_refunds"."status" in ('pending', 'processed', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "razorpay_stand_in_refunds" ADD CONSTRAINT "razorpay_stand_in_refunds_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "razorpay_stand_in_refunds_idempotency_key" ON "razorpay_stand_in_refunds" USING btree ("channel_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "razorpay_stand_in_refunds_payment_idx" ON "razorpay_stand_in_refunds" USING btree ("channel_id","payment_id");