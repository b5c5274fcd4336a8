-- Two writes a gateway refund or payout made for nothing, and one it made tenfold (issue 37's measure):
-- 1. The user indexes of payouts and refunds hold only the console's rows: a gateway call has no user, and
--    its null entry was an index insertion per order that no query reads (a user's rows are read by id,
--    which a partial index answers).
-- 2. collections keep 10% of each page free (fillfactor 90): an order is written once and changed later
--    (paid, refunded, settled); a change of columns no index holds (refunded_minor, channel_ref, ...) can
--    then stay on its page (a HOT update) instead of a new entry in each of the table's ten indexes. It
--    applies to pages written from now on.
DROP INDEX "payouts_user_idx";--> statement-breakpoint
DROP INDEX "refunds_user_idx";--> statement-breakpoint
CREATE INDEX "payouts_user_idx" ON "payouts" USING btree ("created_by_user_id") WHERE "payouts"."created_by_user_id" is not null;--> statement-breakpoint
CREATE INDEX "refunds_user_idx" ON "refunds" USING btree ("created_by_user_id") WHERE "refunds"."created_by_user_id" is not null;--> statement-breakpoint
ALTER TABLE "collections" SET (fillfactor = 90);
