CREATE TABLE "fund_flow_daily" (
	"merchant_id" bigint NOT NULL,
	"type" text NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"in_minor" bigint NOT NULL,
	"out_minor" bigint NOT NULL,
	"entries" bigint NOT NULL,
	CONSTRAINT "fund_flow_daily_merchant_id_type_day_pk" PRIMARY KEY("merchant_id","type","day")
);
--> statement-breakpoint
ALTER TABLE "fund_flow_daily" ADD CONSTRAINT "fund_flow_daily_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fund_flow_daily_merchant_day_idx" ON "fund_flow_daily" USING btree ("merchant_id","day");