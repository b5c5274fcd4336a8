-- Live and test mode (DESIGN 12, issue 35): every merchant becomes two rows, its live row and a test twin
-- (mode 'test', live_merchant_id naming the live row) that carries the same number, name, currency, status,
-- time zone and whitelist. Object tables already key everything by merchant_id, so the two modes are kept
-- apart by the row alone. The number is unique per mode now. Existing merchants get their twin here; their
-- rows and objects stay live (their sandbox history is moved to the twin by a later migration).
ALTER TABLE "merchants" DROP CONSTRAINT "merchants_no_unique";--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "mode" text DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "live_merchant_id" bigint;--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_live_merchant_id_merchants_id_fk" FOREIGN KEY ("live_merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_live_merchant_id_unique" UNIQUE("live_merchant_id");--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_no_mode_unique" UNIQUE("no","mode");--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_mode_valid" CHECK ("merchants"."mode" in ('live', 'test'));--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_twin_of_live" CHECK (("merchants"."mode" = 'live') = ("merchants"."live_merchant_id" is null));--> statement-breakpoint
INSERT INTO "merchants" ("no", "name", "currency", "status", "timezone", "ip_whitelist", "created_at", "mode", "live_merchant_id")
SELECT "no", "name", "currency", "status", "timezone", "ip_whitelist", "created_at", 'test', "id"
  FROM "merchants" WHERE "mode" = 'live' ORDER BY "id";
