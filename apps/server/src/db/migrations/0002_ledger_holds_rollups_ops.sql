CREATE TABLE "fund_flow_hourly" (
	"merchant_id" bigint NOT NULL,
	"type" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"in_minor" bigint NOT NULL,
	"out_minor" bigint NOT NULL,
	"entries" bigint NOT NULL,
	CONSTRAINT "fund_flow_hourly_merchant_id_type_hour_pk" PRIMARY KEY("merchant_id","type","hour")
);
--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "type" text NOT NULL;--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "ref_no" text;--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "holds" ADD COLUMN "close_key" text;--> statement-breakpoint
ALTER TABLE "operator_actions" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "operator_tokens" ADD COLUMN "is_local" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "fund_flow_hourly" ADD CONSTRAINT "fund_flow_hourly_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fund_flow_hourly_merchant_hour_idx" ON "fund_flow_hourly" USING btree ("merchant_id","hour");--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_close_key_unique" UNIQUE("close_key");--> statement-breakpoint
ALTER TABLE "operator_actions" ADD CONSTRAINT "operator_actions_idempotency_key_unique" UNIQUE("idempotency_key");--> statement-breakpoint
ALTER TABLE "fund_flows" ADD CONSTRAINT "fund_flows_type_valid" CHECK ("fund_flows"."type" in ('collection_settlement', 'payout_deduction', 'payout_refund', 'recharge', 'withdrawal', 'withdrawal_rejected', 'transfer_in', 'transfer_out', 'funds_frozen', 'funds_unfrozen'));--> statement-breakpoint
ALTER TABLE "fund_flows" ADD CONSTRAINT "fund_flows_amount_nonzero" CHECK ("fund_flows"."amount_minor" <> 0);--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_type_valid" CHECK ("holds"."type" in ('payout_deduction', 'withdrawal', 'funds_frozen'));--> statement-breakpoint
ALTER TABLE "holds" ADD CONSTRAINT "holds_closed_consistent" CHECK (("holds"."status" = 'open') = ("holds"."close_key" is null));