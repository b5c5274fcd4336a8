-- The fund flows of each closed hour by minute (db/schema fund_flow_minutely), written by the housekeeping
-- sweep from the entries (fundFlowsRepository.closeMinutes), a day at a time from the oldest, beginning at
-- the first sweep after this migration: until then the sums read the entries as before.
CREATE TABLE "fund_flow_minutely" (
	"merchant_id" bigint NOT NULL,
	"type" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"in_minor" bigint NOT NULL,
	"out_minor" bigint NOT NULL,
	"entries" bigint NOT NULL,
	CONSTRAINT "fund_flow_minutely_merchant_id_type_minute_pk" PRIMARY KEY("merchant_id","type","minute")
);
--> statement-breakpoint
ALTER TABLE "fund_flow_minutely" ADD CONSTRAINT "fund_flow_minutely_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fund_flow_minutely_merchant_minute_idx" ON "fund_flow_minutely" USING btree ("merchant_id","minute");