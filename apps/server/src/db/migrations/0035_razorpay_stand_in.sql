CREATE TABLE "razorpay_stand_in_links" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" bigint NOT NULL,
	"reference_id" text NOT NULL,
	"status" text NOT NULL,
	"body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "razorpay_stand_in_links_status_valid" CHECK ("razorpay_stand_in_links"."status" in ('created', 'paid', 'expired', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "razorpay_stand_in_links" ADD CONSTRAINT "razorpay_stand_in_links_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "razorpay_stand_in_links_reference_key" ON "razorpay_stand_in_links" USING btree ("channel_id","reference_id");