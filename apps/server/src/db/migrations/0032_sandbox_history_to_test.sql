-- The sandbox history of a database populated before live and test mode becomes test mode's (DESIGN 12,
-- issue 35). Before 0028 every object was on the merchant's one row, which 0028 made its live row; the
-- sandbox serves test mode only, so its channels on live rows, their orders, attempts, callbacks and
-- settlements, and the ledger entries those caused (settlements, payouts: their postings, holds and fund
-- flows) move to the merchant's test twin. What is live by nature stays: operator transfers, freezes,
-- top-ups and withdrawals. Nothing is deleted but a live channel whose twin already has one of the same
-- kind and code (its objects move to that one). Then the books are rebuilt from the postings: account
-- balances, each row's available_after chain, its fund flow rollups; kept daily reports of the two rows go
-- (they are computed again from the fund flows when read). The order and list rollups follow the rows
-- through their triggers. A merchant whose withdrawals or operator transfers out spent sandbox money would
-- end below zero in live mode: the migration stops and names it, for an operator to decide who bears it. Every
-- entry keeps its postings and amounts, so balances, entries and fund flows summed over both rows are what
-- they were (test/integration/mode-migration.test.ts).
CREATE TEMP TABLE "mig_channels" AS
SELECT c."id" AS "live_channel_id", c."merchant_id" AS "live_id", t."id" AS "test_id", c."kind", c."code",
       NULL::bigint AS "test_channel_id"
  FROM "channels" c
  JOIN "merchants" l ON l."id" = c."merchant_id" AND l."mode" = 'live'
  JOIN "merchants" t ON t."live_merchant_id" = l."id"
 WHERE c."provider" = 'sandbox';--> statement-breakpoint
UPDATE "mig_channels" m SET "test_channel_id" = c."id"
  FROM "channels" c
 WHERE c."merchant_id" = m."test_id" AND c."kind" = m."kind" AND c."code" = m."code";--> statement-breakpoint
UPDATE "channels" c SET "merchant_id" = m."test_id", "updated_at" = now()
  FROM "mig_channels" m
 WHERE c."id" = m."live_channel_id" AND m."test_channel_id" IS NULL;--> statement-breakpoint
UPDATE "mig_channels" SET "test_channel_id" = "live_channel_id" WHERE "test_channel_id" IS NULL;--> statement-breakpoint
CREATE TEMP TABLE "mig_orders" AS
SELECT 'collection'::text AS "kind", o."id", m."live_id", m."test_id", m."test_channel_id"
  FROM "collections" o JOIN "mig_channels" m ON o."channel_id" = m."live_channel_id" AND o."merchant_id" = m."live_id"
UNION ALL
SELECT 'payout', o."id", m."live_id", m."test_id", m."test_channel_id"
  FROM "payouts" o JOIN "mig_channels" m ON o."channel_id" = m."live_channel_id" AND o."merchant_id" = m."live_id";--> statement-breakpoint
CREATE TEMP TABLE "mig_settlements" AS
SELECT s."id", m."live_id", m."test_id", m."test_channel_id"
  FROM "settlements" s JOIN "mig_channels" m ON s."channel_id" = m."live_channel_id" AND s."merchant_id" = m."live_id";--> statement-breakpoint
DO $$
DECLARE clash record;
BEGIN
  SELECT l."no", o."out_trade_no" INTO clash
    FROM "mig_orders" mo
    JOIN "merchants" l ON l."id" = mo."live_id"
    JOIN (SELECT 'collection' AS "kind", "id", "out_trade_no" FROM "collections"
          UNION ALL SELECT 'payout', "id", "out_trade_no" FROM "payouts") o ON o."kind" = mo."kind" AND o."id" = mo."id"
    JOIN (SELECT 'collection' AS "kind", "merchant_id", "out_trade_no" FROM "collections"
          UNION ALL SELECT 'payout', "merchant_id", "out_trade_no" FROM "payouts") t
      ON t."kind" = mo."kind" AND t."merchant_id" = mo."test_id" AND t."out_trade_no" = o."out_trade_no"
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'Merchant % has a sandbox order % and a test order of the same out_trade_no: rename one, then start again.',
      clash."no", clash."out_trade_no";
  END IF;
END $$;--> statement-breakpoint
UPDATE "collections" o SET "merchant_id" = m."test_id", "channel_id" = m."test_channel_id"
  FROM "mig_orders" m WHERE m."kind" = 'collection' AND o."id" = m."id";--> statement-breakpoint
