CREATE TABLE "order_hourly" (
	"kind" text NOT NULL,
	"merchant_id" bigint NOT NULL,
	"status" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"slot" smallint NOT NULL,
	"orders" bigint NOT NULL,
	"amount_minor" bigint NOT NULL,
	"fee_minor" bigint NOT NULL,
	CONSTRAINT "order_hourly_merchant_id_kind_status_hour_slot_pk" PRIMARY KEY("merchant_id","kind","status","hour","slot"),
	CONSTRAINT "order_hourly_kind_valid" CHECK ("order_hourly"."kind" in ('collection', 'payout'))
);
--> statement-breakpoint
ALTER TABLE "order_hourly" ADD CONSTRAINT "order_hourly_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Keeps order_hourly in step with collections and payouts, in the transaction of each change: an insert
-- counts the order under its status, a status (or amount) change moves it, a delete takes it out.
CREATE FUNCTION "order_hourly_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  order_kind text := TG_ARGV[0];
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO order_hourly AS o (kind, merchant_id, status, hour, slot, orders, amount_minor, fee_minor)
    VALUES (order_kind, OLD.merchant_id, OLD.status,
            date_bin('1 hour', OLD.created_at, timestamptz '2000-01-01 00:00:00+00'), OLD.id % 16,
            -1, -OLD.amount_minor, -OLD.fee_minor)
    ON CONFLICT (merchant_id, kind, status, hour, slot) DO UPDATE
      SET orders = o.orders + excluded.orders,
          amount_minor = o.amount_minor + excluded.amount_minor,
          fee_minor = o.fee_minor + excluded.fee_minor;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO order_hourly AS o (kind, merchant_id, status, hour, slot, orders, amount_minor, fee_minor)
    VALUES (order_kind, NEW.merchant_id, NEW.status,
            date_bin('1 hour', NEW.created_at, timestamptz '2000-01-01 00:00:00+00'), NEW.id % 16,
            1, NEW.amount_minor, NEW.fee_minor)
    ON CONFLICT (merchant_id, kind, status, hour, slot) DO UPDATE
      SET orders = o.orders + excluded.orders,
          amount_minor = o.amount_minor + excluded.amount_minor,
          fee_minor = o.fee_minor + excluded.fee_minor;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "collections_order_hourly" AFTER INSERT OR DELETE ON "collections"
  FOR EACH ROW EXECUTE FUNCTION order_hourly_apply('collection');
--> statement-breakpoint
CREATE TRIGGER "collections_order_hourly_update" AFTER UPDATE OF status, amount_minor, fee_minor, created_at, merchant_id ON "collections"
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.amount_minor IS DISTINCT FROM NEW.amount_minor
    OR OLD.fee_minor IS DISTINCT FROM NEW.fee_minor OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.merchant_id IS DISTINCT FROM NEW.merchant_id)
  EXECUTE FUNCTION order_hourly_apply('collection');
--> statement-breakpoint
CREATE TRIGGER "payouts_order_hourly" AFTER INSERT OR DELETE ON "payouts"
  FOR EACH ROW EXECUTE FUNCTION order_hourly_apply('payout');
--> statement-breakpoint
CREATE TRIGGER "payouts_order_hourly_update" AFTER UPDATE OF status, amount_minor, fee_minor, created_at, merchant_id ON "payouts"
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.amount_minor IS DISTINCT FROM NEW.amount_minor
    OR OLD.fee_minor IS DISTINCT FROM NEW.fee_minor OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.merchant_id IS DISTINCT FROM NEW.merchant_id)
  EXECUTE FUNCTION order_hourly_apply('payout');
--> statement-breakpoint
-- The orders already there.
INSERT INTO order_hourly (kind, merchant_id, status, hour, slot, orders, amount_minor, fee_minor)
SELECT 'collection', merchant_id, status, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'),
       id % 16, count(*), sum(amount_minor), sum(fee_minor)
FROM collections GROUP BY 1, 2, 3, 4, 5
UNION ALL
SELECT 'payout', merchant_id, status, date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00'),
       id % 16, count(*), sum(amount_minor), sum(fee_minor)
FROM payouts GROUP BY 1, 2, 3, 4, 5;
