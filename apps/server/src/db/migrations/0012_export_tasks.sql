CREATE TABLE "export_tasks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "export_tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"format" text NOT NULL,
	"filters" jsonb NOT NULL,
	"time_zone" text NOT NULL,
	"locale" text NOT NULL,
	"max_row_id" bigint NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"rows_expected" integer DEFAULT 0 NOT NULL,
	"rows_done" integer DEFAULT 0 NOT NULL,
	"sums" jsonb,
	"file_key" text,
	"size" bigint,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"expired_at" timestamp with time zone,
	CONSTRAINT "export_tasks_status_valid" CHECK ("export_tasks"."status" in ('waiting', 'exporting', 'success', 'failed')),
	CONSTRAINT "export_tasks_format_valid" CHECK ("export_tasks"."format" in ('csv', 'xlsx'))
);
--> statement-breakpoint
ALTER TABLE "export_tasks" ADD CONSTRAINT "export_tasks_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "export_tasks" ADD CONSTRAINT "export_tasks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "export_tasks_merchant_idx" ON "export_tasks" USING btree ("merchant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "export_tasks_merchant_status_idx" ON "export_tasks" USING btree ("merchant_id","status");--> statement-breakpoint
CREATE INDEX "export_tasks_user_idx" ON "export_tasks" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "export_tasks_expiry_idx" ON "export_tasks" USING btree ("expires_at") WHERE "export_tasks"."file_key" is not null;