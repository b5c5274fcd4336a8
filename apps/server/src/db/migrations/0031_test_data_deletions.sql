CREATE TABLE "test_data_deletions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "test_data_deletions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"requested_by" bigint NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "test_data_deletions_status_valid" CHECK ("test_data_deletions"."status" in ('queued', 'running', 'done'))
);
--> statement-breakpoint
ALTER TABLE "test_data_deletions" ADD CONSTRAINT "test_data_deletions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_data_deletions" ADD CONSTRAINT "test_data_deletions_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "test_data_deletions_merchant_idx" ON "test_data_deletions" USING btree ("merchant_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "test_data_deletions_requested_by_idx" ON "test_data_deletions" USING btree ("requested_by");--> statement-breakpoint
CREATE UNIQUE INDEX "test_data_deletions_one_at_a_time" ON "test_data_deletions" USING btree ("merchant_id") WHERE "test_data_deletions"."status" in ('queued', 'running');