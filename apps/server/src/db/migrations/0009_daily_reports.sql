CREATE TABLE "daily_reports" (
	"merchant_id" bigint NOT NULL,
	"timezone" text NOT NULL,
	"day" date NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"opening_minor" bigint NOT NULL,
	"closing_minor" bigint NOT NULL,
	"collection_net_minor" bigint NOT NULL,
	"collection_fee_minor" bigint NOT NULL,
	"collection_count" integer NOT NULL,
	"payout_deducted_minor" bigint NOT NULL,
	"payout_fee_minor" bigint NOT NULL,
	"payout_count" integer NOT NULL,
	"refunds_minor" bigint NOT NULL,
	"top_ups_minor" bigint NOT NULL,
	"withdrawals_minor" bigint NOT NULL,
	"transfers_minor" bigint NOT NULL,
	"freezes_minor" bigint NOT NULL,
	"entries" integer NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "daily_reports_merchant_id_timezone_day_pk" PRIMARY KEY("merchant_id","timezone","day"),
	CONSTRAINT "daily_reports_range" CHECK ("daily_reports"."starts_at" < "daily_reports"."ends_at"),
	CONSTRAINT "daily_reports_balanced" CHECK ("daily_reports"."closing_minor" = "daily_reports"."opening_minor" + "daily_reports"."collection_net_minor" + "daily_reports"."payout_deducted_minor"
          + "daily_reports"."refunds_minor" + "daily_reports"."top_ups_minor" + "daily_reports"."withdrawals_minor" + "daily_reports"."transfers_minor" + "daily_reports"."freezes_minor")
);
--> statement-breakpoint
ALTER TABLE "daily_reports" ADD CONSTRAINT "daily_reports_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;