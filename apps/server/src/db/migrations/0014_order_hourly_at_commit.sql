-- The order_hourly rows (16 slots per merchant, kind, status and hour) are shared by concurrent orders of
-- one merchant. Counted by an ordinary trigger, an order's slot stayed locked from its insert to the
-- commit, across the ledger's hold and the job's enqueue. As constraint triggers deferred to the commit,
-- they take that lock last, beside the merchant's balance row: the same counts, in the same transaction.
DROP TRIGGER "collections_order_hourly" ON "collections";
--> statement-breakpoint
DROP TRIGGER "collections_order_hourly_update" ON "collections";
--> statement-breakpoint
DROP TRIGGER "payouts_order_hourly" ON "payouts";
--> statement-breakpoint
DROP TRIGGER "payouts_order_hourly_update" ON "payouts";
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "collections_order_hourly" AFTER INSERT OR DELETE ON "collections"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION order_hourly_apply('collection');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "collections_order_hourly_update" AFTER UPDATE OF status, amount_minor, fee_minor, created_at, merchant_id ON "collections"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.amount_minor IS DISTINCT FROM NEW.amount_minor
    OR OLD.fee_minor IS DISTINCT FROM NEW.fee_minor OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.merchant_id IS DISTINCT FROM NEW.merchant_id)
  EXECUTE FUNCTION order_hourly_apply('collection');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payouts_order_hourly" AFTER INSERT OR DELETE ON "payouts"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION order_hourly_apply('payout');
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "payouts_order_hourly_update" AFTER UPDATE OF status, amount_minor, fee_minor, created_at, merchant_id ON "payouts"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.amount_minor IS DISTINCT FROM NEW.amount_minor
    OR OLD.fee_minor IS DISTINCT FROM NEW.fee_minor OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.merchant_id IS DISTINCT FROM NEW.merchant_id)
  EXECUTE FUNCTION order_hourly_apply('payout');
