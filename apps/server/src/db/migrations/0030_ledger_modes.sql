ALTER TABLE "ledger_accounts" ADD COLUMN "mode" text DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_mode_valid" CHECK ("ledger_accounts"."mode" in ('live', 'test'));--> statement-breakpoint
-- Test mode's money apart from live money (DESIGN 12, issue 35). A merchant account takes its merchant row's
-- mode. A platform or channel account that test merchants' entries have posted to (the demo's sandbox history
-- on the twins, since 0028) is split: those postings move to a test account of the same code prefixed "test:",
-- which takes their sum from the live one. Every entry keeps its postings and their amounts, so each entry
-- still balances and the trial balance becomes zero per mode and currency.
UPDATE "ledger_accounts" a SET "mode" = m."mode" FROM "merchants" m
 WHERE a."merchant_id" = m."id" AND m."mode" <> 'live';--> statement-breakpoint
INSERT INTO "ledger_accounts" ("code", "kind", "channel_code", "currency", "mode", "balance_minor")
SELECT 'test:' || a."code", a."kind", a."channel_code", a."currency", 'test', sum(p."amount_minor")
  FROM "postings" p
  JOIN "ledger_accounts" a ON a."id" = p."account_id" AND a."merchant_id" IS NULL
  JOIN "journal_entries" j ON j."id" = p."entry_id"
  JOIN "merchants" m ON m."id" = j."merchant_id" AND m."mode" = 'test'
 GROUP BY a."code", a."kind", a."channel_code", a."currency";--> statement-breakpoint
UPDATE "postings" p SET "account_id" = t."id"
  FROM "ledger_accounts" a, "journal_entries" j, "merchants" m, "ledger_accounts" t
 WHERE a."id" = p."account_id" AND a."merchant_id" IS NULL
   AND j."id" = p."entry_id" AND m."id" = j."merchant_id" AND m."mode" = 'test'
   AND t."code" = 'test:' || a."code";--> statement-breakpoint
UPDATE "ledger_accounts" a SET "balance_minor" = a."balance_minor" - t."balance_minor", "updated_at" = now()
  FROM "ledger_accounts" t
 WHERE t."code" = 'test:' || a."code" AND a."merchant_id" IS NULL AND a."mode" = 'live';