UPDATE "payouts" o SET "merchant_id" = m."test_id", "channel_id" = m."test_channel_id"
  FROM "mig_orders" m WHERE m."kind" = 'payout' AND o."id" = m."id";--> statement-breakpoint
UPDATE "settlements" s SET "merchant_id" = m."test_id", "channel_id" = m."test_channel_id"
  FROM "mig_settlements" m WHERE s."id" = m."id";--> statement-breakpoint
UPDATE "channel_attempts" a SET "merchant_id" = m."test_id", "channel_id" = m."test_channel_id"
  FROM "mig_channels" m WHERE a."channel_id" = m."live_channel_id" AND a."merchant_id" = m."live_id";--> statement-breakpoint
UPDATE "callback_events" e SET "merchant_id" = m."test_id"
  FROM "mig_orders" m WHERE e."merchant_id" = m."live_id" AND e."ref_type" = m."kind" AND e."ref_id" = m."id";--> statement-breakpoint
DELETE FROM "channels" c USING "mig_channels" m
 WHERE c."id" = m."live_channel_id" AND m."test_channel_id" <> m."live_channel_id";--> statement-breakpoint
-- The entries those orders caused, and the accounts they move to.
CREATE TEMP TABLE "mig_entries" AS
SELECT j."id", m."live_id", m."test_id"
  FROM "journal_entries" j
  JOIN "mig_orders" m ON m."kind" = 'payout' AND j."merchant_id" = m."live_id"
   AND j."ref_type" = 'payout' AND j."ref_id" = m."id"::text
UNION
SELECT j."id", m."live_id", m."test_id"
  FROM "journal_entries" j
  JOIN "mig_settlements" m ON j."merchant_id" = m."live_id" AND j."ref_type" = 'settlement' AND j."ref_id" = m."id"::text;--> statement-breakpoint
INSERT INTO "ledger_accounts" ("code", "kind", "merchant_id", "currency", "mode")
SELECT DISTINCT 'merchant:' || e."test_id" || ':' || (CASE a."kind" WHEN 'merchant_available' THEN 'available' ELSE 'locked' END),
       a."kind", e."test_id", a."currency", 'test'
  FROM "mig_entries" e
  JOIN "ledger_accounts" a ON a."merchant_id" = e."live_id"
ON CONFLICT DO NOTHING;--> statement-breakpoint
INSERT INTO "ledger_accounts" ("code", "kind", "channel_code", "currency", "mode")
SELECT DISTINCT 'test:' || a."code", a."kind", a."channel_code", a."currency", 'test'
  FROM "postings" p
  JOIN "mig_entries" e ON e."id" = p."entry_id"
  JOIN "ledger_accounts" a ON a."id" = p."account_id" AND a."merchant_id" IS NULL AND a."mode" = 'live'
ON CONFLICT ("code") DO NOTHING;--> statement-breakpoint
UPDATE "postings" p SET "account_id" = t."id"
  FROM "mig_entries" e, "ledger_accounts" l, "ledger_accounts" t
 WHERE p."entry_id" = e."id" AND l."id" = p."account_id" AND l."merchant_id" = e."live_id"
   AND t."merchant_id" = e."test_id" AND t."kind" = l."kind";--> statement-breakpoint
UPDATE "postings" p SET "account_id" = t."id"
  FROM "mig_entries" e, "ledger_accounts" l, "ledger_accounts" t
 WHERE p."entry_id" = e."id" AND l."id" = p."account_id" AND l."merchant_id" IS NULL AND l."mode" = 'live'
   AND t."code" = 'test:' || l."code";--> statement-breakpoint
UPDATE "journal_entries" j SET "merchant_id" = e."test_id" FROM "mig_entries" e WHERE j."id" = e."id";--> statement-breakpoint
UPDATE "fund_flows" f SET "merchant_id" = e."test_id" FROM "mig_entries" e WHERE f."entry_id" = e."id";--> statement-breakpoint
UPDATE "holds" h SET "merchant_id" = m."test_id"
  FROM "mig_orders" m
 WHERE m."kind" = 'payout' AND h."merchant_id" = m."live_id" AND h."ref_type" = 'payout' AND h."ref_id" = m."id"::text;--> statement-breakpoint
