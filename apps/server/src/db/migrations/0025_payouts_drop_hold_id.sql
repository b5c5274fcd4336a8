-- payouts.hold_id was never written: a payout's hold is found by its idempotency key (payout:<id>:deduct,
-- payouts.service holdKey), and the hold is the last statement of the payout's creation, after the row. The
-- column read as a link that was always null, and its index was written on every payout for nothing.
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_hold_id_holds_id_fk";
--> statement-breakpoint
DROP INDEX "payouts_hold_idx";--> statement-breakpoint
ALTER TABLE "payouts" DROP COLUMN "hold_id";