CREATE TABLE "received_payments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "received_payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"channel_id" bigint NOT NULL,
	"txn_id" text NOT NULL,
	"reference" text NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"paid_at" timestamp with time zone NOT NULL,
	"business_date" date NOT NULL,
	"payer" text,
	"notified_at" timestamp with time zone,
	"statement_import_id" bigint,
	"collection_id" bigint,
	"status" text NOT NULL,
	"problem" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "received_payments_channel_txn_key" UNIQUE("channel_id","txn_id"),
	CONSTRAINT "received_payments_status_valid" CHECK ("received_payments"."status" in ('matched', 'unknown', 'review', 'resolved')),
	CONSTRAINT "received_payments_problem_valid" CHECK (("received_payments"."status" <> 'review' or "received_payments"."problem" is not null)
          and ("received_payments"."problem" is null or "received_payments"."status" in ('review', 'resolved'))),
	CONSTRAINT "received_payments_problem_known" CHECK ("received_payments"."problem" is null or "received_payments"."problem" in ('amount_differs', 'not_payable', 'already_paid')),
	CONSTRAINT "received_payments_amount_valid" CHECK ("received_payments"."amount_minor" > 0)
);
--> statement-breakpoint
CREATE TABLE "reconciliation_days" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reconciliation_days_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"channel_id" bigint NOT NULL,
	"business_date" date NOT NULL,
	"closed_by" text NOT NULL,
	"closed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reconciliation_days_channel_day_key" UNIQUE("channel_id","business_date")
);
--> statement-breakpoint
CREATE TABLE "reconciliation_resolutions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reconciliation_resolutions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"channel_id" bigint NOT NULL,
	"business_date" date NOT NULL,
	"payment_id" bigint,
	"collection_id" bigint,
	"action" text NOT NULL,
	"reason" text NOT NULL,
	"amount_minor" bigint,
	"entry_id" bigint,
	"resolved_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reconciliation_resolutions_action_valid" CHECK ("reconciliation_resolutions"."action" in ('mark_paid', 'refund_to_payer', 'ledger_adjustment')),
	CONSTRAINT "reconciliation_resolutions_subject" CHECK ("reconciliation_resolutions"."payment_id" is not null or "reconciliation_resolutions"."collection_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "statement_imports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "statement_imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"merchant_id" bigint NOT NULL,
	"channel_id" bigint NOT NULL,
	"business_date" date NOT NULL,
	"format" text NOT NULL,
	"file_name" text NOT NULL,
	"sha256" text NOT NULL,
	"line_count" bigint NOT NULL,
	"new_lines" bigint NOT NULL,
	"imported_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "statement_imports_format_valid" CHECK ("statement_imports"."format" in ('csv', 'mt940', 'camt053'))
);
--> statement-breakpoint
ALTER TABLE "channels" DROP CONSTRAINT "channels_provider_valid";--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "secrets" text;--> statement-breakpoint
ALTER TABLE "received_payments" ADD CONSTRAINT "received_payments_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "received_payments" ADD CONSTRAINT "received_payments_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "received_payments" ADD CONSTRAINT "received_payments_statement_import_id_statement_imports_id_fk" FOREIGN KEY ("statement_import_id") REFERENCES "public"."statement_imports"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "received_payments" ADD CONSTRAINT "received_payments_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_days" ADD CONSTRAINT "reconciliation_days_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_days" ADD CONSTRAINT "reconciliation_days_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_resolutions" ADD CONSTRAINT "reconciliation_resolutions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_resolutions" ADD CONSTRAINT "reconciliation_resolutions_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_resolutions" ADD CONSTRAINT "reconciliation_resolutions_payment_id_received_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."received_payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_resolutions" ADD CONSTRAINT "reconciliation_resolutions_collection_id_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."collections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_resolutions" ADD CONSTRAINT "reconciliation_resolutions_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_imports" ADD CONSTRAINT "statement_imports_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "statement_imports" ADD CONSTRAINT "statement_imports_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "received_payments_channel_day_idx" ON "received_payments" USING btree ("channel_id","business_date");--> statement-breakpoint
CREATE INDEX "received_payments_merchant_idx" ON "received_payments" USING btree ("merchant_id","id");--> statement-breakpoint
CREATE INDEX "received_payments_collection_idx" ON "received_payments" USING btree ("collection_id");--> statement-breakpoint
CREATE INDEX "received_payments_import_idx" ON "received_payments" USING btree ("statement_import_id");--> statement-breakpoint
CREATE INDEX "reconciliation_days_merchant_idx" ON "reconciliation_days" USING btree ("merchant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_resolutions_payment_key" ON "reconciliation_resolutions" USING btree ("payment_id") WHERE "reconciliation_resolutions"."payment_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_resolutions_missing_key" ON "reconciliation_resolutions" USING btree ("collection_id") WHERE "reconciliation_resolutions"."payment_id" is null;--> statement-breakpoint
CREATE INDEX "reconciliation_resolutions_channel_day_idx" ON "reconciliation_resolutions" USING btree ("channel_id","business_date");--> statement-breakpoint
CREATE INDEX "reconciliation_resolutions_merchant_idx" ON "reconciliation_resolutions" USING btree ("merchant_id","id");--> statement-breakpoint
CREATE INDEX "reconciliation_resolutions_collection_idx" ON "reconciliation_resolutions" USING btree ("collection_id");--> statement-breakpoint
CREATE INDEX "reconciliation_resolutions_entry_idx" ON "reconciliation_resolutions" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "statement_imports_channel_day_idx" ON "statement_imports" USING btree ("channel_id","business_date");--> statement-breakpoint
CREATE INDEX "statement_imports_merchant_idx" ON "statement_imports" USING btree ("merchant_id","id");--> statement-breakpoint
CREATE INDEX "channels_code_idx" ON "channels" USING btree ("code");--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_provider_valid" CHECK ("channels"."provider" in ('sandbox', 'bank_transfer', 'manual', 'razorpay'));