-- The books again, from the postings.
CREATE TEMP TABLE "mig_rows" AS
SELECT DISTINCT "live_id" AS "id" FROM "mig_entries" UNION SELECT DISTINCT "test_id" FROM "mig_entries";--> statement-breakpoint
DO $$
DECLARE short record;
BEGIN
  SELECT m."no", a."currency", s."total" INTO short
    FROM "ledger_accounts" a
    JOIN "merchants" m ON m."id" = a."merchant_id" AND m."mode" = 'live'
    JOIN (SELECT "account_id", sum("amount_minor") AS "total" FROM "postings" GROUP BY "account_id") s
      ON s."account_id" = a."id"
   WHERE a."merchant_id" IN (SELECT "id" FROM "mig_rows") AND s."total" < 0
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'Merchant % spent sandbox money in live mode: without its sandbox history its live balance would be % minor units of %. Decide who bears it (an operator transfer), then start again.',
      short."no", short."total", short."currency";
  END IF;
END $$;--> statement-breakpoint
UPDATE "ledger_accounts" a SET "balance_minor" = s."total", "updated_at" = now()
  FROM (SELECT a2."id", coalesce(sum(p."amount_minor"), 0) AS "total"
          FROM "ledger_accounts" a2 LEFT JOIN "postings" p ON p."account_id" = a2."id"
         GROUP BY a2."id") s
 WHERE a."id" = s."id" AND a."balance_minor" <> s."total";--> statement-breakpoint
UPDATE "fund_flows" f SET "available_after_minor" = r."running"
  FROM (SELECT "id", sum("amount_minor") OVER (PARTITION BY "merchant_id" ORDER BY "id") AS "running"
          FROM "fund_flows" WHERE "merchant_id" IN (SELECT "id" FROM "mig_rows")) r
 WHERE f."id" = r."id" AND f."available_after_minor" <> r."running";--> statement-breakpoint
DELETE FROM "fund_flow_hourly" WHERE "merchant_id" IN (SELECT "id" FROM "mig_rows");--> statement-breakpoint
DELETE FROM "fund_flow_daily" WHERE "merchant_id" IN (SELECT "id" FROM "mig_rows");--> statement-breakpoint
DELETE FROM "fund_flow_minutely" WHERE "merchant_id" IN (SELECT "id" FROM "mig_rows");--> statement-breakpoint
INSERT INTO "fund_flow_hourly" ("merchant_id", "type", "hour", "in_minor", "out_minor", "entries")
SELECT "merchant_id", "type", date_bin('1 hour', "created_at", timestamptz '2000-01-01 00:00:00+00'),
       sum(greatest("amount_minor", 0)), sum(greatest(-"amount_minor", 0)), count(*)
  FROM "fund_flows" WHERE "merchant_id" IN (SELECT "id" FROM "mig_rows")
 GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "fund_flow_daily" ("merchant_id", "type", "day", "in_minor", "out_minor", "entries")
SELECT "merchant_id", "type", date_bin('1 day', "hour", timestamptz '2000-01-01 00:00:00+00'),
       sum("in_minor"), sum("out_minor"), sum("entries")
  FROM "fund_flow_hourly"
 WHERE "merchant_id" IN (SELECT "id" FROM "mig_rows")
   AND "hour" < coalesce((SELECT "before" FROM "rollup_horizons" WHERE "rollup" = 'fund_flow'), '-infinity'::timestamptz)
 GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "fund_flow_minutely" ("merchant_id", "type", "minute", "in_minor", "out_minor", "entries")
SELECT "merchant_id", "type", date_bin('1 minute', "created_at", timestamptz '2000-01-01 00:00:00+00'),
       sum(greatest("amount_minor", 0)), sum(greatest(-"amount_minor", 0)), count(*)
  FROM "fund_flows"
 WHERE "merchant_id" IN (SELECT "id" FROM "mig_rows")
   AND "created_at" < coalesce((SELECT "before" FROM "rollup_horizons" WHERE "rollup" = 'fund_flow_minute'), '-infinity'::timestamptz)
 GROUP BY 1, 2, 3;--> statement-breakpoint
DELETE FROM "daily_reports" WHERE "merchant_id" IN (SELECT "id" FROM "mig_rows");--> statement-breakpoint
DROP TABLE "mig_rows";--> statement-breakpoint
DROP TABLE "mig_entries";--> statement-breakpoint
DROP TABLE "mig_settlements";--> statement-breakpoint
DROP TABLE "mig_orders";--> statement-breakpoint
DROP TABLE "mig_channels";
